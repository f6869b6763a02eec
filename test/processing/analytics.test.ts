/**
 * Speech analytics end to end: a stereo call synthesised with flite (an agent, and a caller who wants to
 * cancel, complains and reads out a card number), defined spotting groups and categories, real
 * recognition, and the analytics callback and redacted-audio stream a client receives.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { mediaDocument } from "../../src/documents/media-document.ts";
import { getMedia } from "../../src/store/media.ts";
import { buildStereo, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

const CARD_WORDS = "four one one one one one one one one one one one one one one one";

describe("speech analytics of a call", () => {
  let hark: TestHark;
  let token: string;
  let receiver: Receiver;
  let dir: { dir: string; cleanup: () => Promise<void> };
  let call: string;
  // The document is read field by field below, as a client's JSON.parse leaves it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let analytics: Record<string, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let selected: Record<string, any>;
  let redactedAudio: Buffer;

  const api = async (method: "GET" | "PUT", url: string, payload?: unknown) =>
    hark.app.inject({
      method,
      url,
      payload: payload as object,
      headers: { authorization: `Bearer ${token}` },
    });

  before(async () => {
    dir = await tempDir();
    call = path.join(dir.dir, "call.wav");
    await buildStereo(
      [
        { text: "thank you for calling acme how can I help you" },
        { silenceMs: 6000 },
        { text: "I can help you with that. what is your card number" },
        { silenceMs: 7000 },
        { text: "thank you I have cancelled your subscription" },
      ],
      [
        { silenceMs: 3000 },
        {
          text: "I want to cancel my subscription. the service is terrible and I am very angry",
          voice: "slt",
        },
        { silenceMs: 4000 },
        { text: `my card number is ${CARD_WORDS}`, voice: "slt" },
      ],
      call,
    );
    receiver = await startReceiver();
    hark = await startTestHark(
      { HARK_CALLBACK_ALLOW_HTTP: "true", HARK_CALLBACK_ALLOW_PRIVATE: "true" },
      { workers: true },
    );
    token = await hark.createAccount();
    const group = await api("PUT", "/v3/definition/spotting/groups/churn", {
      groupName: "churn",
      keywords: ["cancel", "close my account"],
    });
    assert.equal(group.statusCode, 200, group.body);
    const category = await api("PUT", "/v3/definition/categories/cancellation", {
      query: '[Caller] "cancel" AND NOT "never mind"',
    });
    assert.equal(category.statusCode, 200, category.body);
    const classifier = await api("PUT", "/v3/definition/prediction/classifiers/complaint", {
      positiveLabel: "complaint",
      examples: [
        ...[
          "the service is terrible and I am very angry",
          "this is awful I want my money back",
          "nobody answered my emails I am furious",
          "your product broke again and I am fed up",
          "I have been waiting for weeks this is unacceptable",
        ].map((text) => ({ text, label: "complaint" })),
        ...[
          "thank you so much for your help today",
          "the new phone works perfectly",
          "I would like to upgrade my plan",
          "can you tell me my balance please",
          "great service and a friendly agent",
        ].map((text) => ({ text, label: "other" })),
      ],
    });
    assert.equal(classifier.statusCode, 200, classifier.body);
    const vocabulary = await api("PUT", "/v3/definition/vocabularies/acme", {
      terms: [{ term: "Acme", soundsLike: ["ack me"], weight: 2 }],
    });
    assert.equal(vocabulary.statusCode, 200, vocabulary.body);

    const response = await hark.upload(token, {
      media: call,
      metadata: { title: "Cancellation", externalId: "crm-77", extended: { queue: "billing" } },
      // Every section VoiceBase documents, as a contact-centre integration sends them.
      configuration: {
        speechModel: {
          language: "en-US",
          model: "Titan",
          features: ["voiceFeatures", "advancedPunctuation"],
          extensions: ["voicemail"],
        },
        priority: "high",
        knowledge: { enableDiscovery: true, enableExternalDataSources: false },
        transcript: {
          formatting: { enableNumberFormatting: true },
          contentFiltering: { enableProfanityFiltering: true },
        },
        vocabularies: [{ vocabularyName: "acme" }, { terms: [{ term: "subscription", weight: 1 }] }],
        searchability: { searchable: true },
        timeToLiveInSeconds: 86400,
        ingest: {
          stereo: {
            left: { speakerName: "Agent", speakerRole: "agent" },
            right: { speakerName: "Caller", speakerRole: "caller" },
          },
        },
        spotting: { groups: [{ groupName: "churn" }] },
        categories: [{ categoryName: "cancellation" }],
        metrics: [
          { metricGroupName: "overtalk" },
          { metricGroupName: "talk-time-and-rate" },
          { metricGroupName: "talk-style-tone-and-volume" },
        ],
        prediction: {
          detectors: [
            {
              detectorName: "PCI",
              redactor: { transcript: { replacement: "[redacted]" }, audio: { tone: 1000, gain: 0.5 } },
            },
          ],
          classifiers: [{ classifierName: "complaint" }],
        },
        publish: {
          enableAnalyticIndexing: true,
          callbacks: [
            { url: `${receiver.url}/analytics` },
            { url: `${receiver.url}/selected`, include: ["spotting", "categories"] },
            { url: `${receiver.url}/redacted`, type: "media", stream: "redacted-audio" },
          ],
        },
      },
    });
    assert.equal(response.statusCode, 200, response.body);
    analytics = JSON.parse((await receiver.next("/analytics")).body.toString("utf8"));
    selected = JSON.parse((await receiver.next("/selected")).body.toString("utf8"));
    redactedAudio = (await receiver.next("/redacted")).body;
  });

  after(async () => {
    await hark?.close();
    await receiver?.close();
    await dir?.cleanup();
  });

  const spoken = () =>
    (analytics.transcript.words as { w: string; m?: string }[])
      .filter((word) => word.m === undefined)
      .map((word) => word.w.toLowerCase());

  test("the card number is detected in the caller's words", () => {
    assert.equal(analytics.status, "finished");
    const [pci] = analytics.prediction.detectors;
    assert.equal(pci.detectorName, "PCI");
    assert.equal(pci.detections.length, 1, JSON.stringify(pci));
    const [segment] = pci.detections[0].detectedSegments;
    assert.equal(segment.speakerName, "Caller");
    assert.ok(segment.occurrences[0].e > segment.occurrences[0].s);
  });

  test("the card number is redacted in the transcript and in every format", () => {
    const words = spoken();
    assert.ok(words.includes("[redacted]"));
    assert.ok(!words.includes("four"), `a card digit is left: ${words.join(" ")}`);
    // Numbers are formatted (the default) after redaction: no formatted word shows the card's digits.
    assert.ok(!words.some((word) => /4111|\d{6}/u.test(word)), `a formatted card number: ${words.join(" ")}`);
    for (const format of analytics.transcript.alternateFormats as { format: string; data: string }[]) {
      const text = Buffer.from(format.data, "base64").toString("utf8").toLowerCase();
      assert.ok(!text.includes("four one one"), `${format.format} still reads the card number`);
      assert.ok(text.includes("[redacted]"), `${format.format} shows the redaction`);
    }
  });

  test("advanced punctuation asks the agent's questions and shows them in the text rendering", () => {
    const marks = (analytics.transcript.words as { w: string; m?: string }[]).filter(
      (word) => word.m === "punc",
    );
    assert.ok(
      marks.some((mark) => mark.w === "?"),
      `"how can I help you" and "what is your card number" are questions: ${JSON.stringify(marks)}`,
    );
    const text = analytics.transcript.alternateFormats.find(
      (format: { format: string }) => format.format === "text",
    );
    assert.match(Buffer.from(text.data, "base64").toString("utf8"), /\?/);
  });

  test("the redacted audio has a tone over the card number and the original elsewhere", async () => {
    const original = await pcm(call);
    const redactedFile = path.join(dir.dir, "redacted.wav");
    await writeFile(redactedFile, redactedAudio);
    const redacted = await pcm(redactedFile);
    assert.equal(redacted.length, original.length, "same length, same format");
    const [pci] = analytics.prediction.detectors;
    const { s, e } = pci.detections[0].detectedSegments[0].occurrences[0];
    const sampleAt = (ms: number) => Math.floor((ms / 1000) * 16000) * 4; // stereo s16le frames
    const inside = sampleAt((s + e) / 2);
    assert.notDeepEqual(redacted.subarray(inside, inside + 3200), original.subarray(inside, inside + 3200));
    const before = sampleAt(1000);
    assert.deepEqual(redacted.subarray(before, before + 3200), original.subarray(before, before + 3200));
  });

  test("the cancellation is spotted and categorised, and keywords name the subscription", () => {
    const [churn] = analytics.spotting.groups;
    assert.equal(churn.groupName, "churn");
    assert.equal(churn.spotted, true);
    assert.ok(churn.spottedKeywords.some((keyword: { keyword: string }) => keyword.keyword === "cancel"));
    const [cancellation] = analytics.categories;
    assert.deepEqual([cancellation.categoryName, cancellation.categoryValue], ["cancellation", 1]);
    const keywords = (analytics.knowledge.keywords as { keyword: string }[]).map((k) =>
      k.keyword.toLowerCase(),
    );
    assert.ok(keywords.includes("subscription"), keywords.join(", "));
  });

  test("the trained classifier calls the call a complaint", () => {
    const [complaint] = analytics.prediction.classifiers;
    assert.equal(complaint.classifierName, "complaint");
    assert.equal(complaint.predictedClassLabel, "complaint", JSON.stringify(complaint));
    assert.equal(complaint.predictedClass, 1);
  });

  test("include chooses the sections a callback carries", () => {
    assert.deepEqual(selected.spotting, analytics.spotting);
    assert.deepEqual(selected.categories, analytics.categories);
    for (const section of [
      "transcript",
      "knowledge",
      "prediction",
      "metrics",
      "speakerSentiments",
      "conversation",
    ]) {
      assert.equal(selected[section], undefined, `${section} was not asked for`);
    }
  });

  test("the complaint reads negative; the conversation has the caller's verb-noun pair", () => {
    const caller = analytics.speakerSentiments.find(
      (s: { speakerName: string }) => s.speakerName === "Caller",
    );
    const complaint = caller.sentimentValues[0];
    assert.ok(complaint.v < 0, `the complaint scored ${complaint.v}`);
    const pairs = analytics.conversation.speakerVerbNounPairs.find(
      (s: { speakerName: string }) => s.speakerName === "Caller",
    ).verbNounPairs;
    assert.ok(
      pairs.some(
        (pair: { verb: string; noun: string }) => pair.verb === "cancel" && pair.noun === "subscription",
      ),
      JSON.stringify(pairs),
    );
  });

  test("the metrics asked for, named as VoiceBase names them", () => {
    assert.deepEqual(
      analytics.metrics.map((group: { metricGroupName: string }) => group.metricGroupName),
      ["overtalk", "talk-time-and-rate", "talk-style-tone-and-volume"],
    );
    const talk = analytics.metrics[1].metricValues as { metricName: string; metricValue: number }[];
    const ratio = (name: string) => talk.find((metric) => metric.metricName === name)?.metricValue ?? NaN;
    assert.ok(ratio("caller-talk-ratio") > 0.3 && ratio("agent-talk-ratio") > 0.2, JSON.stringify(talk));
  });

  test("the streams list the redacted audio; GET serves it", async () => {
    const streams = (await api("GET", `/v3/media/${analytics.mediaId}/streams`)).json().streams;
    assert.deepEqual(
      streams.map((stream: { streamName: string }) => stream.streamName),
      ["original", "redacted-audio"],
    );
    const served = await api("GET", `/v3/media/${analytics.mediaId}/streams/redacted-audio`);
    assert.equal(served.statusCode, 200);
    assert.deepEqual(served.rawPayload, redactedAudio);
  });

  test("a configuration with every VoiceBase section is processed; what Hark does not compute is a warning", () => {
    assert.equal(analytics.status, "finished");
    const warnings = (analytics.warnings as { code: number; message: string }[]).filter(
      (warning) => warning.code === 12003,
    );
    for (const named of ["Titan", "voicemail", "enableAnalyticIndexing"]) {
      assert.ok(
        warnings.some((warning) => warning.message.includes(named)),
        `a warning names ${named}: ${JSON.stringify(warnings)}`,
      );
    }
    for (const computed of [
      "advancedPunctuation",
      "voiceFeatures",
      "talk-style-tone-and-volume",
      "vocabularies",
    ])
      assert.ok(
        !warnings.some((warning) => warning.message.includes(computed)),
        `${computed} is computed, not warned of`,
      );
  });

  test("the stereo call comes back in VoiceBase's shapes: turns, punctuation, voice features, renderings", () => {
    const words = analytics.transcript.words as {
      m?: string;
      w: string;
      s: number;
      e: number;
      c: number;
      v?: number;
      frq?: { f: number; e: number }[];
    }[];
    // Each turn entry spans its turn, and the turn's words follow it.
    words.forEach((entry, index) => {
      if (entry.m !== "turn") return;
      const next = words.findIndex((other, at) => at > index && other.m === "turn");
      const turn = words.slice(index + 1, next === -1 ? undefined : next).filter((word) => !word.m);
      assert.equal(entry.s, turn[0]?.s, `turn ${entry.w} at ${entry.s} starts with its first word`);
      assert.equal(entry.e, turn.at(-1)?.e, `turn ${entry.w} at ${entry.s} ends with its last word`);
    });
    const marks = words.filter((word) => word.m === "punc");
    assert.ok(marks.every((mark) => mark.c === 0));
    assert.ok(
      marks.some((mark) => mark.w === "?" || mark.w === ","),
      JSON.stringify(marks),
    );
    // Voice features on every spoken word (a redacted word keeps its sound's).
    for (const word of words.filter((entry) => !entry.m)) {
      assert.ok(typeof word.v === "number" && word.v >= 0, JSON.stringify(word));
      assert.ok(Array.isArray(word.frq) && word.frq.length > 0, JSON.stringify(word));
    }
    assert.ok(
      analytics.metrics.some(
        (group: { metricGroupName: string }) => group.metricGroupName === "talk-style-tone-and-volume",
      ),
    );
    const rendering = (format: string) => {
      const found = analytics.transcript.alternateFormats.find(
        (alternate: { format: string }) => alternate.format === format,
      );
      assert.equal(found.contentEncoding, "Base64");
      return Buffer.from(found.data, "base64").toString("utf8");
    };
    assert.match(rendering("text"), /Agent: /);
    assert.match(rendering("text"), /Caller: /);
    assert.match(rendering("srt"), /Caller: /);
    assert.match(rendering("dfxp"), /xmlns="http:\/\/www\.w3\.org\/2006\/04\/ttaf1"/);
  });

  test("what a client reads is what the OpenAPI description says, and no field is lost on the way", async () => {
    const mediaId = analytics.mediaId as string;
    for (const section of SECTIONS) assert.ok(section in analytics, `the callback body has no ${section}`);
    await assertDescribedBy("MediaDocument", analytics, "the analytics callback body");
    await assertDescribedBy("MediaDocument", selected, "an analytics callback body with include");

    const response = (await api("GET", `/v3/media/${mediaId}`)).json();
    await assertDescribedBy("MediaDocument", response, "GET /v3/media/{mediaId}");
    // Response schemas describe and never filter: the answer is the document as rendered, every field of
    // every section, whatever the schema names.
    const media = await getMedia(hark.services.db, mediaId);
    assert.ok(media);
    const { callbacks, ...document } = response;
    // Stream links are signed when rendered, and expire a while after: compared as the answer gave them.
    const given = new Map(
      (document.streams as { streamName: string; streamLocation: string }[]).map((s) => [
        s.streamName,
        s.streamLocation,
      ]),
    );
    const links = {
      publicUrl: hark.services.settings.publicUrl,
      stream: (_: string, name: string) => given.get(name) ?? "",
    };
    assert.deepEqual(document, JSON.parse(JSON.stringify(mediaDocument(media, links))));
    assert.equal(callbacks.length, 3);

    const transcript = await api("GET", `/v3/media/${mediaId}/transcript?includeAlternateFormat=srt,webvtt`);
    await assertDescribedBy("TranscriptDocument", transcript.json(), "GET .../transcript");
    await assertDescribedBy("CallbackLog", (await api("GET", `/v3/media/${mediaId}/callbacks`)).json());
    await assertDescribedBy("Progress", (await api("GET", `/v3/media/${mediaId}/progress`)).json());
    await assertDescribedBy("StreamList", (await api("GET", `/v3/media/${mediaId}/streams`)).json());
    await assertDescribedBy("MediaList", (await api("GET", "/v3/media")).json());
  });
});

/** Every analysis section the configuration above asks for. */
const SECTIONS = [
  "metadata",
  "transcript",
  "knowledge",
  "spotting",
  "prediction",
  "metrics",
  "categories",
  "conversation",
  "speakerSentiments",
  "streams",
];

/** The audio as 16 kHz stereo s16le samples. */
async function pcm(file: string): Promise<Buffer> {
  const args = ["-nostdin", "-v", "error", "-i", file, "-f", "s16le", "-ac", "2", "-ar", "16000", "-"];
  const { stdout } = await promisify(execFile)("ffmpeg", args, { encoding: "buffer", maxBuffer: 64 << 20 });
  return stdout;
}
