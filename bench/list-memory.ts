/**
 * A listing's memory is bounded: `GET /v3/media?limit=1000` over items whose metadata is at the cap
 * (HARK_MAX_METADATA_BYTES) costs a Hark process about what it costs over items with small metadata.
 *
 * Stores two accounts of 1000 items each, one with ~100 bytes of metadata per item (the baseline), one
 * with metadata at the 64 KiB cap, straight into the database. Then, for each case, starts a fresh Hark
 * process on that data, has curl run concurrent `limit=1000` listings against it, and reads the process's
 * peak resident memory (VmHWM) before and after. Cases:
 *   - small: the baseline account;
 *   - capped: the large account, with the default page budget (HARK_LIST_PAGE_METADATA_BYTES, 4 MiB);
 *   - unbounded: the large account with a page budget of 1 GiB, which is how listings behaved before it.
 * Prints each case's growth and bytes answered; the capped growth per concurrent listing as a multiple of
 * the page budget (target: below 6, whatever `limit` and the metadata's size), and unbounded/capped, what
 * the budget saves.
 *
 *   node bench/list-memory.ts [concurrent listings, default 4]
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { startHark } from "../src/server.ts";
import { loadSettings } from "../src/settings.ts";

const concurrency = Number(process.argv[2] ?? 4);
const ITEMS = 1000;
const CAP = 64 * 1024;
/** HARK_LIST_PAGE_METADATA_BYTES's default. */
const PAGE_BUDGET = 4 * 1024 ** 2;
const ADMIN = "bench-admin-token-0123456789";

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-list-"));
await fs.chmod(dir, 0o755); // the embedded server may run as another user
const dataDir = path.join(dir, "data");
try {
  const tokens = await store();
  const small = await measure("small", tokens.small, {});
  const capped = await measure("capped", tokens.large, {});
  const unbounded = await measure("unbounded", tokens.large, {
    HARK_LIST_PAGE_METADATA_BYTES: String(1024 ** 3),
  });
  // Each listing holds its page about three times (rows, documents, the serialized answer), and garbage
  // not yet collected counts too: runs measured 2.4x and 3.7x.
  const perListing = capped / concurrency / PAGE_BUDGET;
  console.log(
    `capped: ${perListing.toFixed(1)}x the page budget per concurrent listing (target < 6)${perListing < 6 ? "" : "  ABOVE TARGET"}; before/after (unbounded/capped): ${(unbounded / capped).toFixed(1)}x; capped/small: ${(capped / small).toFixed(1)}x`,
  );
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}

/** Two accounts and their items, stored with Hark's own database code; resolves to their tokens. */
async function store(): Promise<{ small: string; large: string }> {
  const hark = await startHark(settingsFor(0, {}), pino({ level: "warn" }));
  try {
    const account = async (accountName: string) => {
      const response = await fetch(`${hark.address}/admin/accounts`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
        body: JSON.stringify({ accountName }),
      });
      return ((await response.json()) as { token: string }).token;
    };
    const tokens = { small: await account("small"), large: await account("large") };
    // md5 text, so that neither PostgreSQL's compression nor anything else makes the metadata smaller.
    const notes = (bytes: number) =>
      `(select string_agg(md5(random()::text || g || s), '') from generate_series(1, ${Math.floor(bytes / 32)}) s)`;
    for (const [accountName, bytes] of [
      ["small", 96],
      ["large", CAP - 64],
    ] as const) {
      await hark.services.db.query(
        `insert into media (media_id, account_id, status, configuration, metadata, time_to_live_seconds,
                            date_created, expires_on)
         select gen_random_uuid(), a.account_id, 'accepted', '{}', jsonb_build_object('title', 'call ' || g,
                'extended', jsonb_build_object('notes', ${notes(bytes)})), 86400,
                now() - make_interval(secs => g), now() + interval '1 day'
         from accounts a, generate_series(1, ${ITEMS}) g where a.account_name = $1`,
        [accountName],
      );
    }
    const { rows } = await hark.services.db.query<{ account_name: string; bytes: string }>(
      `select account_name, sum(octet_length(metadata::text)) as bytes
       from media join accounts using (account_id) group by account_name order by account_name`,
    );
    for (const row of rows)
      console.log(`stored ${ITEMS} items for ${row.account_name}: ${mib(Number(row.bytes))} of metadata`);
    return tokens;
  } finally {
    await hark.stop();
  }
}

/** A fresh Hark on the stored data; `concurrency` listings at once; resolves to the peak memory's growth. */
async function measure(name: string, token: string, env: Record<string, string>): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "..", "src", "main.ts")], {
    env: { ...process.env, ...settingsEnv(port, env) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const list = `http://127.0.0.1:${port}/v3/media?limit=`;
    // Ready once a one-item page answers: a larger one would raise the peak before it is read.
    await until(async () => (await fetch(`${list}1`, { headers: { authorization: `Bearer ${token}` } })).ok);
    const url = `${list}${ITEMS}`;
    const before = await peakRss(child.pid);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: concurrency }, () => curl(url, token)));
    const seconds = (performance.now() - started) / 1000;
    const growth = (await peakRss(child.pid)) - before;
    const bytes = answers.reduce((sum, answer) => sum + answer.bytes, 0) / answers.length;
    console.log(
      `${name}: ${concurrency} listings in ${seconds.toFixed(2)} s, ${mib(bytes)} each (${answers[0]?.items} items on the page); peak resident memory grew ${mib(growth)}`,
    );
    return growth;
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
}

function settingsFor(port: number, env: Record<string, string>) {
  return loadSettings(settingsEnv(port, env));
}

function settingsEnv(port: number, env: Record<string, string>): Record<string, string> {
  return {
    HARK_DATA_DIR: dataDir,
    PORT: String(port),
    HARK_ADMIN_TOKEN: ADMIN,
    HARK_WORKER_CONCURRENCY: "0",
    HARK_LOG_LEVEL: "warn",
    ...env,
  };
}

/** The process's peak resident memory so far (Linux: VmHWM). */
async function peakRss(pid: number | undefined): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  const kib = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kib) * 1024;
}

/** One listing by curl (so that this process holds none of the answer); its size and item count. */
function curl(url: string, token: string): Promise<{ bytes: number; items: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn("curl", ["-s", "-H", `Authorization: Bearer ${token}`, url], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const MARK = '"formatVersion"'; // once in each item's envelope: counted without holding the answer
    let bytes = 0;
    let items = 0;
    let tail = "";
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      const text = tail + chunk.toString("latin1");
      items += text.split(MARK).length - 1;
      tail = text.slice(-(MARK.length - 1));
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve({ bytes, items }) : reject(new Error(`curl exited ${code}`)),
    );
  });
}

async function until(ready: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    if (await ready().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("Hark did not start");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
