/**
 * Uploads stream: a media file goes to storage without being held in memory. Starts Hark in this process
 * (no processing workers), uploads a file with curl and samples this process's resident memory
 * throughout; then the same with a file eight times larger. Prints each memory growth and their ratio
 * (target: below 1.5, memory that does not grow with the file; held whole, it would be about 8).
 *
 *   node bench/upload-memory.ts [megabytes of the smaller file, default 128]
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { startHark } from "../src/server.ts";
import { loadSettings } from "../src/settings.ts";

const smaller = Number(process.argv[2] ?? 128);
const ADMIN = "bench-admin-token-0123456789";

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-upload-"));
await fs.chmod(dir, 0o755); // the embedded server may run as another user
const hark = await startHark(
  loadSettings({
    HARK_DATA_DIR: path.join(dir, "data"),
    PORT: "0",
    HARK_ADMIN_TOKEN: ADMIN,
    HARK_WORKER_CONCURRENCY: "0",
    HARK_LOG_LEVEL: "warn",
  }),
  pino({ level: "warn" }),
);
try {
  const account = (await (
    await fetch(`${hark.address}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ accountName: "bench" }),
    })
  ).json()) as { token: string };

  const small = await measure(smaller, account.token);
  const large = await measure(8 * smaller, account.token);
  const ratio = large / small;
  console.log(
    `growth ratio, 8x the file: ${ratio.toFixed(2)} (target < 1.5)${ratio < 1.5 ? "" : "  ABOVE TARGET"}`,
  );
} finally {
  await hark.stop();
  await fs.rm(dir, { recursive: true, force: true });
}

/** Uploads a file of `megabytes`; resolves to the growth of resident memory while it went in. */
async function measure(megabytes: number, token: string): Promise<number> {
  const file = path.join(dir, `upload-${megabytes}.wav`);
  const handle = await fs.open(file, "w");
  const chunk = Buffer.alloc(1024 * 1024, 7);
  for (let i = 0; i < megabytes; i++) await handle.write(chunk);
  await handle.close();

  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const status = await new Promise<string>((resolve, reject) => {
    const curl = spawn(
      "curl",
      [
        "-s",
        "-o",
        "/dev/null",
        "-w",
        "%{http_code}",
        "-H",
        `Authorization: Bearer ${token}`,
        "-F",
        `media=@${file}`,
      ].concat(`${hark.address}/v3/media`),
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    curl.stdout.on("data", (data) => (out += data));
    curl.on("error", reject);
    curl.on("close", () => resolve(out));
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  await fs.rm(file);
  if (status !== "200") throw new Error(`upload answered ${status}`);
  console.log(
    `${megabytes} MiB uploaded in ${seconds.toFixed(2)} s; resident memory ${mib(before)} before, ${mib(peak)} at peak: growth ${mib(peak - before)}`,
  );
  return peak - before;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
