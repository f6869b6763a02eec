/**
 * The `callbacks` section of `GET /v3/media/{mediaId}`: how each callback's delivery stands, without
 * showing the credentials a callback URL's query may hold.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { callbacksSection, maskQuery } from "../../src/documents/callbacks-section.ts";
import type { Callback } from "../../src/domain/configuration.ts";
import type { AttemptSummary, DeliveryRecord, DeliveryState } from "../../src/domain/delivery.ts";

describe("maskQuery", () => {
  test("a pre-signed S3 URL keeps its path and parameter names; every value is ***", () => {
    const presigned =
      "https://hark-results.s3.eu-west-1.amazonaws.com/calls/2024/05/call-7.json" +
      "?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
      "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20240501%2Feu-west-1%2Fs3%2Faws4_request" +
      "&X-Amz-Date=20240501T093000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=content-type%3Bhost" +
      "&X-Amz-Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024";
    const masked = maskQuery(presigned);
    assert.equal(
      masked,
      "https://hark-results.s3.eu-west-1.amazonaws.com/calls/2024/05/call-7.json" +
        "?X-Amz-Algorithm=***&X-Amz-Credential=***&X-Amz-Date=***&X-Amz-Expires=***" +
        "&X-Amz-SignedHeaders=***&X-Amz-Signature=***",
    );
    assert.doesNotMatch(masked, /AKIA|fe5f80f7|aws4_request/);
  });

  test("a value-less parameter, a repeated one and an encoded one are hidden too", () => {
    const masked = maskQuery("https://hooks.example.com/cb?token&sig=a%20b&sig=second&k=v=w");
    assert.doesNotMatch(masked, /second|a%20b|a\+b|v=w/);
    assert.match(masked, /token=\*\*\*/);
    assert.match(masked, /sig=\*\*\*/);
    assert.match(masked, /k=\*\*\*/);
  });

  test("URLs without a query are unchanged", () => {
    for (const url of [
      "https://hooks.example.com/cb",
      "https://hooks.example.com:8443/a/b/c.json",
      "http://127.0.0.1:9000/callback",
    ]) {
      assert.equal(maskQuery(url), url);
    }
  });
});

describe("callbacksSection", () => {
  const firstTry = new Date("2024-05-01T09:31:12.345Z");
  let counter = 0;
  function delivery(state: DeliveryState, callback: Callback, nextTryAt?: Date): DeliveryRecord {
    counter++;
    return {
      deliveryId: `00000000-0000-4000-8000-00000000000${counter}`,
      mediaId: "3f0c1c9e-8f0a-4a53-9d43-6a1b2f7e5d10",
      position: counter - 1,
      callback,
      state,
      firstTryAt: state === "waiting" || state === "skipped" ? undefined : firstTry,
      scheduledAttempt: 0,
      nextTryAt,
      endedAt: undefined,
    };
  }

  test("each callback: its id, masked URL, settings, state, tries and how the last went", () => {
    const analytics = delivery(
      "will-retry",
      {
        url: "https://hooks.example.com/cb?secret=s3cr3t",
        method: "POST",
        type: "analytics",
        include: ["metadata", "transcript"],
      },
      new Date("2024-05-01T09:46:12.345Z"),
    );
    const srt = delivery("succeeded", {
      url: "https://hooks.example.com/srt",
      method: "PUT",
      type: "transcript",
      format: "srt",
    });
    const media = delivery("exhausted", {
      url: "https://hooks.example.com/media",
      method: "POST",
      type: "media",
      stream: "original",
    });
    const attempts = new Map<string, AttemptSummary>([
      [
        analytics.deliveryId,
        {
          count: 3,
          last: { at: new Date("2024-05-01T09:31:13.5Z"), statusCode: 503, errorKind: "http-status" },
        },
      ],
      [srt.deliveryId, { count: 1, last: { at: firstTry, statusCode: 204 } }],
      [media.deliveryId, { count: 21, last: { at: new Date("2024-05-02T01:16:20Z"), errorKind: "timeout" } }],
    ]);
    assert.deepEqual(callbacksSection([analytics, srt, media], attempts), [
      {
        deliveryId: analytics.deliveryId,
        url: "https://hooks.example.com/cb?secret=***",
        method: "POST",
        type: "analytics",
        include: ["metadata", "transcript"],
        state: "will-retry",
        attempts: 3,
        lastAttempt: { date: "2024-05-01T09:31:13.500Z", statusCode: 503, errorKind: "http-status" },
        nextAttemptDate: "2024-05-01T09:46:12.345Z",
      },
      {
        deliveryId: srt.deliveryId,
        url: "https://hooks.example.com/srt",
        method: "PUT",
        type: "transcript",
        format: "srt",
        state: "succeeded",
        attempts: 1,
        lastAttempt: { date: "2024-05-01T09:31:12.345Z", statusCode: 204 },
      },
      {
        deliveryId: media.deliveryId,
        url: "https://hooks.example.com/media",
        method: "POST",
        type: "media",
        stream: "original",
        state: "exhausted",
        attempts: 21,
        lastAttempt: { date: "2024-05-02T01:16:20.000Z", errorKind: "timeout" },
      },
    ]);
  });

  test("nextAttemptDate shows only while waiting for a next try: pending or will-retry", () => {
    const url = "https://hooks.example.com/cb";
    const at = new Date("2024-05-01T10:16:12.345Z");
    const callback: Callback = { url, method: "POST", type: "analytics" };
    const shown = (record: DeliveryRecord) => callbacksSection([record], new Map())[0]?.nextAttemptDate;
    assert.equal(shown(delivery("pending", callback, firstTry)), firstTry.toISOString());
    assert.equal(shown(delivery("will-retry", callback, at)), at.toISOString());
    // During a burst the row still holds the burst's own time: that try is under way, not next.
    assert.equal(shown(delivery("trying", callback, at)), undefined);
    for (const ended of ["succeeded", "exhausted", "skipped", "waiting"] as const) {
      assert.equal(shown(delivery(ended, callback)), undefined, ended);
    }
  });

  test("a callback not tried yet: 0 attempts and no lastAttempt", () => {
    const record = delivery("waiting", {
      url: "https://hooks.example.com/cb",
      method: "POST",
      type: "analytics",
    });
    const [section] = callbacksSection([record], new Map());
    assert.equal(section?.attempts, 0);
    assert.equal(section && "lastAttempt" in section, false);
    assert.equal(section?.state, "waiting");
    assert.deepEqual(callbacksSection([record], new Map([[record.deliveryId, { count: 0 }]]))[0], section);
  });
});
