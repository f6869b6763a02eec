/**
 * The usage API on a real server with real processing: two uploads end either side of a UTC month's
 * end (a fixed clock moved on), and the account's usage shows each in its month and day, with minutes
 * from the items' lengths, in JSON and CSV; deleting an item changes none of it.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { wavHeader } from "../../src/pipeline/wav.ts";
import { sweepExpired } from "../../src/processing/sweeper.ts";
import { startTestHark, type TestHark, refused } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

/** `seconds` of 16 kHz mono silence: an item whose length is known to the millisecond. */
function silence(seconds: number): Buffer {
  const bytes = seconds * 16000 * 2;
  return Buffer.concat([wavHeader(bytes, 16000), Buffer.alloc(bytes)]);
}

const FEBRUARY_END = new Date("2026-02-28T23:30:00.000Z");
const MARCH_START = new Date("2026-03-01T00:30:00.000Z");

const FREE = { tierLevel: "self-hosted", unitPrice: 0, billedAmount: 0 };
const media = (count: number) => ({
  productId: "media",
  productName: "Media items processed",
  ...FREE,
  billedQuantity: count,
  billingUnit: "media",
});
const minutes = (quantity: number) => ({
  productId: "minutes",
  productName: "Minutes of media processed",
  ...FREE,
  billedQuantity: quantity,
  billingUnit: "minutes",
});

describe("usage API", () => {
  let hark: TestHark;
  let token: string;
  let other: string;
  let accountId: string;
  let now = FEBRUARY_END;
  const mediaIds: string[] = [];

  before(async () => {
    hark = await startTestHark({}, { workers: true, clock: { now: () => now } });
    token = await hark.createAccount();
    other = await hark.createAccount();
    // 12 s ends on 28 February (UTC), 18 s on 1 March: 0.2 and 0.3 minutes.
    for (const [at, seconds] of [
      [FEBRUARY_END, 12],
      [MARCH_START, 18],
    ] as const) {
      now = at;
      const upload = await hark.upload(token, { media: silence(seconds), mediaType: "audio/wav" });
      assert.equal(upload.statusCode, 200, upload.body);
      const { mediaId } = upload.json();
      assert.equal(await hark.ended(mediaId), "finished");
      mediaIds.push(mediaId);
    }
    const item = await hark.api(token, "GET", `/v3/media/${mediaIds[0]}`);
    accountId = item.json().accountId;
  });
  after(() => hark.close());

  const get = (url: string, as = token) => hark.api(as, "GET", url);

  async function json(url: string, schema: string) {
    const response = await get(url);
    assert.equal(response.statusCode, 200, response.body);
    assert.match(String(response.headers["content-type"]), /^application\/json/);
    await assertDescribedBy(schema, response.json());
    return response.json();
  }

  async function expectUsage() {
    assert.deepEqual(await json("/v3/usage/monthly/2026/2", "MonthlyUsage"), {
      accountId,
      months: [
        { monthName: "Feb 2026", ...media(1) },
        { monthName: "Feb 2026", ...minutes(0.2) },
      ],
    });
    assert.deepEqual(await json("/v3/usage/monthly/2026/03", "MonthlyUsage"), {
      accountId,
      months: [
        { monthName: "Mar 2026", ...media(1) },
        { monthName: "Mar 2026", ...minutes(0.3) },
      ],
    });
    assert.deepEqual(await json("/v3/usage/daily/2026/2", "DailyUsage"), {
      accountId,
      months: [
        { monthDay: "Feb 28, 2026", ...media(1) },
        { monthDay: "Feb 28, 2026", ...minutes(0.2) },
      ],
    });
    assert.deepEqual(await json("/v3/usage/months", "AvailableMonths"), {
      accountId,
      months: [
        { monthName: "Mar 2026", year: 2026, month: 3 },
        { monthName: "Feb 2026", year: 2026, month: 2 },
      ],
    });
  }

  test("each finished item counts in the UTC month and day its processing ended, with its minutes", async () => {
    await expectUsage();
  });

  test("the CSV forms carry the same lines under a header of their names", async () => {
    const monthly = await get("/v3/usage/monthly/2026/3/csv");
    assert.equal(monthly.statusCode, 200, monthly.body);
    assert.equal(monthly.headers["content-type"], "text/csv");
    assert.equal(
      monthly.body,
      "monthName,productId,productName,tierLevel,unitPrice,billedQuantity,billingUnit,billedAmount\r\n" +
        "Mar 2026,media,Media items processed,self-hosted,0,1,media,0\r\n" +
        "Mar 2026,minutes,Minutes of media processed,self-hosted,0,0.3,minutes,0\r\n",
    );
    const daily = await get("/v3/usage/daily/2026/3/csv");
    assert.equal(daily.statusCode, 200, daily.body);
    assert.equal(daily.headers["content-type"], "text/csv");
    assert.equal(
      daily.body,
      "monthDay,productId,productName,tierLevel,unitPrice,billedQuantity,billingUnit,billedAmount\r\n" +
        '"Mar 01, 2026",media,Media items processed,self-hosted,0,1,media,0\r\n' +
        '"Mar 01, 2026",minutes,Minutes of media processed,self-hosted,0,0.3,minutes,0\r\n',
    );
    const empty = await get("/v3/usage/daily/2025/12/csv");
    assert.equal(
      empty.body,
      "monthDay,productId,productName,tierLevel,unitPrice,billedQuantity,billingUnit,billedAmount\r\n",
    );
  });

  test("a month without usage has no lines; another account sees none of this one's", async () => {
    assert.deepEqual((await get("/v3/usage/monthly/2026/4")).json(), { accountId, months: [] });
    assert.deepEqual((await get("/v3/usage/months", other)).json().months, []);
    assert.deepEqual((await get("/v3/usage/monthly/2026/2", other)).json().months, []);
  });

  test("usage stays when an item is deleted, and when the other's time to live runs out", async () => {
    const deleted = await hark.api(token, "DELETE", `/v3/media/${mediaIds[0]}`);
    assert.equal(deleted.statusCode, 204, deleted.body);
    refused(await get(`/v3/media/${mediaIds[0]}`), 404, 10205);
    await expectUsage();

    const expiresOn = new Date((await get(`/v3/media/${mediaIds[1]}`)).json().expiresOn);
    now = expiresOn;
    assert.deepEqual(await sweepExpired(hark.services), [mediaIds[1]]);
    refused(await get(`/v3/media/${mediaIds[1]}`), 404, 10205);
    await expectUsage();
  });

  test("a year or month that is not one is a bad request", async () => {
    for (const path of [
      "/v3/usage/monthly/2026/13",
      "/v3/usage/monthly/2026/0",
      "/v3/usage/monthly/26x/1",
      "/v3/usage/daily/2026/feb",
      "/v3/usage/daily/1969/12",
      "/v3/usage/daily/2026/1.5/csv",
      "/v3/usage/monthly/10000/1/csv",
    ]) {
      const message = refused(await get(path), 400, 11005);
      assert.match(message, /year|month/, path);
    }
  });

  test("without a token, usage is 401", async () => {
    refused(await hark.app.inject({ method: "GET", url: "/v3/usage/months" }), 401, 10002);
  });
});
