/**
 * `GET /v3/media` holds a bounded amount of metadata per page (`HARK_LIST_PAGE_METADATA_BYTES`): a page
 * over items with large metadata ends before `limit`, its `next` link continues, and following the links
 * reaches every item exactly once, in order, whichever way the listing is read.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { startTestHark, type TestHark } from "../support/harness.ts";

const PUBLIC_URL = "https://hark.example.com";
const BUDGET = 4096;
const ITEM_METADATA = 1000;

describe("list pages bounded by their metadata", () => {
  let hark: TestHark;
  let token: string;
  /** The account's items, oldest first. */
  const items: string[] = [];
  before(async () => {
    hark = await startTestHark({
      HARK_PUBLIC_URL: PUBLIC_URL,
      HARK_LIST_PAGE_METADATA_BYTES: String(BUDGET),
    });
    token = await hark.createAccount();
    let now = Date.parse("2026-01-10T12:00:00Z");
    for (let i = 0; i < 30; i++) {
      const response = await hark.upload(token, {
        media: randomBytes(512),
        mediaType: "audio/mpeg",
        metadata: { extended: { item: i, notes: "n".repeat(ITEM_METADATA) } },
      });
      assert.equal(response.statusCode, 200, response.body);
      const mediaId = response.json().mediaId as string;
      // Distinct, increasing creation times: the order the listing pages by.
      await hark.services.db.query("update media set date_created = $2 where media_id = $1", [
        mediaId,
        new Date((now += 1000)),
      ]);
      items.push(mediaId);
    }
  });
  after(() => hark.close());

  /** Follows `next` from `url`; resolves to the pages' items, and each page's size in bytes. */
  async function follow(url: string) {
    const seen: string[] = [];
    const pages: { items: number; bytes: number }[] = [];
    let next: string | undefined = url;
    while (next !== undefined) {
      const response = await hark.api(token, "GET", next.replace(PUBLIC_URL, ""));
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      for (const item of body.media) {
        assert.ok(item.metadata?.extended?.notes, "every item listed shows its metadata");
        seen.push(item.mediaId);
      }
      pages.push({ items: body.media.length, bytes: response.rawPayload.length });
      assert.ok(pages.length <= items.length, "paging ends");
      next = body._links.next?.href;
    }
    return { seen, pages };
  }

  test("limit=1000 over large metadata answers a short page whose next link reaches every item once", async () => {
    const { seen, pages } = await follow("/v3/media?limit=1000");
    assert.deepEqual(seen, [...items].reverse(), "every item once, newest first");
    assert.ok(pages.length > 1, `the items did not fit one page: ${JSON.stringify(pages)}`);
    for (const page of pages) {
      assert.ok(page.items >= 1 && page.items <= BUDGET / ITEM_METADATA, JSON.stringify(page));
      // The budget counts metadata; each item's envelope adds a few hundred bytes more.
      assert.ok(page.bytes < BUDGET + page.items * 800, JSON.stringify(page));
    }
  });

  test("ascending, and back by before, reach every item once too", async () => {
    const ascending = await follow("/v3/media?limit=1000&sortOrder=asc");
    assert.deepEqual(ascending.seen, items);

    // Read backwards from the newest item: each page is the one before its cursor.
    const newest = items.at(-1);
    const back: string[] = [];
    let previous: string | undefined = `/v3/media?limit=1000&sortOrder=asc&before=${newest}`;
    while (previous !== undefined) {
      const response = await hark.api(token, "GET", previous.replace(PUBLIC_URL, ""));
      const body: { media: { mediaId: string }[]; _links: { previous?: { href: string } } } = response.json();
      back.unshift(...body.media.map((item) => item.mediaId));
      previous = body._links.previous?.href;
    }
    assert.deepEqual(back, items.slice(0, -1));
  });

  test("an item whose metadata alone passes the budget is a page of its own, and paging moves past it", async () => {
    const large = items[10];
    await hark.services.db.query("update media set metadata = $2 where media_id = $1", [
      large,
      JSON.stringify({ extended: { notes: "L".repeat(BUDGET * 3) } }),
    ]);
    const { seen, pages } = await follow("/v3/media?limit=1000&sortOrder=asc");
    assert.deepEqual(seen, items);
    const index = seen.indexOf(large as string);
    let start = 0;
    const alone = pages.find((page) => {
      const holds = index >= start && index < start + page.items;
      start += page.items;
      return holds;
    });
    assert.equal(alone?.items, 1, "the large item is alone on its page");
  });
});
