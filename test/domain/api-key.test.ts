import assert from "node:assert/strict";
import { test } from "node:test";
import { keyExpiry, MAX_KEY_LIFE_MS, parseScope, scopePermits } from "../../src/domain/api-key.ts";
import { ApiError, errorCodes } from "../../src/domain/errors.ts";

const NOW = new Date("2026-03-02T09:30:00.000Z");

function code(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.errors[0]?.code;
    throw error;
  }
  return undefined;
}

test("a key's expiry: from ttlMillis or expirationDate, none without either, VoiceBase's refusals otherwise", () => {
  assert.equal(keyExpiry({ ephemeral: false }, NOW), undefined);
  assert.equal(keyExpiry({ scope: "media:get" }, NOW), undefined);
  assert.deepEqual(keyExpiry({ ttlMillis: 1 }, NOW), new Date(NOW.getTime() + 1));
  assert.deepEqual(
    keyExpiry({ ttlMillis: MAX_KEY_LIFE_MS, ephemeral: true }, NOW),
    new Date(NOW.getTime() + MAX_KEY_LIFE_MS),
  );
  // A date in another zone is the instant it names: 11:00+01:00 is half an hour after NOW, 10:30+01:00 is NOW.
  assert.deepEqual(
    keyExpiry({ expirationDate: "2026-03-02T11:00:00+01:00" }, NOW),
    new Date("2026-03-02T10:00:00Z"),
  );
  assert.equal(
    code(() => keyExpiry({ expirationDate: "2026-03-02T10:30:00+01:00" }, NOW)),
    70002,
  );
  assert.equal(
    code(() => keyExpiry(null, NOW)),
    errorCodes.apiKeyConfigurationEmpty.code,
  );
  assert.equal(
    code(() => keyExpiry({ ephemeral: true }, NOW)),
    errorCodes.apiKeyEphemeralWithoutExpiry.code,
  );
});

test("a scope: resource:method items; a filter, an unknown resource or method is 70008", () => {
  assert.deepEqual(parseScope(" media:get  usage:get "), [
    { resource: "media", method: "get" },
    { resource: "usage", method: "get" },
  ]);
  for (const bad of [
    "",
    "media",
    "media:",
    ":get",
    "media:GET",
    "profile:get",
    "media:get?extendedFilter=x",
  ]) {
    assert.equal(
      code(() => parseScope(bad)),
      70008,
      bad,
    );
  }
});

test("a scope permits its resource and method only; HEAD is a GET, the query does not count", () => {
  const grants = parseScope("media:get definition:put");
  assert.ok(scopePermits(grants, "GET", "/v3/media?externalId=x"));
  assert.ok(scopePermits(grants, "HEAD", "/v3/media/abc/streams/original"));
  assert.ok(scopePermits(grants, "PUT", "/v3/definition/spotting/groups/a"));
  assert.ok(!scopePermits(grants, "POST", "/v3/media"));
  assert.ok(!scopePermits(grants, "GET", "/v3/mediax"));
  assert.ok(!scopePermits(grants, "GET", "/v3/security/signing-secrets"));
});
