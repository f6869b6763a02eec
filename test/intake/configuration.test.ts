import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkOutboundUrl, parseConfiguration, parseMetadata } from "../../src/intake/configuration.ts";

const strict = { allowHttp: false, allowPrivate: false };
const relaxed = { allowHttp: true, allowPrivate: true };

function faults(configuration: unknown, policy = strict) {
  const parsed = parseConfiguration(JSON.stringify(configuration), policy);
  assert.equal(parsed.ok, false, "the configuration should be refused");
  return parsed.ok ? [] : parsed.errors;
}

function accepted(configuration: unknown, policy = strict) {
  const parsed = parseConfiguration(JSON.stringify(configuration), policy);
  assert.ok(
    parsed.ok,
    `the configuration should be accepted: ${JSON.stringify(!parsed.ok && parsed.errors)}`,
  );
  return parsed.value;
}

describe("configuration", () => {
  test("no configuration at all: one mixed speaker, no callbacks, normal priority", () => {
    const parsed = parseConfiguration(undefined, strict);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.value.speakers, [{ speakerName: "Speaker", channel: "mix" }]);
    assert.deepEqual(parsed.value.callbacks, []);
    assert.equal(parsed.value.priority, "normal");
  });

  test("callbacks get their defaults: POST, analytics; json transcripts; original stream", () => {
    const config = accepted({
      publish: {
        callbacks: [
          { url: "https://example.com/a" },
          { url: "https://example.com/t", type: "transcript", method: "put" },
          { url: "https://example.com/s", type: "transcript", format: "srt", method: "Post" },
          { url: "https://example.com/m", type: "media" },
          { url: "https://example.com/i", include: ["transcript", "metadata"] },
        ],
      },
    });
    assert.deepEqual(config.callbacks, [
      { url: "https://example.com/a", method: "POST", type: "analytics" },
      { url: "https://example.com/t", method: "PUT", type: "transcript", format: "json" },
      { url: "https://example.com/s", method: "POST", type: "transcript", format: "srt" },
      { url: "https://example.com/m", method: "POST", type: "media", stream: "original" },
      {
        url: "https://example.com/i",
        method: "POST",
        type: "analytics",
        include: ["transcript", "metadata"],
      },
    ]);
  });

  test("unparseable JSON is refused with VoiceBase's code 10007", () => {
    const parsed = parseConfiguration("{not json", strict);
    assert.equal(parsed.ok, false);
    assert.equal(!parsed.ok && parsed.errors[0]?.code, 10007);
  });

  test("an unknown property is refused with 10008, naming it and where it was", () => {
    const [fault, ...rest] = faults({ publish: { callbacks: [{ url: "https://example.com", retries: 3 }] } });
    assert.equal(rest.length, 0);
    assert.equal(fault?.code, 10008);
    assert.match(fault?.error ?? "", /retries/);
    assert.match(fault?.error ?? "", /configuration\.publish\.callbacks\[0\]/);
    assert.match(fault?.error ?? "", /allowed: url, method, type, format, include, stream/);
    assert.equal(faults({ colour: "blue" })[0]?.code, 10008);
  });

  test("enum values are checked and the allowed values listed", () => {
    const [fault] = faults({ publish: { callbacks: [{ url: "https://example.com", type: "email" }] } });
    assert.equal(fault?.code, 60007);
    assert.match(
      fault?.error ?? "",
      /configuration\.publish\.callbacks\[0\]\.type must be one of analytics, transcript, media/,
    );
    const [format] = faults({
      publish: { callbacks: [{ url: "https://x.example", type: "transcript", format: "pdf" }] },
    });
    assert.match(format?.error ?? "", /format must be one of json, text, srt, webvtt, dfxp/);
    assert.equal(format?.code, 60010);
    const [include] = faults({
      publish: { callbacks: [{ url: "https://x.example", include: ["everything"] }] },
    });
    assert.match(include?.error ?? "", /include\[0\] must be one of metadata, transcript/);
    assert.equal(include?.code, 60003);
    const [priority] = faults({ priority: "urgent" });
    assert.equal(priority?.code, 10009);
    assert.match(priority?.error ?? "", /configuration\.priority must be one of low, normal, high/);
  });

  test("method is POST or PUT in any letter case, nothing else", () => {
    const [fault] = faults({ publish: { callbacks: [{ url: "https://example.com", method: "GET" }] } });
    assert.equal(fault?.code, 60011);
    assert.match(fault?.error ?? "", /method must be POST or PUT \(any letter case\); got "GET"/);
    assert.equal(
      accepted({ publish: { callbacks: [{ url: "https://example.com", method: "pUt" }] } }).callbacks[0]
        ?.method,
      "PUT",
    );
  });

  test("a missing url is named; callbacks may be left out", () => {
    const [url] = faults({ publish: { callbacks: [{ method: "POST" }] } });
    assert.match(url?.error ?? "", /configuration\.publish\.callbacks\[0\]\.url is required/);
    assert.equal(url?.code, 60001);
    assert.equal(faults({ publish: { callbacks: [{ url: "" }] } })[0]?.code, 60001);
    // VoiceBase's publish section may hold enableAnalyticIndexing alone.
    assert.deepEqual(accepted({ publish: {} }).callbacks, []);
    assert.match(
      faults({ publish: { callbacks: {} } })[0]?.error ?? "",
      /configuration\.publish\.callbacks must be an array/,
    );
  });

  test("every fault is reported, not only the first", () => {
    const found = faults({
      priority: "urgent",
      publish: { callbacks: [{ url: "http://example.com", type: "nope" }] },
    });
    assert.ok(found.length >= 2, JSON.stringify(found));
  });

  test("properties that belong to another callback type are refused", () => {
    const [format] = faults({ publish: { callbacks: [{ url: "https://example.com", format: "srt" }] } });
    assert.match(
      format?.error ?? "",
      /format applies only to type transcript; this callback is of type analytics/,
    );
    assert.equal(format?.code, 60008);
    const [stream] = faults({
      publish: { callbacks: [{ url: "https://example.com", type: "transcript", stream: "original" }] },
    });
    assert.match(stream?.error ?? "", /stream applies only to type media/);
    const [include] = faults({
      publish: { callbacks: [{ url: "https://example.com", type: "media", include: ["transcript"] }] },
    });
    assert.match(include?.error ?? "", /include applies only to type analytics/);
  });

  test("callback URLs must be absolute https URLs to public hosts by default", () => {
    const url = (u: string, policy = strict) => faults({ publish: { callbacks: [{ url: u }] } }, policy)[0];
    assert.match(url("http://example.com/cb")?.error ?? "", /must use https; got http/);
    assert.equal(url("http://example.com/cb")?.code, 60002);
    assert.match(url("/relative")?.error ?? "", /must be an absolute URL/);
    assert.equal(url("/relative")?.code, 60006);
    assert.match(url("ftp://example.com")?.error ?? "", /must use https/);
    for (const local of [
      "https://127.0.0.1/cb",
      "https://127.1/cb",
      "https://2130706433/cb",
      "https://0x7f.1/cb",
      "https://[::1]/cb",
      "https://[::ffff:127.0.0.1]/cb",
      "https://10.1.2.3/cb",
      "https://192.168.0.10/cb",
      "https://169.254.169.254/latest/meta-data",
      "https://localhost/cb",
      "https://api.localhost/cb",
    ]) {
      assert.equal(url(local)?.code, 11002, local);
      assert.match(url(local)?.error ?? "", /must name a public host/, local);
    }
    assert.match(url("https://user:pw@example.com/cb")?.error ?? "", /user name or password/);
  });

  test("HARK_CALLBACK_ALLOW_HTTP and HARK_CALLBACK_ALLOW_PRIVATE open exactly what they say", () => {
    accepted({ publish: { callbacks: [{ url: "http://127.0.0.1:9999/cb" }] } }, relaxed);
    const httpOnly = { allowHttp: true, allowPrivate: false };
    accepted({ publish: { callbacks: [{ url: "http://example.com/cb" }] } }, httpOnly);
    assert.equal(
      faults({ publish: { callbacks: [{ url: "http://127.0.0.1/cb" }] } }, httpOnly)[0]?.code,
      11002,
    );
    const privateOnly = { allowHttp: false, allowPrivate: true };
    accepted({ publish: { callbacks: [{ url: "https://127.0.0.1/cb" }] } }, privateOnly);
    assert.equal(
      faults({ publish: { callbacks: [{ url: "http://127.0.0.1/cb" }] } }, privateOnly)[0]?.code,
      60002,
    );
  });

  test("stereo names a speaker per channel; speakerName names the mix; they exclude each other", () => {
    const stereo = accepted({
      ingest: { stereo: { left: { speakerName: "Agent" }, right: { speakerName: "Caller" } } },
    });
    assert.deepEqual(stereo.speakers, [
      { speakerName: "Agent", channel: 0 },
      { speakerName: "Caller", channel: 1 },
    ]);
    assert.deepEqual(accepted({ ingest: { speakerName: "Narrator" } }).speakers, [
      { speakerName: "Narrator", channel: "mix" },
    ]);
    const ignored = accepted({
      ingest: { channels: [{ speakerName: "A" }, { speakerName: "B", ignore: true }] },
    });
    assert.deepEqual(ignored.speakers, [{ speakerName: "A", channel: 0 }]);
    const [both] = faults({ ingest: { speakerName: "X", stereo: { left: {}, right: {} } } });
    assert.match(both?.error ?? "", /speakerName and configuration\.ingest\.stereo exclude each other/);
    assert.match(faults({ ingest: { stereo: { left: {} } } })[0]?.error ?? "", /stereo\.right is required/);
  });

  test("time to live must be a positive whole number of seconds", () => {
    assert.equal(accepted({ timeToLiveInSeconds: 3600 }).timeToLiveInSeconds, 3600);
    assert.equal(faults({ timeToLiveInSeconds: 0 })[0]?.code, 11001);
    assert.match(
      faults({ timeToLiveInSeconds: 1.5 })[0]?.error ?? "",
      /timeToLiveInSeconds must be an integer/,
    );
  });

  test("a language Hark cannot transcribe is refused with VoiceBase's 10601", () => {
    const [fault] = faults({ speechModel: { language: "fr-FR" } });
    assert.equal(fault?.code, 10601);
    assert.match(fault?.error ?? "", /fr-FR.*use en-US/);
    accepted({ speechModel: { language: "en-US" } });
  });

  test("analyses: knowledge, sentiment, verb-noun pairs and number formatting by default; the rest when asked for", () => {
    assert.deepEqual(accepted({}).analyses, {
      advancedPunctuation: false,
      knowledge: true,
      speakerSentiments: true,
      verbNounPairs: true,
      voiceFeatures: false,
      metricGroups: [],
      spottingGroups: [],
      categories: [],
      detectors: [],
      numberFormatting: true,
      classifiers: [],
    });
    const detector = { detectorName: "PCI", redactor: { transcript: { replacement: "[redacted]" } } };
    const plan = accepted({
      speechModel: { features: ["advancedPunctuation"] },
      knowledge: { enableDiscovery: false },
      speakerSentiments: false,
      conversation: { verbNounPairsEnabled: false },
      metrics: [{ metricGroupName: "overtalk" }],
      spotting: { groups: [{ groupName: "churn" }] },
      categories: [{ categoryName: "cancellation" }, { categoryName: "greeting" }],
      prediction: {
        detectors: [detector],
        classifiers: [{ classifierName: "complaint" }, { classifierId: "c-1" }],
      },
    }).analyses;
    assert.deepEqual(plan, {
      advancedPunctuation: true,
      knowledge: false,
      speakerSentiments: false,
      verbNounPairs: false,
      voiceFeatures: false,
      metricGroups: ["overtalk"],
      spottingGroups: ["churn"],
      categories: ["cancellation", "greeting"],
      detectors: [detector],
      numberFormatting: true,
      classifiers: ["complaint", "c-1"],
    });
    assert.equal(
      accepted({ transcript: { formatting: { enableNumberFormatting: false } } }).analyses.numberFormatting,
      false,
    );
    assert.equal(accepted({ categories: [{ allCategories: true }] }).analyses.categories, "all");
    assert.deepEqual(accepted({ prediction: { detectors: [{ detectorId: "SSN" }] } }).analyses.detectors, [
      { detectorId: "SSN", detectorName: "SSN" },
    ]);
  });

  test("a detector Hark does not have, or a parameter it cannot use, is refused naming it", () => {
    const [unknown] = faults({ prediction: { detectors: [{ detectorName: "Passport" }] } });
    assert.equal(unknown?.code, 50006);
    assert.match(unknown?.error ?? "", /prediction\.detectors\[0\].*Passport.*PCI/);
    const [level] = faults({
      prediction: {
        detectors: [{ detectorName: "PCI", parameters: [{ parameter: "detectionLevel", value: "all" }] }],
      },
    });
    assert.match(level?.error ?? "", /detectionLevel/);
  });

  test("a classifier or category reference must name one", () => {
    assert.match(
      faults({ prediction: { classifiers: [{}] } })[0]?.error ?? "",
      /classifierId or classifierName/,
    );
    assert.match(faults({ categories: [{}] })[0]?.error ?? "", /categoryName or allCategories/);
    assert.equal(faults({ categories: [{ categoryName: "" }] })[0]?.code, 11001);
  });

  test("HARK_CALLBACK_ALLOW_CIDRS lets a URL name an address in those networks, and no other", () => {
    const policy = { allowHttp: false, allowPrivate: false, allowCidrs: ["10.1.0.0/16"] };
    accepted({ publish: { callbacks: [{ url: "https://10.1.2.3/hook" }] } }, policy);
    const [fault] = faults({ publish: { callbacks: [{ url: "https://10.2.0.1/hook" }] } }, policy);
    assert.equal(fault?.code, 11002);
  });

  test("a redacted-audio media callback needs a detector that redacts audio", () => {
    const callbacks = [
      { url: "https://example.com/original", type: "media", stream: "original" },
      { url: "https://example.com/redacted", type: "media", stream: "redacted-audio" },
    ];
    const found = faults({ publish: { callbacks } });
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0]?.code, 11001);
    assert.match(
      found[0]?.error ?? "",
      /callbacks\[1\]\.stream redacted-audio needs a detector with redactor\.audio/,
    );
    accepted({
      prediction: { detectors: [{ detectorName: "PCI", redactor: { audio: { tone: 1000, gain: 0.5 } } }] },
      publish: { callbacks },
    });
  });
});

describe("metadata", () => {
  test("accepts title, description, externalId and extended of any depth", () => {
    const metadata = {
      title: "t",
      description: "d",
      externalId: "x-1",
      extended: { a: { b: { c: [1, { d: true }] } } },
    };
    const parsed = parseMetadata(JSON.stringify(metadata), 65536);
    assert.deepEqual(parsed.ok && parsed.value, metadata);
  });

  test("refuses unparseable text, unknown fields, an empty or overlong externalId", () => {
    const code = (text: string) => {
      const parsed = parseMetadata(text, 65536);
      return parsed.ok ? undefined : parsed.errors[0]?.code;
    };
    assert.equal(code("{"), 10107);
    assert.equal(code(JSON.stringify({ owner: "me" })), 10008);
    assert.equal(code(JSON.stringify({ externalId: " " })), 10108);
    assert.equal(code(JSON.stringify({ externalId: "x".repeat(256) })), 10109);
    assert.equal(code(JSON.stringify({ extended: "flat" })), 11001);
  });
});

describe("checkOutboundUrl", () => {
  test("a public https URL passes", () => {
    assert.equal(checkOutboundUrl("https://hooks.example.com/path?sig=abc", strict), undefined);
  });
});
