/**
 * The engine Hark wraps, run as a user of pocketsphinx alone would: `pocketsphinx_continuous` on a whole
 * 16 kHz file with Debian's en-us model. The benches compare Hark against it.
 */
import { spawn } from "node:child_process";
import { parsePocketsphinxOutput } from "../../src/pipeline/pocketsphinx.ts";

const MODEL = "/usr/share/pocketsphinx/model/en-us";

/** The words the bare engine hears in `file`. */
export function barePocketsphinx(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const args = [
      "-infile",
      file,
      "-time",
      "yes",
      "-logfn",
      "/dev/null",
      "-hmm",
      `${MODEL}/en-us`,
      "-lm",
      `${MODEL}/en-us.lm.bin`,
      "-dict",
      `${MODEL}/cmudict-en-us.dict`,
    ];
    const child = spawn("pocketsphinx_continuous", args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(parsePocketsphinxOutput(out).map((w) => w.word))
        : reject(new Error(`pocketsphinx_continuous exited ${code} on ${file}`)),
    );
  });
}
