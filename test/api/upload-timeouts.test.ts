/**
 * A request body that stops coming: the connection is closed once no byte has arrived for
 * HARK_UPLOAD_IDLE_TIMEOUT_SECONDS (or the whole body took longer than HARK_UPLOAD_TIMEOUT_SECONDS), with
 * a 408 in VoiceBase's envelope, and nothing of the upload is kept: no row, no partial file.
 */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { within } from "../support/within.ts";

const BOUNDARY = "----hark-stall";

/** Everything the server sent until it closed the connection, and how long that took. */
interface Closed {
  answer: string;
  ms: number;
}

/** Sends `head` and `body` over a raw socket, then sends nothing more (or `drip` every `dripMs`). */
function stalledUpload(
  address: string,
  token: string,
  body: string,
  drip?: { everyMs: number },
): Promise<Closed> {
  const url = new URL(address);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = "";
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("error", () => {}); // a reset is a close too
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, ms: Date.now() - started });
    });
    socket.on("connect", () => {
      socket.write(
        [
          "POST /v3/media HTTP/1.1",
          `Host: ${url.host}`,
          `Authorization: Bearer ${token}`,
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
          "Content-Length: 10000000",
          "",
          "",
        ].join("\r\n") + body,
      );
      if (drip) timer = setInterval(() => socket.write("x"), drip.everyMs);
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error("the server kept the stalled connection open for 20 s"));
    }, 20_000).unref();
  });
}

const PARTIAL_MEDIA = [
  `--${BOUNDARY}`,
  'Content-Disposition: form-data; name="media"; filename="call.wav"',
  "Content-Type: audio/wav",
  "",
  "RIFF....WAVEfmt some bytes of a recording that never ends",
].join("\r\n");

async function leftovers(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(path.relative(dataDir, full));
    }
  };
  await walk(path.join(dataDir, "blobs"));
  return found;
}

/**
 * Resolves once nothing is left under `blobs/`. The 408 goes out as the request is ended, and ending it is
 * what makes the upload's blob write fail and remove its partial file, a moment later: the test waits for
 * that removal (a few milliseconds) instead of reading the directory once.
 */
async function nothingLeft(dataDir: string): Promise<void> {
  let found = await leftovers(dataDir);
  await within(
    (async () => {
      while (found.length > 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        found = await leftovers(dataDir);
      }
    })(),
    5000,
    () => `files left after the upload was cut off: ${found.join(", ")}`,
  );
}

describe("uploads that stop sending", () => {
  let hark: TestHark;
  let token: string;
  let address: string;
  before(async () => {
    hark = await startTestHark({ HARK_UPLOAD_IDLE_TIMEOUT_SECONDS: "1", HARK_UPLOAD_TIMEOUT_SECONDS: "3" });
    token = await hark.createAccount();
    address = await hark.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => hark.close());

  async function mediaRows(): Promise<number> {
    const { rows } = await hark.services.db.query<{ n: number }>("select count(*)::int as n from media");
    return rows[0]?.n ?? 0;
  }

  test("a body that stalls is cut off after the idle timeout with a 408, leaving nothing", async () => {
    const { answer, ms } = await stalledUpload(address, token, PARTIAL_MEDIA);
    assert.ok(ms < 5000, `closed after ${ms} ms`);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    assert.equal(body.status, 408);
    assert.equal(body.errors[0].code, 11801);
    assert.match(body.errors[0].error, /HARK_UPLOAD_IDLE_TIMEOUT_SECONDS|1 s/);
    assert.equal(await mediaRows(), 0);
    await nothingLeft(hark.dataDir);
  });

  test("a body that trickles in is cut off after the upload timeout, leaving nothing", async () => {
    const { answer, ms } = await stalledUpload(address, token, PARTIAL_MEDIA, { everyMs: 300 });
    assert.ok(ms >= 2500 && ms < 8000, `closed after ${ms} ms`);
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.equal(await mediaRows(), 0);
    await nothingLeft(hark.dataDir);
  });

  test("a request without a body is not cut off while it is answered", async () => {
    const response = await fetch(`${address}/v3/media`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200);
  });
});

describe("connections one process holds", () => {
  let hark: TestHark;
  let address: string;
  before(async () => {
    hark = await startTestHark({ HARK_MAX_CONNECTIONS: "1" });
    address = await hark.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => hark.close());

  /** A raw connection; resolves once connected, with a promise of what it received until it closed. */
  function connect(): Promise<{ socket: net.Socket; closed: Promise<string> }> {
    const url = new URL(address);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let received = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk) => (received += chunk));
      socket.on("error", () => {});
      const closed = new Promise<string>((done) => socket.on("close", () => done(received)));
      socket.once("connect", () => resolve({ socket, closed }));
      socket.once("error", reject);
    });
  }

  test("a connection over HARK_MAX_CONNECTIONS is closed unanswered; once one ends, the next is served", async () => {
    // The server's side of the first connection: its count drops only when that side has closed.
    const firstGone = new Promise((done) =>
      hark.app.server.once("connection", (socket: net.Socket) => socket.once("close", done)),
    );
    const first = await connect();
    first.socket.write(`GET /v3/media HTTP/1.1\r\nHost: x\r\n\r\n`); // answered 401, connection kept
    const second = await connect();
    second.socket.write(`GET /v3/media HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.equal(await within(second.closed, 5000, "the connection over the cap closed"), "");
    first.socket.destroy();
    await firstGone;
    const third = await connect();
    third.socket.end(`GET /v3/media HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.match(await third.closed, /^HTTP\/1\.1 401 /);
  });
});
