/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a malformed request line, headers larger
 * than Node takes): answered in VoiceBase's envelope, with `Connection: close`, over a real socket.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { within } from "../support/within.ts";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Sends `raw` over a fresh connection and reads what comes back until the server closes it. */
function exchange(address: string, raw: string): Promise<Answer> {
  const url = new URL(address);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("error", () => {}); // a reset after the answer is a close too
    socket.on("close", () => {
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      const [statusLine = "", ...lines] = head.split("\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
      if (!status) return reject(new Error(`not an HTTP answer: ${JSON.stringify(answer)}`));
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(":")).toLowerCase(),
          line.slice(line.indexOf(":") + 1).trim(),
        ]),
      );
      resolve({ status, headers, body: JSON.parse(body) });
    });
    socket.on("connect", () => socket.write(raw));
    setTimeout(() => {
      socket.destroy();
      reject(new Error("the server kept the connection open for 10 s"));
    }, 10_000).unref();
  });
}

describe("requests Node refuses before routing", () => {
  let hark: TestHark;
  let address: string;
  before(async () => {
    hark = await startTestHark();
    address = await hark.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => hark.close());

  test("a malformed request line gets 400 in the envelope and the connection closed", async () => {
    const answer = await exchange(address, "GET /v3/media HTTP/1.1 trailing junk\r\nHost: x\r\n\r\n");
    assert.equal(answer.status, 400);
    assert.equal(answer.headers.connection, "close");
    assert.match(answer.headers["content-type"] ?? "", /^application\/json/);
    const body = answer.body as {
      status: number;
      errors: { code: number; error: string }[];
      reference: string;
    };
    assert.equal(body.status, 400);
    assert.equal(body.errors[0]?.code, 11005);
    assert.match(body.errors[0]?.error ?? "", /HTTP/);
    assert.match(body.reference, /^[0-9a-f-]{36}$/);
  });

  test("headers larger than Node takes get 431 in the envelope and the connection closed", async () => {
    const answer = await exchange(
      address,
      `GET /v3/media HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    assert.equal(answer.status, 431);
    assert.equal(answer.headers.connection, "close");
    const body = answer.body as { status: number; errors: { code: number; error: string }[] };
    assert.equal(body.status, 431);
    assert.equal(body.errors[0]?.code, 11410);
    assert.match(body.errors[0]?.error ?? "", /headers/i);
  });

  test("the server still answers a well-formed request afterwards", async () => {
    const response = await fetch(`${address}/v3/media`);
    assert.equal(response.status, 401);
  });
});

describe("clients that go away", () => {
  let hark: TestHark;
  let token: string;
  let address: string;
  const lines: string[] = [];
  before(async () => {
    // At trace level Fastify logs each request as it arrives: the test waits for that.
    hark = await startTestHark({ HARK_LOG_LEVEL: "trace" }, { logLines: lines });
    token = await hark.createAccount();
    address = await hark.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => hark.close());

  const logged = () => lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown });

  /** Resolves with the first log entry `matches` accepts, once it has been written. */
  async function entry(matches: (msg: string) => boolean): Promise<{ level: number; msg: string }> {
    return within(
      (async () => {
        for (;;) {
          const found = logged().find((line) => matches(line.msg));
          if (found) return found;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })(),
      5000,
      () =>
        `no such log entry; logged: ${logged()
          .map((line) => `${line.level} ${line.msg}`)
          .join(" | ")}`,
    );
  }

  test("an upload broken off mid-body is logged as the client's doing, not as an error", async () => {
    const url = new URL(address);
    const socket = net.connect(Number(url.port), url.hostname);
    socket.on("error", () => {});
    await new Promise((resolve) => socket.on("connect", resolve));
    socket.write(
      [
        "POST /v3/media HTTP/1.1",
        "Host: x",
        `Authorization: Bearer ${token}`,
        "Content-Type: multipart/form-data; boundary=b",
        "Content-Length: 100000",
        "",
        '--b\r\nContent-Disposition: form-data; name="media"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF',
      ].join("\r\n"),
    );
    // The client goes once the upload is reading its body (@fastify/multipart says so at debug level).
    await entry((msg) => msg === "starting multipart parsing").finally(() => socket.destroy());
    const closed = await entry((msg) => msg === "client closed the connection mid-request");
    assert.ok(closed.level <= 40, `logged at level ${closed.level}`);
    assert.deepEqual(
      logged().filter((line) => line.level >= 50),
      [],
      "nothing is logged as an error",
    );
  });
});
