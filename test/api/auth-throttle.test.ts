/**
 * Token guessing: after AUTH_FAILURE_LIMIT failed authentications in a minute from one client address,
 * every token from that address is refused (429, Retry-After, VoiceBase's envelope) until the minute is
 * over; other addresses and valid tokens before the limit go on as ever.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AUTH_FAILURE_LIMIT, FailedAuthentications } from "../../src/api/auth-throttle.ts";
import { ADMIN_TOKEN, startTestHark, type TestHark } from "../support/harness.ts";

describe("FailedAuthentications", () => {
  const limits = { failures: 3, windowMs: 60_000, maxAddresses: 2 };

  test("refuses an address for the rest of its window once it has failed `failures` times", () => {
    const failed = new FailedAuthentications(limits);
    for (let i = 0; i < 3; i++) {
      assert.equal(failed.waitMs("203.0.113.5", 1000), 0);
      failed.record("203.0.113.5", 1000 + i);
    }
    assert.equal(failed.waitMs("203.0.113.5", 2000), 59_000);
    assert.equal(failed.waitMs("203.0.113.6", 2000), 0);
    assert.equal(failed.waitMs("203.0.113.5", 61_000), 0);
  });

  test("counts a whole IPv6 /64 as one address, and an IPv4-mapped one as its IPv4 address", () => {
    const failed = new FailedAuthentications(limits);
    failed.record("2001:db8:1:2::1", 0);
    failed.record("2001:db8:1:2:ffff::9", 0);
    failed.record("2001:db8:1:2:abcd::", 0);
    assert.ok(failed.waitMs("2001:db8:1:2::77", 0) > 0);
    assert.equal(failed.waitMs("2001:db8:1:3::1", 0), 0);
    for (let i = 0; i < 3; i++) failed.record("::ffff:198.51.100.1", 0);
    assert.ok(failed.waitMs("198.51.100.1", 0) > 0);
  });

  test("holds at most `maxAddresses`, forgetting the oldest first", () => {
    const failed = new FailedAuthentications(limits);
    for (let i = 0; i < 3; i++) failed.record("192.0.2.1", 0);
    failed.record("192.0.2.2", 10);
    failed.record("192.0.2.3", 20);
    assert.equal(failed.size, 2);
    assert.equal(failed.waitMs("192.0.2.1", 30), 0);
  });
});

describe("token guessing over HTTP", () => {
  let hark: TestHark;
  let token: string;
  let now = new Date("2026-11-23T12:00:00Z");
  before(async () => {
    hark = await startTestHark({}, { clock: { now: () => now } });
    token = await hark.createAccount();
  });
  after(() => hark.close());

  const get = (bearer: string, remoteAddress: string) =>
    hark.app.inject({
      method: "GET",
      url: "/v3/media",
      remoteAddress,
      headers: { authorization: `Bearer ${bearer}` },
    });

  test("an address that keeps sending wrong tokens is refused with 429 and Retry-After", async () => {
    const guesser = "198.51.100.20";
    assert.equal((await get(token, guesser)).statusCode, 200);
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) {
      assert.equal((await get(`guess-${i}`, guesser)).statusCode, 401, `guess ${i}`);
    }
    const refused = await get("guess-next", guesser);
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers["retry-after"]) > 0 && Number(refused.headers["retry-after"]) <= 60);
    const body = refused.json();
    assert.equal(body.status, 429);
    assert.equal(body.errors[0].code, 11411);
    assert.match(body.errors[0].error, /Retry-After|seconds/);
    // A right token from the guessing address would tell the guesser it is right: refused too.
    assert.equal((await get(token, guesser)).statusCode, 429);
    // Everyone else is unaffected.
    assert.equal((await get(token, "198.51.100.21")).statusCode, 200);
    assert.equal((await get("wrong", "198.51.100.21")).statusCode, 401);
    // A minute later the address may try again.
    now = new Date(now.getTime() + 61_000);
    assert.equal((await get(token, guesser)).statusCode, 200);
  });

  test("the admin token is guarded the same way", async () => {
    const guesser = "198.51.100.30";
    const create = (bearer: string) =>
      hark.app.inject({
        method: "POST",
        url: "/admin/accounts",
        remoteAddress: guesser,
        headers: { authorization: `Bearer ${bearer}` },
        payload: { accountName: `throttled-${Date.now()}` },
      });
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) assert.equal((await create(`admin-${i}`)).statusCode, 401);
    const refused = await create(ADMIN_TOKEN);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().errors[0].code, 11411);
    assert.ok(refused.headers["retry-after"]);
  });
});

describe("token guessing behind a proxy", () => {
  let hark: TestHark;
  before(async () => {
    hark = await startTestHark({ HARK_TRUST_PROXY: "10.0.0.0/8", HARK_AUTH_FAILURES_PER_MINUTE: "3" });
  });
  after(() => hark.close());

  const get = (remoteAddress: string, forwardedFor: string) =>
    hark.app.inject({
      method: "GET",
      url: "/v3/media",
      remoteAddress,
      headers: { authorization: "Bearer wrong", "x-forwarded-for": forwardedFor },
    });

  test("a trusted proxy's clients are counted apart; an untrusted one's header is ignored", async () => {
    const proxy = "10.1.2.3";
    for (let i = 0; i < 3; i++) assert.equal((await get(proxy, "203.0.113.5")).statusCode, 401);
    assert.equal((await get(proxy, "203.0.113.5")).statusCode, 429, "the guesser behind the proxy");
    assert.equal((await get(proxy, "203.0.113.6")).statusCode, 401, "another client of the proxy");
    // Not a proxy Hark trusts: its header could name anyone, so the connection's address counts.
    const stranger = "192.0.2.50";
    for (let i = 0; i < 3; i++) assert.equal((await get(stranger, `203.0.113.${10 + i}`)).statusCode, 401);
    assert.equal((await get(stranger, "203.0.113.99")).statusCode, 429);
  });
});
