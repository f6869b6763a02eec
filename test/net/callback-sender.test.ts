/**
 * One HTTP try, with the real undici sender against real servers on 127.0.0.1 (DESIGN.md: success is any
 * 2xx, a 3xx is a failure never followed, the exchange is bounded in time, loopback is refused unless
 * allowed), and the classification of failed exchanges into error kinds.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { checkOutboundUrl } from "../../src/intake/configuration.ts";
import {
  type CallbackSender,
  classifyError,
  type OutboundRequest,
  parseRetryAfter,
  undiciSender,
} from "../../src/net/callback-sender.ts";
import { addressPolicy, isAllowedAddress, RefusedAddressError, type Resolver } from "../../src/net/guard.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

const BODY = Buffer.from('{"mediaId":"m-1"}');
const HEADERS = { "content-type": "application/json", "content-length": String(BODY.length) };

function post(url: string, extra: Partial<OutboundRequest> = {}): OutboundRequest {
  return { url, method: "POST", headers: HEADERS, body: BODY, ...extra };
}

/** A server on 127.0.0.1:0 with its own handler; resolves with its base URL. */
async function listen(server: net.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("undiciSender", () => {
  let receiver: Receiver;
  let sender: CallbackSender;

  before(async () => {
    receiver = await startReceiver();
    sender = undiciSender({ connectTimeoutMs: 2000, timeoutMs: 5000, allowPrivate: true });
  });
  after(async () => {
    await sender?.close();
    await receiver?.close();
  });

  for (const status of [200, 201, 204, 299]) {
    test(`${status} is a success`, async () => {
      receiver.answer(`/ok-${status}`, { status, body: status === 204 ? "" : "thanks" });
      const result = await sender.send(post(`${receiver.url}/ok-${status}`));
      assert.equal(result.succeeded, true);
      assert.equal(result.statusCode, status);
      assert.equal(result.errorKind, undefined);
      assert.equal(result.responseSnippet, status === 204 ? "" : "thanks");
      assert.ok(result.durationMs >= 0);
    });
  }

  for (const status of [301, 302]) {
    test(`${status} is a failure and its Location is not followed`, async () => {
      receiver.answer(`/moved-${status}`, {
        status,
        headers: { location: `${receiver.url}/elsewhere-${status}` },
      });
      const result = await sender.send(post(`${receiver.url}/moved-${status}`));
      assert.equal(result.succeeded, false);
      assert.equal(result.statusCode, status);
      assert.equal(result.errorKind, "http-status");
      assert.equal(receiver.received.filter((r) => r.path === `/moved-${status}`).length, 1);
      // The try is over: had the redirect been followed, its request would have arrived first.
      assert.equal(receiver.received.filter((r) => r.path === `/elsewhere-${status}`).length, 0);
    });
  }

  for (const status of [404, 500]) {
    test(`${status} is a failure of kind http-status with its status code and answer`, async () => {
      receiver.answer(`/fail-${status}`, { status, body: `no: ${status}` });
      const result = await sender.send(post(`${receiver.url}/fail-${status}`));
      assert.equal(result.succeeded, false);
      assert.equal(result.statusCode, status);
      assert.equal(result.errorKind, "http-status");
      assert.equal(result.errorMessage, `HTTP ${status}`);
      assert.equal(result.responseSnippet, `no: ${status}`);
    });
  }

  test("the response snippet is the first 1024 bytes of a longer answer", async () => {
    const answer = Array.from({ length: 5000 }, (_, i) => String.fromCharCode(65 + (i % 26))).join("");
    receiver.answer("/long", { status: 500, body: answer });
    const result = await sender.send(post(`${receiver.url}/long`));
    assert.equal(Buffer.byteLength(result.responseSnippet ?? ""), 1024);
    assert.equal(result.responseSnippet, answer.slice(0, 1024));
  });

  test("an endless answer is not waited for: the try ends with a 1024-byte snippet", async () => {
    let answerClosed!: () => void;
    const closed = new Promise<void>((resolve) => (answerClosed = resolve));
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(256, "z");
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once("drain", pump);
      };
      response.on("close", answerClosed);
      pump();
    });
    const url = await listen(server);
    try {
      const result = await sender.send(post(`${url}/endless`));
      // The answer never ends: a sender that waited for its end could only have been stopped by its 5 s
      // limit, and that try would have failed as a timeout. A success is the proof, with no clock.
      assert.equal(result.succeeded, true, JSON.stringify(result));
      assert.equal(result.statusCode, 200);
      assert.equal(result.responseSnippet, "z".repeat(1024));
      // The rest is let go: the sender hangs up rather than reading on.
      await closed;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a closed port is a connect failure", async () => {
    const server = net.createServer();
    const url = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const result = await sender.send(post(`${url}/gone`));
    assert.equal(result.succeeded, false);
    assert.equal(result.errorKind, "connect");
    assert.equal(result.statusCode, undefined);
    assert.match(result.errorMessage ?? "", /ECONNREFUSED/);
  });

  test("a receiver that never answers is a timeout at the exchange's limit", async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.resume(); // reads the request, never answers
    });
    const url = await listen(server);
    // Two senders try the silent receiver: first one with a long limit, then one with a short limit.
    // Limits under half a second: the sender's AbortSignal.timeout ends the try at its limit, and undici's
    // own header timer (its coarse clock ticks every half second) never comes sooner.
    const tries = [
      { limitMs: 450, path: "/silent-long" },
      { limitMs: 150, path: "/silent-short" },
    ].map((entry) => ({
      ...entry,
      sender: undiciSender({ connectTimeoutMs: entry.limitMs, timeoutMs: entry.limitMs, allowPrivate: true }),
      limitPassed: false,
    }));
    try {
      // Timers of one length fire in the order they were set: each of these, set before the tries, has
      // fired by the time the sender's own timer of the same length ends its try, and not a moment before.
      for (const entry of tries) setTimeout(() => (entry.limitPassed = true), entry.limitMs);
      const endOrder: string[] = [];
      const results = await Promise.all(
        tries.map(async (entry) => {
          const result = await entry.sender.send(post(`${url}${entry.path}`));
          endOrder.push(entry.path);
          return { result, limitPassed: entry.limitPassed };
        }),
      );
      for (const { result, limitPassed } of results) {
        assert.equal(result.succeeded, false);
        assert.equal(result.errorKind, "timeout", JSON.stringify(result));
        assert.ok(limitPassed, "not before its limit");
      }
      // Not after it either: the try begun later but with the shorter limit ended first. Had both been
      // stopped by anything else, a timer of one length for both, the one begun first would have ended first.
      assert.deepEqual(endOrder, ["/silent-short", "/silent-long"]);
      assert.equal(sockets.size, 2, "both requests were sent and their connections held");
    } finally {
      await Promise.all(tries.map((entry) => entry.sender.close().catch(() => {})));
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("https to a plain-HTTP port is a tls failure", async () => {
    const result = await sender.send(post(`${receiver.url.replace("http:", "https:")}/tls`));
    assert.equal(result.succeeded, false);
    assert.equal(result.errorKind, "tls", JSON.stringify(result));
    assert.equal(receiver.received.filter((r) => r.path === "/tls").length, 0);
  });

  test("without allowPrivate, a loopback address is refused and nothing is sent", async () => {
    const strict = undiciSender({ connectTimeoutMs: 2000, timeoutMs: 5000, allowPrivate: false });
    const connections: net.Socket[] = [];
    const server = http.createServer((_request, response) => response.end("ok"));
    server.on("connection", (socket) => connections.push(socket));
    const url = await listen(server);
    try {
      for (const target of [url, url.replace("127.0.0.1", "localhost")]) {
        const result = await strict.send(post(`${target}/private`));
        assert.equal(result.succeeded, false);
        assert.equal(result.errorKind, "refused-address", target);
        assert.match(
          result.errorMessage ?? "",
          /is not a public address|resolves to an address that is not public/,
        );
        assert.equal(result.statusCode, undefined);
      }
      assert.equal(connections.length, 0, "no connection was even opened");
    } finally {
      await strict.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("the headers sent are exactly those given, plus host and connection", async () => {
    const headers = {
      "content-type": "text/vtt",
      "content-length": String(BODY.length),
      "user-agent": "Hark/1.2.3",
      "webhook-id": "4d7c3b0e-9d8a-4b6f-a1f2-000000000001",
      "webhook-timestamp": "1714555872",
    };
    await sender.send(post(`${receiver.url}/headers`, { headers }));
    const call = await receiver.next("/headers");
    assert.deepEqual(
      call.rawHeaderNames.map((name) => name.toLowerCase()).sort(),
      [...Object.keys(headers), "host", "connection"].sort(),
    );
    for (const [name, value] of Object.entries(headers)) assert.equal(call.headers[name], value, name);
    assert.equal(call.headers.host, new URL(receiver.url).host);
    assert.ok(call.body.equals(BODY));
  });

  test("a streamed body arrives byte for byte, by PUT", async () => {
    const bytes = randomBytes(300_000);
    let opened = 0;
    const result = await sender.send({
      url: `${receiver.url}/stream`,
      method: "PUT",
      headers: { "content-type": "application/octet-stream", "content-length": String(bytes.length) },
      body: {
        open: async () => {
          opened++;
          return Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]);
        },
        length: bytes.length,
      },
    });
    assert.equal(result.succeeded, true, JSON.stringify(result));
    const call = await receiver.next("/stream");
    assert.equal(call.method, "PUT");
    assert.equal(call.headers["content-type"], "application/octet-stream");
    assert.equal(call.body.length, bytes.length);
    assert.ok(call.body.equals(bytes));
    assert.equal(opened, 1);
  });

  test("method PUT arrives as PUT, POST as POST", async () => {
    await sender.send(post(`${receiver.url}/put`, { method: "PUT" }));
    assert.equal((await receiver.next("/put")).method, "PUT");
    await sender.send(post(`${receiver.url}/post`));
    assert.equal((await receiver.next("/post")).method, "POST");
  });
});

describe("undiciSender's address guard", () => {
  let receiver: Receiver;
  let port: string;

  before(async () => {
    receiver = await startReceiver();
    port = new URL(receiver.url).port;
  });
  after(async () => {
    await receiver?.close();
  });

  /** A resolver that answers each call with the next of `answers` (the last repeating), and counts calls. */
  function resolver(...answers: string[][]): Resolver & { calls: string[] } {
    const calls: string[] = [];
    const resolve = async (host: string) => {
      calls.push(host);
      const addresses = answers[Math.min(calls.length, answers.length) - 1] ?? [];
      return addresses.map((address) => ({ address, family: net.isIP(address) }));
    };
    return Object.assign(resolve, { calls });
  }

  /** A strict sender (no private addresses) with `resolve` and `allowCidrs`, closed after `work`. */
  async function withSender<T>(
    options: { resolve?: Resolver; allowCidrs?: string[] },
    work: (sender: CallbackSender) => Promise<T>,
  ): Promise<T> {
    const sender = undiciSender({ connectTimeoutMs: 2000, timeoutMs: 5000, allowPrivate: false, ...options });
    try {
      return await work(sender);
    } finally {
      await sender.close();
    }
  }

  test("a name that resolves to 127.0.0.1 is refused and the receiver sees nothing", async () => {
    const resolve = resolver(["127.0.0.1"]);
    const result = await withSender({ resolve }, (sender) =>
      sender.send(post(`http://hooks.test:${port}/named-loopback`)),
    );
    assert.equal(result.succeeded, false);
    assert.equal(result.errorKind, "refused-address", JSON.stringify(result));
    assert.equal(result.errorMessage, "hooks.test resolves to an address that is not public");
    assert.equal(result.statusCode, undefined);
    assert.deepEqual(resolve.calls, ["hooks.test"]);
    assert.equal(receiver.received.filter((r) => r.path === "/named-loopback").length, 0);
  });

  test("rebinding: public when the URL was accepted, loopback at the try, is refused", async () => {
    const resolve = resolver(["93.184.216.34"], ["127.0.0.1"]);
    const policy = addressPolicy({ allowPrivate: false, allowCidrs: [] });
    const url = `http://rebind.test:${port}/rebound`;
    // At upload the URL passes, and the name resolves to a public address.
    assert.equal(checkOutboundUrl(url, { allowHttp: true, allowPrivate: false }), undefined);
    const atUpload = await resolve("rebind.test");
    assert.ok(atUpload.every((entry) => isAllowedAddress(entry.address, policy)));
    // At the try the same name resolves to loopback.
    const result = await withSender({ resolve }, (sender) => sender.send(post(url)));
    assert.equal(result.errorKind, "refused-address", JSON.stringify(result));
    assert.equal(result.errorMessage, "rebind.test resolves to an address that is not public");
    assert.equal(resolve.calls.length, 2, "looked up once at upload, once at the try");
    assert.equal(receiver.received.filter((r) => r.path === "/rebound").length, 0);
  });

  test("a name with one private address among public ones is refused", async () => {
    const resolve = resolver(["93.184.216.34", "127.0.0.1"]);
    const result = await withSender({ resolve }, (sender) =>
      sender.send(post(`http://mixed.test:${port}/mixed`)),
    );
    assert.equal(result.errorKind, "refused-address", JSON.stringify(result));
    assert.equal(receiver.received.filter((r) => r.path === "/mixed").length, 0);
  });

  test("the connection goes to the address the guard looked up and allowed, and nowhere else", async () => {
    // receiver.test exists in no DNS: the request can only arrive if the socket connected to the
    // resolver's answer, once checked; the Host header keeps the name.
    const resolve = resolver(["127.0.0.1"]);
    receiver.answer("/pinned", { status: 200, body: "pinned" });
    const result = await withSender({ resolve, allowCidrs: ["127.0.0.0/8"] }, (sender) =>
      sender.send(post(`http://receiver.test:${port}/pinned`)),
    );
    assert.equal(result.succeeded, true, JSON.stringify(result));
    assert.equal(result.responseSnippet, "pinned");
    assert.deepEqual(resolve.calls, ["receiver.test"], "one lookup, the guard's own");
    const call = await receiver.next("/pinned");
    assert.equal(call.headers.host, `receiver.test:${port}`);
    assert.ok(call.body.equals(BODY));
  });

  test("an allowed network does not open others: a name resolving to 10.0.0.1 stays refused", async () => {
    const resolve = resolver(["10.0.0.1"]);
    const result = await withSender({ resolve, allowCidrs: ["127.0.0.0/8"] }, (sender) =>
      sender.send(post(`http://other.test:${port}/other`)),
    );
    assert.equal(result.errorKind, "refused-address", JSON.stringify(result));
  });

  for (const host of [
    "127.1",
    "2130706433",
    "0x7f.1",
    "0177.0.0.1",
    "[::ffff:127.0.0.1]",
    "[::1]",
    "localhost",
  ]) {
    test(`http://${host}:port is refused before any connection`, async () => {
      const resolve = resolver(["127.0.0.1"]);
      const path = `/literal-${host.replace(/[^\w]/g, "_")}`;
      const result = await withSender({ resolve }, (sender) =>
        sender.send(post(`http://${host}:${port}${path}`)),
      );
      assert.equal(result.errorKind, "refused-address", JSON.stringify(result));
      assert.match(result.errorMessage ?? "", /not a public address|an address that is not public/);
      assert.equal(receiver.received.filter((r) => r.path === path).length, 0);
      // Literals are judged as written: only the name went through the resolver.
      assert.deepEqual(resolve.calls, host === "localhost" ? ["localhost"] : []);
    });
  }

  test("an allowed literal is reached", async () => {
    const result = await withSender({ allowCidrs: ["127.0.0.0/8"] }, (sender) =>
      sender.send(post(`http://127.1:${port}/allowed-literal`)),
    );
    assert.equal(result.succeeded, true, JSON.stringify(result));
    assert.equal((await receiver.next("/allowed-literal")).method, "POST");
  });

  test("a name that does not resolve is a dns failure, not a refusal", async () => {
    const resolve: Resolver = async (host) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    };
    const result = await withSender({ resolve }, (sender) =>
      sender.send(post(`http://nowhere.test:${port}/`)),
    );
    assert.equal(result.errorKind, "dns", JSON.stringify(result));
  });

  test("a refused try of a streamed body lets the opened stream go", async () => {
    let stream: Readable | undefined;
    const result = await withSender({}, (sender) =>
      sender.send({
        url: `http://127.0.0.1:${port}/refused-stream`,
        method: "PUT",
        headers: { "content-type": "application/octet-stream", "content-length": "3" },
        body: {
          open: async () => (stream = Readable.from([Buffer.from("abc")])),
          length: 3,
        },
      }),
    );
    assert.equal(result.errorKind, "refused-address");
    assert.equal(stream?.destroyed, true);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-06-01T12:00:00Z");
  test("delay-seconds and HTTP dates, as milliseconds from now", () => {
    assert.equal(parseRetryAfter("120", now), 120_000);
    assert.equal(parseRetryAfter(["30"], now), 30_000);
    assert.equal(parseRetryAfter("Sun, 01 Jun 2025 12:05:00 GMT", now), 300_000);
    assert.equal(parseRetryAfter("Sun, 01 Jun 2025 11:00:00 GMT", now), 0, "a date passed: at once");
  });
  test("absent or unreadable: none", () => {
    for (const value of [undefined, "", "soon", "-5", "1.5"])
      assert.equal(parseRetryAfter(value, now), undefined);
  });
});

describe("classifyError", () => {
  const coded = (code: string, message = `failed: ${code}`) => Object.assign(new Error(message), { code });

  test("name resolution failures are dns", () => {
    for (const code of ["ENOTFOUND", "EAI_AGAIN"]) {
      assert.equal(classifyError(coded(code, `getaddrinfo ${code} hooks.example`)).errorKind, "dns", code);
    }
  });

  test("refused and reset connections are connect, with the code in the message", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET"]) {
      const classified = classifyError(coded(code, "socket hang up"));
      assert.equal(classified.errorKind, "connect", code);
      assert.match(classified.errorMessage ?? "", new RegExp(code));
    }
  });

  test("undici's connect and headers timeouts are timeout", () => {
    for (const code of ["UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT"]) {
      assert.equal(classifyError(coded(code)).errorKind, "timeout", code);
    }
  });

  test("certificate and TLS failures are tls", () => {
    for (const code of ["CERT_HAS_EXPIRED", "ERR_TLS_CERT_ALTNAME_INVALID", "DEPTH_ZERO_SELF_SIGNED_CERT"]) {
      assert.equal(classifyError(coded(code, "handshake failed")).errorKind, "tls", code);
    }
  });

  test("an aborted signal is a timeout, whatever the error says", () => {
    const signal = AbortSignal.abort();
    assert.equal(
      classifyError(coded("ECONNRESET", "This operation was aborted"), signal).errorKind,
      "timeout",
    );
    assert.equal(
      classifyError(new DOMException("The operation timed out.", "TimeoutError")).errorKind,
      "timeout",
    );
  });

  test("a code carried on cause counts", () => {
    const wrapped = (code: string) => new TypeError("fetch failed", { cause: coded(code) });
    assert.equal(classifyError(wrapped("ENOTFOUND")).errorKind, "dns");
    assert.equal(classifyError(wrapped("ECONNREFUSED")).errorKind, "connect");
    assert.equal(classifyError(wrapped("UND_ERR_CONNECT_TIMEOUT")).errorKind, "timeout");
    assert.equal(classifyError(wrapped("CERT_HAS_EXPIRED")).errorKind, "tls");
  });

  test("a refusal by the address guard is refused-address, with its message kept", () => {
    const refusal = new RefusedAddressError("hooks.example", "10.0.0.1");
    assert.deepEqual(classifyError(refusal), {
      errorKind: "refused-address",
      errorMessage: "hooks.example resolves to an address that is not public",
    });
    assert.equal(
      classifyError(new TypeError("fetch failed", { cause: refusal })).errorKind,
      "refused-address",
    );
  });

  test("something without a code is connect, with its message kept", () => {
    assert.deepEqual(classifyError(new Error("other side went away")), {
      errorKind: "connect",
      errorMessage: "other side went away",
    });
    assert.equal(classifyError("a string").errorKind, "connect");
  });
});
