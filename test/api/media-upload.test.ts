/**
 * POST /v3/media without workers: what is accepted, what is refused, and that a refusal leaves nothing
 * behind (no row, no delivery, no job, no bytes).
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Configuration } from "../../src/domain/configuration.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";

const AUDIO = randomBytes(64 * 1024); // bytes are not decoded at upload; processing is not running here

describe("POST /v3/media", () => {
  let hark: TestHark;
  let token: string;
  before(async () => {
    hark = await startTestHark({ HARK_MAX_UPLOAD_BYTES: String(1024 * 1024) });
    token = await hark.createAccount();
  });
  after(() => hark.close());

  /** What an upload leaves behind: rows, deliveries, processing jobs and stored media. */
  async function stored(): Promise<Record<string, number>> {
    const { rows } = await hark.services.db.query(
      `select (select count(*) from media)::int as media, (select count(*) from deliveries)::int as deliveries,
              (select count(*) from pgboss.job where name = 'process')::int as jobs`,
    );
    const blobs = await fs.readdir(path.join(hark.dataDir, "blobs", "media")).catch(() => []);
    return { ...rows[0], blobs: blobs.length };
  }
  let baseline: Record<string, number>;
  async function takeBaseline(): Promise<void> {
    baseline = await stored();
  }
  async function storedNothing(): Promise<void> {
    assert.deepEqual(await stored(), baseline);
  }

  test("accepts media with configuration and metadata, and answers the media document", async () => {
    const response = await hark.upload(token, {
      media: AUDIO,
      mediaType: "audio/x-wav",
      configuration: {
        publish: {
          callbacks: [
            { url: "https://example.com/a" },
            { url: "https://example.com/t", type: "transcript", format: "srt" },
          ],
        },
        timeToLiveInSeconds: 3600,
      },
      metadata: { title: "Call", externalId: "crm-1", extended: { deep: { er: [1, 2] } } },
    });
    assert.equal(response.statusCode, 200, response.body);
    const doc = response.json();
    assert.equal(doc.status, "accepted");
    assert.match(doc.mediaId, /^[0-9a-f-]{36}$/);
    assert.equal(doc._links.self.href, `http://127.0.0.1:8080/v3/media/${doc.mediaId}`);
    assert.equal(doc.formatVersion, "3.0.8");
    assert.equal(doc.mediaContentType, "audio/x-wav");
    assert.equal(doc.timeToLiveInSeconds, 3600);
    assert.equal(Date.parse(doc.expiresOn) - Date.parse(doc.dateCreated), 3600_000);
    assert.match(doc.dateCreated, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.deepEqual(doc.metadata, {
      title: "Call",
      externalId: "crm-1",
      extended: { deep: { er: [1, 2] } },
    });

    const { rows } = await hark.services.db.query(
      "select state, callback from deliveries where media_id = $1 order by position",
      [doc.mediaId],
    );
    assert.deepEqual(
      rows.map((r) => [r.state, r.callback.type]),
      [
        ["waiting", "analytics"],
        ["waiting", "transcript"],
      ],
    );
    const jobs = await hark.services.db.query(
      "select data from pgboss.job where name = 'process' and data->>'mediaId' = $1",
      [doc.mediaId],
    );
    assert.deepEqual(jobs.rows[0]?.data, { kind: "process", v: 1, mediaId: doc.mediaId, priority: "normal" });
    const stored = await fs.readFile(path.join(hark.dataDir, "blobs", "media", doc.mediaId, "original"));
    assert.ok(stored.equals(AUDIO), "the stored bytes are the uploaded bytes");
  });

  test("an upload without a useful type gets one from its file name, or application/octet-stream", async () => {
    const form = new FormData();
    form.append("media", new Blob([AUDIO], { type: "application/octet-stream" }), "Call.MP3");
    const named = await hark.app.inject({
      method: "POST",
      url: "/v3/media",
      headers: { authorization: `Bearer ${token}` },
      payload: form,
    });
    assert.equal(named.json().mediaContentType, "audio/mpeg");
    const unnamed = await hark.upload(token, { media: AUDIO });
    assert.equal(unnamed.json().mediaContentType, "application/octet-stream");
  });

  test("the configuration may come before or after the media, and as a file part", async () => {
    const form = new FormData();
    form.append(
      "configuration",
      new Blob([JSON.stringify({ ingest: { speakerName: "Ann" } })], { type: "application/json" }),
      "c.json",
    );
    form.append("media", new Blob([AUDIO]), "call.wav");
    const response = await hark.app.inject({
      method: "POST",
      url: "/v3/media",
      headers: { authorization: `Bearer ${token}` },
      payload: form,
    });
    assert.equal(response.statusCode, 200, response.body);
  });

  /** A multipart body built by hand: FormData cannot send a plain field with a Content-Type. */
  function multipart(parts: { name: string; value: string; type?: string; filename?: string }[]) {
    const boundary = "hark-test-boundary";
    const body = parts
      .map(
        ({ name, value, type, filename }) =>
          `--${boundary}\r\ncontent-disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}\r\n` +
          `${type ? `content-type: ${type}\r\n` : ""}\r\n${value}\r\n`,
      )
      .join("");
    return {
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      payload: `${body}--${boundary}--\r\n`,
    };
  }

  describe("every multipart style VoiceBase clients send reads the same", () => {
    const configuration = JSON.stringify({
      ingest: { stereo: { left: { speakerName: "Agent" }, right: { speakerName: "Caller" } } },
      priority: "high",
    });
    const metadata = JSON.stringify({ title: "Inbound call", extended: { queue: "billing" } });
    const styles: [string, { type?: string; filename?: string }][] = [
      ["a plain field", {}],
      ["a field typed application/json", { type: "application/json" }],
      ["a file part", { type: "application/json", filename: "configuration.json" }],
      ["a file part of unknown type", { type: "application/octet-stream", filename: "configuration.json" }],
    ];
    for (const [style, how] of styles) {
      test(`configuration and metadata as ${style}; mediaUrl as a text/url file part`, async () => {
        const response = await hark.app.inject({
          method: "POST",
          url: "/v3/media",
          ...multipart([
            { name: "configuration", value: configuration, ...how },
            { name: "metadata", value: metadata, ...how },
            {
              name: "mediaUrl",
              value: "https://example.com/call.wav\n",
              type: "text/url",
              filename: "url.txt",
            },
          ]),
        });
        assert.equal(response.statusCode, 200, response.body);
        const document = response.json();
        assert.deepEqual(document.metadata, JSON.parse(metadata));
        const { rows } = await hark.services.db.query(
          "select configuration, media_url from media where media_id = $1",
          [document.mediaId],
        );
        const [row] = rows as { media_url: string; configuration: Configuration }[];
        assert.equal(row?.media_url, "https://example.com/call.wav");
        assert.equal(row?.configuration.priority, "high");
        assert.deepEqual(
          row?.configuration.speakers.map((speaker) => speaker.speakerName),
          ["Agent", "Caller"],
        );
      });
    }

    test("a field typed application/json is checked like any other: a fault is named", async () => {
      const response = await hark.app.inject({
        method: "POST",
        url: "/v3/media",
        ...multipart([
          { name: "configuration", value: '{"ingest": {"speakrName": "Ann"}}', type: "application/json" },
          { name: "mediaUrl", value: "https://example.com/call.wav" },
        ]),
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().errors[0].code, 10008);
      assert.match(response.json().errors[0].error, /speakrName/);
    });

    test("a field typed application/json that is not JSON is refused with 10007", async () => {
      await takeBaseline();
      const response = await hark.app.inject({
        method: "POST",
        url: "/v3/media",
        ...multipart([
          { name: "configuration", value: "{not json", type: "application/json" },
          { name: "mediaUrl", value: "https://example.com/call.wav" },
        ]),
      });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().errors[0].code, 10007);
      await storedNothing();
    });

    test("a text field over 1 MiB is refused, never cut short", async () => {
      await takeBaseline();
      const padded = JSON.stringify({ title: "x".repeat(1024 * 1024) });
      const response = await hark.app.inject({
        method: "POST",
        url: "/v3/media",
        ...multipart([
          { name: "metadata", value: padded },
          { name: "mediaUrl", value: "https://example.com/call.wav" },
        ]),
      });
      assert.equal(response.statusCode, 413, response.body);
      assert.equal(response.json().errors[0].code, 10800);
      await storedNothing();
    });
  });

  const refusals: [string, Parameters<TestHark["upload"]>[1], number, number, RegExp][] = [
    [
      "no media and no mediaUrl",
      { configuration: {} },
      400,
      10202,
      /neither a 'media' file part nor a 'mediaUrl'/,
    ],
    ["an empty media file", { media: new Uint8Array(0) }, 400, 10202, /empty/],
    [
      "a bad configuration",
      {
        media: AUDIO,
        configuration: { publish: { callbacks: [{ url: "https://x.example", method: "GET" }] } },
      },
      400,
      60011,
      /method must be POST or PUT/,
    ],
    [
      "configuration that is not JSON",
      { media: AUDIO, configuration: "{oops" },
      400,
      10007,
      /not valid JSON/,
    ],
    [
      "an http callback URL",
      { media: AUDIO, configuration: { publish: { callbacks: [{ url: "http://example.com/cb" }] } } },
      400,
      60002,
      /must use https/,
    ],
    [
      "a loopback callback URL",
      { media: AUDIO, configuration: { publish: { callbacks: [{ url: "https://127.0.0.1/cb" }] } } },
      400,
      11002,
      /public host/,
    ],
    ["bad metadata", { media: AUDIO, metadata: "[1" }, 400, 10107, /metadata is not valid JSON/],
    [
      "a configuration property given twice",
      { media: AUDIO, configuration: '{"priority": "low", "priority": "high"}' },
      400,
      10010,
      /configuration\.priority is given more than once/,
    ],
    [
      "a priority VoiceBase does not have",
      { media: AUDIO, configuration: { priority: "urgent" } },
      400,
      10009,
      /priority must be one of low, normal, high/,
    ],
    [
      "a spotting group the account has not defined",
      { media: AUDIO, configuration: { spotting: { groups: [{ groupName: "competitors" }] } } },
      400,
      40005,
      /Spotting group competitors is not defined/,
    ],
    [
      "a category the account has not defined",
      { media: AUDIO, configuration: { categories: [{ categoryName: "greeting" }] } },
      400,
      11207,
      /Category greeting is not defined/,
    ],
    [
      "a classifier the account has not defined",
      { media: AUDIO, configuration: { prediction: { classifiers: [{ classifierName: "complaint" }] } } },
      400,
      11207,
      /Classifier complaint is not defined/,
    ],
    [
      "both media and mediaUrl",
      { media: AUDIO, mediaUrl: "https://example.com/a.wav" },
      400,
      11005,
      /not both/,
    ],
    ["a malformed mediaUrl", { mediaUrl: "not a url" }, 400, 10204, /mediaUrl must be an absolute URL/],
    [
      "a private mediaUrl",
      { mediaUrl: "https://10.0.0.1/a.wav" },
      400,
      11002,
      /mediaUrl must name a public host/,
    ],
    ["an unknown part", { media: AUDIO, extra: [["colour", "blue"]] }, 400, 10001, /Unknown part 'colour'/],
    [
      "a part given twice",
      { media: AUDIO, configuration: {}, extra: [["configuration", "{}"]] },
      400,
      10001,
      /more than once/,
    ],
    ["a file over HARK_MAX_UPLOAD_BYTES", { media: randomBytes(1024 * 1024 + 1) }, 413, 10800, /larger than/],
  ];
  for (const [name, parts, status, code, message] of refusals) {
    test(`refuses ${name} with ${status} (${code}) and stores nothing`, async () => {
      await takeBaseline();
      const response = await hark.upload(token, parts);
      assert.equal(response.statusCode, status, response.body);
      const body = response.json();
      assert.equal(body.status, status);
      assert.equal(body.errors[0].code, code, response.body);
      assert.match(body.errors[0].error, message);
      assert.equal(typeof body.reference, "string");
      await storedNothing();
    });
  }

  test("saved vocabularies are looked up: unknown (20008), empty (20009), a term also ad hoc (20017)", async () => {
    const put = (name: string, terms: { term: string }[]) =>
      hark.api(token, "PUT", `/v3/definition/vocabularies/${name}`, { terms });
    assert.equal((await put("acme", [{ term: "Acme" }, { term: "Hark" }])).statusCode, 200);
    assert.equal((await put("nothing-yet", [])).statusCode, 200);
    await takeBaseline();
    const cases: [unknown, number, RegExp][] = [
      [[{ vocabularyName: "earningsCalls" }], 20008, /"earningsCalls", which this account has not saved/],
      [[{ vocabularyName: "nothing-yet" }], 20009, /"nothing-yet", which has no terms/],
      [
        [{ vocabularyName: "acme" }, { terms: [{ term: "hark" }] }],
        20017,
        /"hark" across its saved and ad hoc/,
      ],
    ];
    for (const [vocabularies, code, message] of cases) {
      const response = await hark.upload(token, { media: AUDIO, configuration: { vocabularies } });
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().errors[0].code, code);
      assert.match(response.json().errors[0].error, message);
    }
    await storedNothing();
    const accepted = await hark.upload(token, {
      media: AUDIO,
      configuration: { vocabularies: [{ vocabularyName: "acme" }, { terms: [{ term: "Hark Inc" }] }] },
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
    // Vocabularies reach recognition now: the upload no longer warns that they are ignored.
    assert.doesNotMatch(JSON.stringify(accepted.json().warnings ?? []), /vocabularies/);
  });

  test("refuses two media files", async () => {
    await takeBaseline();
    const form = new FormData();
    form.append("media", new Blob([AUDIO]), "a.wav");
    form.append("media", new Blob([AUDIO]), "b.wav");
    const response = await hark.app.inject({
      method: "POST",
      url: "/v3/media",
      headers: { authorization: `Bearer ${token}` },
      payload: form,
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().errors[0].code, 10206);
    await storedNothing();
  });

  test("refuses a body that is not multipart with 415", async () => {
    const response = await hark.app.inject({
      method: "POST",
      url: "/v3/media",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: { mediaUrl: "https://example.com/a.wav" },
    });
    assert.equal(response.statusCode, 415);
    assert.equal(response.json().errors[0].code, 11007);
  });

  test("refuses a truncated multipart body with 400", async () => {
    await takeBaseline();
    const response = await hark.app.inject({
      method: "POST",
      url: "/v3/media",
      headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=XYZ" },
      payload: '--XYZ\r\ncontent-disposition: form-data; name="media"; filename="a.wav"\r\n\r\nRIFFpartial',
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().errors[0].code, 10001);
    await storedNothing();
  });

  test("needs an account token", async () => {
    const form = new FormData();
    form.append("media", new Blob([AUDIO]), "a.wav");
    const missing = await hark.app.inject({ method: "POST", url: "/v3/media", payload: form });
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().errors[0].code, 10002);
    assert.equal(missing.headers["www-authenticate"], 'Bearer realm="hark"');
    const wrong = await hark.upload("hark_not-a-real-token", { media: AUDIO });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().errors[0].code, 10003);
  });
});
