/**
 * `streamLocation` as VoiceBase hands it out: a link a player or a downstream system fetches as it is,
 * without the account's token, until it expires or the item is deleted.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { startTestHark, type TestHark } from "../support/harness.ts";

const AUDIO = randomBytes(4096);
const TTL_SECONDS = 600;

describe("stream links", () => {
  let hark: TestHark;
  let token: string;
  let now = new Date("2026-11-23T10:00:00Z");
  before(async () => {
    hark = await startTestHark(
      { HARK_PUBLIC_URL: "https://hark.example.com", HARK_STREAM_LINK_TTL_SECONDS: String(TTL_SECONDS) },
      { clock: { now: () => now } },
    );
    token = await hark.createAccount();
  });
  after(() => hark.close());

  /** A link as a client would fetch it: no Authorization header. */
  const fetchLink = (link: string) =>
    hark.app.inject({ method: "GET", url: link.replace("https://hark.example.com", "") });

  async function uploadAndLink(): Promise<{ mediaId: string; link: string }> {
    const response = await hark.upload(token, { media: AUDIO, mediaType: "audio/mpeg" });
    assert.equal(response.statusCode, 200, response.body);
    const [stream] = response.json().streams;
    assert.equal(stream.status, 200);
    return { mediaId: response.json().mediaId, link: stream.streamLocation };
  }

  test("the link works without the token and gives the stream's bytes", async () => {
    const { link } = await uploadAndLink();
    const response = await fetchLink(link);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers["content-type"], "audio/mpeg");
    assert.ok(response.rawPayload.equals(AUDIO));
  });

  test("a link changed in any part is refused with 403 (11701)", async () => {
    const { mediaId, link } = await uploadAndLink();
    const { mediaId: otherId } = await uploadAndLink();
    const url = new URL(link);
    const forged = [
      link.replace(/signature=.../, "signature=AAA"),
      link.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`),
      link.replace(mediaId, otherId),
      link.replace("/streams/original", "/streams/redacted-audio"),
      `${url.pathname}?expires=${url.searchParams.get("expires")}`,
    ];
    for (const attempt of forged) {
      const response = await fetchLink(attempt);
      assert.equal(response.statusCode, 403, attempt);
      assert.equal(response.json().errors[0].code, 11701);
    }
  });

  test("a link stops working when it expires; the stream list gives a fresh one", async () => {
    const { mediaId, link } = await uploadAndLink();
    now = new Date(now.getTime() + (TTL_SECONDS - 1) * 1000);
    assert.equal((await fetchLink(link)).statusCode, 200, "a second before its expiry");
    now = new Date(now.getTime() + 1000);
    const expired = await fetchLink(link);
    assert.equal(expired.statusCode, 403);
    assert.match(expired.json().errors[0].error, /expired/);
    const list = await hark.api(token, "GET", `/v3/media/${mediaId}/streams`);
    assert.equal((await fetchLink(list.json().streams[0].streamLocation)).statusCode, 200);
  });

  test("a link stops working when its item is deleted", async () => {
    const { mediaId, link } = await uploadAndLink();
    assert.equal((await hark.api(token, "DELETE", `/v3/media/${mediaId}`)).statusCode, 204);
    const response = await fetchLink(link);
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().errors[0].code, 10205);
  });

  test("without a link, the stream needs the token as before", async () => {
    const { mediaId } = await uploadAndLink();
    const bare = await hark.app.inject({ method: "GET", url: `/v3/media/${mediaId}/streams/original` });
    assert.equal(bare.statusCode, 401);
    assert.equal(bare.json().errors[0].code, 10002);
    const withToken = await hark.api(token, "GET", `/v3/media/${mediaId}/streams/original`);
    assert.equal(withToken.statusCode, 200);
  });
});
