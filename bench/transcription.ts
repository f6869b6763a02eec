/**
 * Speed of Hark against the bare engine it wraps (issue 15): a one-minute and a ten-minute call through
 * Hark, from upload to `finished`, against the bare `pocketsphinx_continuous` command on the same file.
 * Runs alternate, bare then Hark, so that the machine's speed swings hit both alike; the best of each is
 * compared. Prints both times, their ratio (targets on 2 cores: 0.6 or less on a minute, 0.55 or less on
 * ten) and both word error rates.
 *
 *   npm run bench            (or: node bench/transcription.ts [runs of the one-minute call])
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startHarkClient } from "./support/accuracy-engines.ts";
import { barePocketsphinx } from "./support/bare-pocketsphinx.ts";
import {
  buildSpeech,
  type FliteVoice,
  normalizeWords,
  type SpeechPart,
  wordErrorRate,
} from "../test/pipeline/speech.ts";

const SENTENCES: [FliteVoice, string][] = [
  ["rms", "thank you for calling customer support my name is john how can I help you today"],
  ["slt", "hi I am calling about my internet service it has been very slow for the last two weeks"],
  ["rms", "I am sorry to hear that let me look up your account can you give me your phone number"],
  ["slt", "sure it is five five five one two three four five six seven"],
  ["rms", "thank you I can see there was an outage in your area last week"],
  ["slt", "that explains it but the problem is still there this morning"],
  ["rms", "I will reset the connection from our side and send a technician if that does not help"],
  ["slt", "that sounds good how long will the reset take"],
  ["rms", "it should take about ten minutes please restart your router after that"],
  ["slt", "okay I will do that thank you for your help"],
  ["rms", "you are welcome is there anything else I can help you with today"],
  ["slt", "actually one more thing can you tell me when my contract ends"],
  ["rms", "your contract ends in march next year and you can renew it online"],
  ["slt", "great that is all have a nice day"],
];

const shortRuns = Number(process.argv[2] ?? 3);

/** The one-minute call, or the same turns ten times over, with the voices swapped every other time. */
function call(repeats: number): { parts: SpeechPart[]; reference: string[] } {
  const turns = Array.from({ length: repeats }, (_, round) =>
    SENTENCES.map(([voice, text]): [FliteVoice, string] => [
      round % 2 === 0 ? voice : voice === "rms" ? "slt" : "rms",
      text,
    ]),
  ).flat();
  // Pauses between turns, as a real call has.
  return {
    parts: turns.flatMap(([voice, text]) => [{ text, voice }, { silenceMs: 700 }]),
    reference: turns.map(([, text]) => text),
  };
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-"));
  const hark = await startHarkClient();
  try {
    console.log(`${os.availableParallelism()} cores`);
    for (const { name, repeats, runs, target } of [
      { name: "one-minute call", repeats: 1, runs: shortRuns, target: 0.6 },
      { name: "ten-minute call", repeats: 10, runs: 1, target: 0.55 },
    ]) {
      const file = path.join(dir, `call-${repeats}.wav`);
      const { parts, reference } = call(repeats);
      const { lengthMs } = await buildSpeech(parts, file);
      console.log(
        `\n${name}: ${(lengthMs / 1000).toFixed(1)} s, ${reference.join(" ").split(" ").length} words`,
      );
      const bare = best();
      const ours = best();
      for (let run = 0; run < runs; run++) {
        await bare.time(() => barePocketsphinx(file));
        await ours.time(async () => (await hark.recognise(file, false)).channels[0] ?? []);
      }
      const ref = normalizeWords(reference.join(" "));
      const bareWer = wordErrorRate(ref, normalizeWords(bare.result()));
      const harkWer = wordErrorRate(ref, normalizeWords(ours.result()));
      console.log(
        `bare pocketsphinx_continuous: ${seconds(bare.ms())} (best of ${runs}), word error ${percent(bareWer)}`,
      );
      console.log(
        `Hark, upload to finished:     ${seconds(ours.ms())} (best of ${runs}), word error ${percent(harkWer)}`,
      );
      const ratio = ours.ms() / bare.ms();
      console.log(
        `ratio Hark / bare: ${ratio.toFixed(2)} (target <= ${target.toFixed(2)})${ratio <= target ? "" : "  ABOVE TARGET"}`,
      );
      console.log(`word error Hark - bare: ${((harkWer - bareWer) * 100).toFixed(1)} points (target <= 0)`);
    }
  } finally {
    await hark.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Keeps the fastest of several timed runs and what it returned. */
function best() {
  let fastest = { ms: Number.POSITIVE_INFINITY, result: [] as string[] };
  return {
    async time(work: () => Promise<string[]>): Promise<void> {
      const start = performance.now();
      const result = await work();
      const ms = performance.now() - start;
      if (ms < fastest.ms) fastest = { ms, result };
    },
    ms: () => fastest.ms,
    result: () => fastest.result,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

await main();
