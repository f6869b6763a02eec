/**
 * The delivery log and redelivery, end to end: real processing, a real receiver, the real dispatcher.
 * A client reads every try of each callback and sends a callback again, with the same id and bytes.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { spokenFile } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

describe("delivery log and redelivery", () => {
  let hark: TestHark;
  let token: string;
  let receiver: Receiver;
  let audio: { file: string; cleanup: () => Promise<void> };

  before(async () => {
    audio = await spokenFile("please send my invoice again");
    receiver = await startReceiver();
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_SCHEDULE: "0,1s",
        HARK_CALLBACK_BURST: "1",
        HARK_CALLBACK_TIMEOUT: "2",
      },
      { workers: true },
    );
    token = await hark.createAccount();
  });
  after(async () => {
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  const call = async (method: "GET" | "POST", url: string, as = token) =>
    hark.app.inject({ method, url, headers: { authorization: `Bearer ${as}` } });

  /** Resolves once the delivery's burst has ended in `state`. */
  function burstEnded(deliveryId: string, state: string): Promise<void> {
    return new Promise((resolve) => {
      const listener = (event: { deliveryId: string; state: string }) => {
        if (event.deliveryId !== deliveryId || event.state !== state) return;
        hark.services.events.off("delivery.burst-ended", listener);
        resolve();
      };
      hark.services.events.on("delivery.burst-ended", listener);
    });
  }

  async function upload(callbacks: unknown[], media: string | Uint8Array = audio.file) {
    const response = await hark.upload(token, { media, configuration: { publish: { callbacks } } });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().mediaId as string;
  }

  async function log(mediaId: string) {
    const response = await call("GET", `/v3/media/${mediaId}/callbacks`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  }

  test("the log shows every try; a redelivery sends the same id and bytes again, also after success", async () => {
    receiver.answer("/refusing", { status: 503, body: "busy, come back later" });
    const mediaId = await upload([
      { url: `${receiver.url}/accepting?token=secret` },
      { url: `${receiver.url}/refusing`, type: "transcript", format: "text" },
    ]);
    const [accepting, refusing] = (await log(mediaId)).callbacks;
    const exhausted = burstEnded(refusing.deliveryId, "exhausted");
    const first = await receiver.next("/accepting");
    await exhausted;

    const after = await log(mediaId);
    assert.equal(after.mediaId, mediaId);
    assert.equal(after.callbacks[0].url, `${receiver.url}/accepting?token=***`, "the query is masked");
    assert.equal(after.callbacks[0].state, "succeeded");
    assert.deepEqual(
      after.callbacks[0].attempts.map((a: Record<string, unknown>) => [
        a.scheduledAttempt,
        a.try,
        a.succeeded,
        a.statusCode,
      ]),
      [[0, 0, true, 200]],
    );
    assert.equal(after.callbacks[1].state, "exhausted");
    const tries = after.callbacks[1].attempts;
    assert.equal(tries.length, 2, "one try at each of the two scheduled attempts");
    for (const attempt of tries) {
      assert.equal(attempt.statusCode, 503);
      assert.equal(attempt.errorKind, "http-status");
      assert.equal(attempt.responseSnippet, "busy, come back later");
      assert.equal(typeof attempt.durationMs, "number");
      assert.ok(!Number.isNaN(Date.parse(attempt.date)));
    }

    const again = await call("POST", `/v3/media/${mediaId}/callbacks/${accepting.deliveryId}/redeliver`);
    assert.equal(again.statusCode, 202, again.body);
    assert.equal(again.json().state, "pending");
    const second = await receiver.next("/accepting");
    assert.equal(second.headers["webhook-id"], first.headers["webhook-id"]);
    assert.deepEqual(second.body, first.body, "the same bytes");

    receiver.answer("/refusing", { status: 200 });
    const succeeded = burstEnded(refusing.deliveryId, "succeeded");
    assert.equal(
      (await call("POST", `/v3/media/${mediaId}/callbacks/${refusing.deliveryId}/redeliver`)).statusCode,
      202,
    );
    await succeeded;
    const final = await log(mediaId);
    assert.deepEqual(
      final.callbacks.map((c: { state: string; attempts: unknown[] }) => [c.state, c.attempts.length]),
      [
        ["succeeded", 2],
        ["succeeded", 3],
      ],
    );
  });

  test("concurrent redeliveries start one burst; another within a minute is told when to come back", async () => {
    const mediaId = await upload([{ url: `${receiver.url}/once` }]);
    const [{ deliveryId }] = (await log(mediaId)).callbacks;
    const firstEnded = burstEnded(deliveryId, "succeeded");
    await receiver.next("/once");
    await firstEnded;

    const redeliveredEnded = burstEnded(deliveryId, "succeeded");
    const url = `/v3/media/${mediaId}/callbacks/${deliveryId}/redeliver`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => call("POST", url)));
    const accepted = answers.filter((answer) => answer.statusCode === 202);
    assert.equal(accepted.length, 1, answers.map((answer) => answer.statusCode).join(" "));
    for (const refused of answers.filter((answer) => answer.statusCode !== 202)) {
      assert.ok([409, 429].includes(refused.statusCode), refused.body);
      assert.equal(refused.json().status, refused.statusCode);
      assert.ok([11401, 11402].includes(refused.json().errors[0].code), refused.body);
    }
    await redeliveredEnded;
    assert.equal((await log(mediaId)).callbacks[0].state, "succeeded");
    assert.equal(
      receiver.received.filter((r) => r.path === "/once").length,
      2,
      "the first delivery and exactly one redelivered burst",
    );

    const tooSoon = await call("POST", url);
    assert.equal(tooSoon.statusCode, 429, tooSoon.body);
    const retryAfter = Number(tooSoon.headers["retry-after"]);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${tooSoon.headers["retry-after"]}`);
    assert.equal(tooSoon.json().status, 429);
    assert.equal(tooSoon.json().errors[0].code, 11402);
    assert.match(tooSoon.json().errors[0].error, /redeliver/i);
    assert.equal((await log(mediaId)).callbacks[0].state, "succeeded", "nothing rescheduled");
  });

  test("a callback URL's query (a pre-signed URL's credentials) is never logged", async () => {
    const lines: string[] = [];
    const logged = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_SCHEDULE: "0",
        HARK_CALLBACK_BURST: "2",
        HARK_CALLBACK_TIMEOUT: "2",
        HARK_LOG_LEVEL: "trace",
      },
      { workers: true, logLines: lines },
    );
    try {
      const owner = await logged.createAccount();
      receiver.answer("/presigned", [{ status: 500, body: "try again" }, { status: 200 }]);
      const secret = "X-Amz-Signature=0123456789abcdef";
      const response = await logged.upload(owner, {
        media: audio.file,
        configuration: {
          publish: {
            callbacks: [
              { url: `${receiver.url}/presigned?${secret}`, method: "PUT" },
              // A receiver that is not there: a failed connection, logged as such.
              { url: `http://127.0.0.1:9/closed?${secret}` },
            ],
          },
        },
      });
      assert.equal(response.statusCode, 200, response.body);
      await receiver.next("/presigned");
      await receiver.next("/presigned");
      const mediaId = response.json().mediaId as string;
      for (;;) {
        // Listen first, then look: a burst ending in between is caught either way.
        const ended = new Promise((resolve) => logged.services.events.once("delivery.burst-ended", resolve));
        const log = await logged.app.inject({
          method: "GET",
          url: `/v3/media/${mediaId}/callbacks`,
          headers: { authorization: `Bearer ${owner}` },
        });
        const states: string[] = log.json().callbacks.map((c: { state: string }) => c.state);
        if (states.every((state) => state === "succeeded" || state === "exhausted")) break;
        await ended;
      }
    } finally {
      await logged.close();
    }
    assert.ok(lines.length > 0, "something was logged");
    const leaks = lines.filter((line) => line.includes("0123456789abcdef"));
    assert.deepEqual(leaks, []);
  });

  test("a skipped callback, an unknown one and another account's are refused", async () => {
    const mediaId = await upload(
      [{ url: `${receiver.url}/failed` }, { url: `${receiver.url}/never`, type: "transcript" }],
      new Uint8Array(4096).fill(7),
    );
    await receiver.next("/failed");
    const { callbacks } = await log(mediaId);
    assert.equal(callbacks[1].state, "skipped");
    const skipped = await call("POST", `/v3/media/${mediaId}/callbacks/${callbacks[1].deliveryId}/redeliver`);
    assert.equal(skipped.statusCode, 409);
    assert.equal(skipped.json().errors[0].code, 11401);
    assert.match(skipped.json().errors[0].error, /skipped/);

    const unknown = await call(
      "POST",
      `/v3/media/${mediaId}/callbacks/8c0e6f0e-0000-4000-8000-000000000000/redeliver`,
    );
    assert.equal(unknown.statusCode, 404);
    assert.equal((await call("POST", `/v3/media/${mediaId}/callbacks/not-an-id/redeliver`)).statusCode, 404);

    const stranger = await hark.createAccount();
    assert.equal((await call("GET", `/v3/media/${mediaId}/callbacks`, stranger)).statusCode, 404);
    const theirs = await call(
      "POST",
      `/v3/media/${mediaId}/callbacks/${callbacks[0].deliveryId}/redeliver`,
      stranger,
    );
    assert.equal(theirs.statusCode, 404);
  });
});
