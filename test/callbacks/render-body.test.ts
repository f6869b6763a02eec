/**
 * What each callback carries, decided when processing ends (spec/callbacks.md "Callback body of type
 * analytics", "Content-Type of the callback request"; DESIGN.md `include`, failed processing): every type,
 * format and include value, after finished and after failed processing. Pure: a hand-built media record.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { deliveryFates } from "../../src/callbacks/prepare.ts";
import {
  type CallbackBody,
  MEDIA_CONTENT_TYPE,
  renderCallbackBody,
} from "../../src/callbacks/render-body.ts";
import { FORMAT_VERSION, transcriptDocument } from "../../src/documents/media-document.ts";
import {
  NO_ANALYSES,
  INCLUDE_SECTIONS,
  type Callback,
  type IncludeSection,
} from "../../src/domain/configuration.ts";
import type { MediaLinks, MediaRecord } from "../../src/domain/media.ts";
import type { Transcript, Word } from "../../src/domain/transcript.ts";
import { alternateFormats, RENDERED_FORMATS, renderFormat } from "../../src/formats/index.ts";

const PUBLIC_URL = "https://hark.example.com";
/** Stream links as a document shows them; how they are signed is stream-links.test.ts's. */
const LINKS: MediaLinks = {
  publicUrl: PUBLIC_URL,
  stream: (mediaId, name) => `${PUBLIC_URL}/v3/media/${mediaId}/streams/${name}?signed`,
};
const MEDIA_ID = "3f0c1c9e-8f0a-4a53-9d43-6a1b2f7e5d10";
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The agent greets, the caller answers; punctuation and one word outside ASCII. */
const WORDS: Word[] = [
  { p: 0, c: 1, s: 0, e: 400, w: "Agent", m: "turn" },
  { p: 1, c: 0.91, s: 0, e: 400, w: "Hello" },
  { p: 2, c: 1, s: 400, e: 400, w: ",", m: "punc" },
  { p: 3, c: 0.88, s: 500, e: 800, w: "Zoë" },
  { p: 4, c: 1, s: 800, e: 800, w: ".", m: "punc" },
  { p: 5, c: 1, s: 1200, e: 1500, w: "Caller", m: "turn" },
  { p: 6, c: 0.95, s: 1200, e: 1500, w: "cancel" },
  { p: 7, c: 0.93, s: 1600, e: 1900, w: "it" },
  { p: 8, c: 1, s: 1900, e: 1900, w: "!", m: "punc" },
];

const TRANSCRIPT: Transcript = {
  confidence: 0.92,
  words: WORDS,
  voiceActivity: [
    { speakerName: "Agent", occurrences: [{ s: 0, e: 800 }] },
    { speakerName: "Caller", occurrences: [{ s: 1200, e: 1900 }] },
  ],
  alternateFormats: alternateFormats(WORDS),
};

/** A section, to show sections are chosen by name. */
const KNOWLEDGE = { keywords: [{ keyword: "cancel", relevance: 0.8, mentions: [] }], topics: [] };

const finished: MediaRecord = {
  mediaId: MEDIA_ID,
  account: { accountId: "a8d3b0a4-1111-4e2b-9c61-5d0f7e6a9b21", accountName: "acme" },
  status: "finished",
  configuration: {
    raw: {},
    speakers: [{ speakerName: "Speaker", channel: "mix" }],
    priority: "normal",
    callbacks: [],
    analyses: NO_ANALYSES,
  },
  metadata: { title: "Call 7", externalId: "crm-7", extended: { queue: { name: "billing", tier: 2 } } },
  mediaUrl: undefined,
  mediaContentType: "audio/wav",
  originalBlob: `media/${MEDIA_ID}/original`,
  originalBytes: 64_000,
  redactedBlob: undefined,
  lengthMs: 2000,
  sections: { transcript: TRANSCRIPT, knowledge: KNOWLEDGE },
  errors: undefined,
  messages: [{ code: 12001, message: "channel 2 has no speech" }],
  progress: {},
  timeToLiveSeconds: 3600,
  dateCreated: new Date("2024-05-01T09:30:00.000Z"),
  dateFinished: new Date("2024-05-01T09:31:12.345Z"),
  expiresOn: new Date("2024-05-01T10:31:12.345Z"),
};

const failed: MediaRecord = {
  ...finished,
  status: "failed",
  mediaContentType: "application/octet-stream",
  lengthMs: undefined,
  sections: {},
  errors: [{ code: 10201, error: "The media could not be decoded as audio" }],
  messages: [],
  dateFinished: new Date("2024-05-01T09:30:05.006Z"),
  expiresOn: new Date("2024-05-01T10:30:05.006Z"),
};

const ENVELOPE = [
  "_links",
  "formatVersion",
  "mediaId",
  "accountId",
  "accountName",
  "status",
  "dateCreated",
  "dateFinished",
  "timeToLiveInSeconds",
  "expiresOn",
  "mediaContentType",
  "length",
];

/** The sections the finished fixture has, as a document would name them. */
const PRESENT: Partial<Record<IncludeSection, unknown>> = {
  metadata: finished.metadata,
  transcript: TRANSCRIPT,
  knowledge: KNOWLEDGE,
  streams: [
    {
      status: 200,
      streamName: "original",
      streamLocation: `${PUBLIC_URL}/v3/media/${MEDIA_ID}/streams/original?signed`,
    },
  ],
  messages: finished.messages,
};

const analytics = (include?: IncludeSection[]): Callback => ({
  url: "https://receiver.example.com/cb",
  method: "POST",
  type: "analytics",
  ...(include && { include }),
});

function bytesOf(body: CallbackBody | undefined): { contentType: string; bytes: Buffer } {
  assert.ok(body, "a body is rendered");
  assert.ok("bytes" in body, "the body is bytes, not a stream reference");
  return body;
}

/** Renders an analytics callback and parses it, checking it is sent as exactly `application/json`. */
function analyticsDocument(media: MediaRecord, include?: IncludeSection[]): Record<string, unknown> {
  const body = bytesOf(renderCallbackBody(analytics(include), media, LINKS));
  assert.equal(body.contentType, "application/json");
  return JSON.parse(body.bytes.toString("utf8"));
}

function assertEnvelope(document: Record<string, unknown>, media: MediaRecord): void {
  assert.deepEqual(document._links, { self: { href: `${PUBLIC_URL}/v3/media/${MEDIA_ID}` } });
  assert.equal(document.formatVersion, FORMAT_VERSION);
  assert.match(String(document.formatVersion), /^\d+\.\d+\.\d+$/);
  assert.equal(document.mediaId, MEDIA_ID);
  assert.equal(document.accountId, media.account.accountId);
  assert.equal(document.accountName, "acme");
  assert.equal(document.status, media.status);
  for (const field of ["dateCreated", "dateFinished", "expiresOn"]) {
    assert.match(String(document[field]), ISO_MS, `${field} is ISO 8601 UTC with milliseconds`);
  }
  assert.equal(document.dateCreated, media.dateCreated.toISOString());
  assert.equal(document.dateFinished, media.dateFinished?.toISOString());
  assert.equal(document.expiresOn, media.expiresOn.toISOString());
  assert.equal(document.timeToLiveInSeconds, 3600);
  assert.equal(document.mediaContentType, media.mediaContentType);
}

describe("analytics callback bodies", () => {
  test("include omitted: the envelope and every section the item has", () => {
    const document = analyticsDocument(finished);
    assertEnvelope(document, finished);
    assert.equal(document.length, 2000);
    assert.deepEqual(Object.keys(document).sort(), [...ENVELOPE, ...Object.keys(PRESENT), "warnings"].sort());
    for (const [name, section] of Object.entries(PRESENT)) {
      assert.deepEqual(document[name], section, name);
    }
    assert.deepEqual(document.warnings, finished.messages, "VoiceBase's name for the messages");
    assert.equal(
      (document.transcript as Transcript).alternateFormats.length,
      RENDERED_FORMATS.length,
      "transcript means transcripts in all formats",
    );
  });

  for (const section of INCLUDE_SECTIONS) {
    test(`include ["${section}"]: that section only, and the envelope`, () => {
      const document = analyticsDocument(finished, [section]);
      assertEnvelope(document, finished);
      // VoiceBase's `warnings` come with the spec's `messages`, its other name.
      const named = section === "messages" ? [section, "warnings"] : [section];
      const expected = section in PRESENT ? [...ENVELOPE, ...named] : ENVELOPE;
      assert.deepEqual(Object.keys(document).sort(), [...expected].sort());
      if (section in PRESENT) assert.deepEqual(document[section], PRESENT[section]);
    });
  }

  test('include ["metadata", "streams"]: those two and the envelope', () => {
    const document = analyticsDocument(finished, ["metadata", "streams"]);
    assertEnvelope(document, finished);
    assert.deepEqual(Object.keys(document).sort(), [...ENVELOPE, "metadata", "streams"].sort());
    assert.deepEqual(document.metadata, finished.metadata, "extended keeps its nesting");
    assert.deepEqual(document.streams, PRESENT.streams);
  });

  test("after failed processing: status failed and the errors that stopped it", () => {
    const document = analyticsDocument(failed);
    assertEnvelope(document, failed);
    assert.equal(document.status, "failed");
    assert.deepEqual(document.errors, [{ code: 10201, error: "The media could not be decoded as audio" }]);
    assert.equal(document.transcript, undefined);
    assert.equal(document.length, undefined, "no length was measured");
    assert.deepEqual(
      analyticsDocument(failed, ["transcript"]).errors,
      document.errors,
      "whatever include says",
    );
  });

  test("a finished item's body carries no errors", () => {
    assert.equal("errors" in analyticsDocument(finished), false);
  });
});

describe("transcript callback bodies", () => {
  const transcript = (format: Extract<Callback, { type: "transcript" }>["format"]): Callback => ({
    url: "https://receiver.example.com/t",
    method: "PUT",
    type: "transcript",
    format,
  });

  test("json: exactly application/json, the JSON transcript document", () => {
    const body = bytesOf(renderCallbackBody(transcript("json"), finished, LINKS));
    assert.equal(body.contentType, "application/json");
    assert.equal(body.bytes.toString("utf8"), JSON.stringify(transcriptDocument(finished, PUBLIC_URL, [])));
    const document = JSON.parse(body.bytes.toString("utf8"));
    assertEnvelope(document, finished);
    assert.deepEqual(document.transcript.words, WORDS);
    assert.deepEqual(document.transcript.voiceActivity, TRANSCRIPT.voiceActivity);
    assert.equal(document.metadata, undefined, "a transcript, not the analytics document");
  });

  const types = { text: "text/plain", srt: "text/srt", webvtt: "text/vtt", dfxp: "application/ttaf+xml" };
  for (const [format, contentType] of Object.entries(types) as [keyof typeof types, string][]) {
    test(`${format}: exactly ${contentType}, the ${format} rendering's UTF-8 bytes`, () => {
      const body = bytesOf(renderCallbackBody(transcript(format), finished, LINKS));
      assert.equal(body.contentType, contentType);
      assert.ok(body.bytes.equals(Buffer.from(renderFormat(format, WORDS), "utf8")));
      assert.ok(body.bytes.toString("utf8").includes("Zoë"), "non-ASCII text is UTF-8");
      const alternate = TRANSCRIPT.alternateFormats.find((a) => a.format === format);
      assert.ok(body.bytes.equals(Buffer.from(alternate?.data ?? "", "base64")), "same as alternateFormats");
    });
  }

  test("text reads as the conversation", () => {
    const body = bytesOf(renderCallbackBody(transcript("text"), finished, LINKS));
    assert.equal(body.bytes.toString("utf8"), "Agent: Hello, Zoë.\n\nCaller: cancel it!\n");
  });

  test("no Content-Type carries a charset (a pre-signed URL may have signed it)", () => {
    const callbacks: Callback[] = [
      analytics(),
      ...(["json", "text", "srt", "webvtt", "dfxp"] as const).map(transcript),
      { url: "https://receiver.example.com/m", method: "POST", type: "media", stream: "original" },
    ];
    for (const callback of callbacks) {
      const body = renderCallbackBody(callback, finished, LINKS);
      assert.doesNotMatch(body?.contentType ?? "", /;|charset/i, JSON.stringify(callback));
    }
  });

  test("after failed processing nothing is rendered: the callback is skipped", () => {
    for (const format of ["json", "text", "srt", "webvtt", "dfxp"] as const) {
      assert.equal(renderCallbackBody(transcript(format), failed, LINKS), undefined, format);
    }
  });
});

describe("media callback bodies", () => {
  const media = (stream: "original" | "redacted-audio"): Callback => ({
    url: "https://receiver.example.com/m",
    method: "POST",
    type: "media",
    stream,
  });

  test("original: application/octet-stream, a reference to the stored stream", () => {
    assert.deepEqual(renderCallbackBody(media("original"), finished, LINKS), {
      contentType: MEDIA_CONTENT_TYPE,
      stream: "original",
    });
    assert.equal(MEDIA_CONTENT_TYPE, "application/octet-stream");
  });

  test("a stream the item does not have is skipped; one it has is sent from its blob", () => {
    const callbacks = [media("original"), media("redacted-audio")];
    const item = { ...finished, configuration: { ...finished.configuration, callbacks } };
    assert.deepEqual(
      deliveryFates(item, LINKS).map((fate) => [fate.state, "bodyBlob" in fate && fate.bodyBlob]),
      [
        ["pending", finished.originalBlob],
        ["skipped", false],
      ],
    );
    const redacted = { ...item, redactedBlob: `media/${MEDIA_ID}/redacted-audio` };
    assert.deepEqual(
      deliveryFates(redacted, LINKS).map((fate) => "bodyBlob" in fate && fate.bodyBlob),
      [finished.originalBlob, redacted.redactedBlob],
    );
  });

  test("after failed processing nothing is rendered: the callback is skipped", () => {
    assert.equal(renderCallbackBody(media("original"), failed, LINKS), undefined);
  });
});
