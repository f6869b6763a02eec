/**
 * What real VoiceBase clients send: every configuration section VoiceBase documents is accepted, what
 * Hark does not compute yet is named in a warning, and faults get VoiceBase's own codes
 * (spec/voicebase/errors/errors.rst).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseConfiguration, parseMetadata } from "../../src/intake/configuration.ts";

const policy = { allowHttp: false, allowPrivate: false };

function parsed(configuration: unknown) {
  return parseConfiguration(
    typeof configuration === "string" ? configuration : JSON.stringify(configuration),
    policy,
  );
}
function accepted(configuration: unknown) {
  const result = parsed(configuration);
  assert.ok(result.ok, `should be accepted: ${JSON.stringify(!result.ok && result.errors)}`);
  return result.value;
}
function codes(configuration: unknown): number[] {
  const result = parsed(configuration);
  assert.equal(result.ok, false, "should be refused");
  return result.ok ? [] : result.errors.map((error) => error.code);
}

/** The sample configuration of VoiceBase's data-formats/configuration.rst, in English. */
const VOICEBASE_SAMPLE = {
  speechModel: { language: "en-US", features: ["advancedPunctuation"] },
  ingest: { stereo: { left: { speakerName: "Agent" }, right: { speakerName: "Caller" } } },
  prediction: {
    detectors: [
      {
        detectorName: "PCI",
        redactor: { transcript: { replacement: "[redacted]" }, audio: { tone: 170, gain: 0.5 } },
      },
    ],
  },
  spotting: { groups: [{ groupName: "finance" }] },
  knowledge: { enableDiscovery: true },
  transcript: {
    formatting: { enableNumberFormatting: false },
    contentFiltering: { enableProfanityFiltering: true },
  },
  vocabularies: [
    { vocabularyName: "earningsCalls" },
    {
      terms: [{ term: "VoiceBase", soundsLike: ["voice base"], weight: 1 }, { term: "Malala Yousafzai" }],
    },
  ],
  publish: { enableAnalyticIndexing: true },
};

/** A contact-centre integration's configuration: every other section VoiceBase documents. */
const CONTACT_CENTRE = {
  speechModel: {
    language: "en-US",
    model: "Titan",
    features: ["voiceFeatures", "advancedPunctuation"],
    extensions: ["voicemail"],
  },
  additionalSpeechModels: [{ language: "es-US" }],
  priority: "normal",
  ingest: {
    channels: [
      { speakerName: "Agent", speakerRole: "agent" },
      { speakerName: "Caller", speakerRole: "caller" },
    ],
  },
  prediction: {},
  metrics: [
    { metricGroupName: "overtalk" },
    { metricGroupName: "sentiment" },
    { metricGroupName: "talk-style-tone-and-volume" },
    { metricGroupName: "talk-time-and-rate" },
  ],
  knowledge: { enableDiscovery: true, enableExternalDataSources: false },
  transcript: {
    formatting: { enableNumberFormatting: true },
    contentFiltering: { enableProfanityFiltering: false },
  },
  categories: [{ allCategories: true }],
  searchability: { searchable: true },
  publish: {
    callbacks: [{ url: "https://example.com/voicebase", method: "POST", include: ["transcript"] }],
    enableAnalyticIndexing: false,
  },
  timeToLiveInSeconds: 86400,
};

describe("VoiceBase configurations", () => {
  test("VoiceBase's sample configuration is accepted; what Hark does not compute is warned of", () => {
    const config = accepted(VOICEBASE_SAMPLE);
    assert.deepEqual(config.vocabularyNames, ["earningsCalls"]);
    const warnings = (config.warnings ?? []).map((warning) => warning.message).join("\n");
    assert.ok(config.warnings?.every((warning) => warning.code === 12003));
    // Advanced punctuation and profanity filtering are computed: nothing to warn of; the plan carries them.
    assert.doesNotMatch(warnings, /advancedPunctuation/);
    assert.doesNotMatch(warnings, /ProfanityFiltering/);
    assert.equal(config.analyses.profanityFiltering, true);
    assert.equal(config.analyses.advancedPunctuation, true);
    // Vocabularies reach recognition: nothing to warn of at upload.
    assert.doesNotMatch(warnings, /vocabularies/);
    assert.match(warnings, /enableAnalyticIndexing/);
    // Hark formats numbers, and turns it off when asked: nothing to warn of.
    assert.doesNotMatch(warnings, /NumberFormatting/);
    assert.equal(config.analyses.numberFormatting, false);
  });

  test("a contact-centre configuration with every other section is accepted, each gap warned of", () => {
    const config = accepted(CONTACT_CENTRE);
    const warnings = (config.warnings ?? []).map((warning) => warning.message);
    for (const named of [/model "Titan"/, /additionalSpeechModels/, /voicemail/]) {
      assert.ok(
        warnings.some((warning) => named.test(warning)),
        `${named} in ${JSON.stringify(warnings)}`,
      );
    }
    // Number formatting, punctuation, voice features and the metrics made from them are computed.
    for (const computed of [
      /NumberFormatting/,
      /advancedPunctuation/,
      /voiceFeatures/,
      /talk-style-tone-and-volume/,
    ])
      assert.ok(!warnings.some((warning) => computed.test(warning)), `${computed} is computed`);
    assert.equal(warnings.length, 3, JSON.stringify(warnings));
    assert.equal(config.analyses.numberFormatting, true);
    assert.equal(config.priority, "normal");
    assert.equal(config.analyses.voiceFeatures, true);
    assert.deepEqual(config.analyses.metricGroups, [
      "overtalk",
      "sentiment",
      "talk-style-tone-and-volume",
      "talk-time-and-rate",
    ]);
    assert.deepEqual(
      config.speakers.map((speaker) => speaker.speakerRole),
      ["agent", "caller"],
    );
  });

  test("a configuration that asks for nothing Hark lacks carries no warnings", () => {
    assert.equal(accepted({ knowledge: { enableDiscovery: true } }).warnings, undefined);
  });

  test("unknown fields are still refused (10008), as VoiceBase's strict validation does", () => {
    assert.deepEqual(codes({ transcript: { formating: {} } }), [10008]);
    assert.deepEqual(codes({ speechModel: { langauge: "en-US" } }), [10008]);
  });

  test("a feature or extension VoiceBase does not have is refused (10603, 10602)", () => {
    assert.deepEqual(codes({ speechModel: { features: ["telepathy"] } }), [10603]);
    assert.deepEqual(codes({ speechModel: { extensions: ["podcast"] } }), [10602]);
  });

  test("one track reads like ingest itself; several are refused", () => {
    const config = accepted({
      ingest: { tracks: [{ channels: [{ speakerName: "Agent" }, { speakerName: "Caller" }] }] },
    });
    assert.deepEqual(
      config.speakers.map((speaker) => [speaker.speakerName, speaker.channel]),
      [
        ["Agent", 0],
        ["Caller", 1],
      ],
    );
    assert.deepEqual(accepted({ ingest: { tracks: [{ speakerName: "Ann" }] } }).speakers, [
      { speakerName: "Ann", channel: "mix" },
    ]);
    assert.deepEqual(codes({ ingest: { tracks: [{ trackIndex: 0 }, { trackIndex: 1 }] } }), [11009]);
  });

  test("a property given twice is refused with 10010 naming it, at any depth", () => {
    assert.deepEqual(codes('{"priority": "low", "priority": "high"}'), [10010]);
    const nested = parsed(
      '{"publish": {"callbacks": [{"url": "https://a.example"}, {"url": "https://b.example", "url": "https://c.example"}]}}',
    );
    assert.ok(!nested.ok);
    assert.match(
      nested.errors[0]?.error ?? "",
      /configuration\.publish\.callbacks\[1\]\.url is given more than once/,
    );
    // Escapes name the same property; the same name in two objects is no duplicate.
    assert.deepEqual(codes('{"priority": "low", "pr\\u0069ority": "high"}'), [10010]);
    accepted('{"ingest": {"stereo": {"left": {"speakerName": "A"}, "right": {"speakerName": "B"}}}}');
    accepted('{"metrics": [{"metricGroupName": "overtalk"}, {"metricGroupName": "sentiment"}]}');
  });

  test("metadata with a field given twice is refused with 10110", () => {
    const result = parseMetadata('{"title": "a", "extended": {"queue": 1, "queue": 2}}', 65536);
    assert.ok(!result.ok);
    assert.equal(result.errors[0]?.code, 10110);
    assert.match(result.errors[0]?.error ?? "", /metadata\.extended\.queue/);
  });

  test("vocabularies are checked as VoiceBase checks them (20006–20017)", () => {
    assert.deepEqual(codes({ vocabularies: [{}] }), [20006]);
    assert.deepEqual(codes({ vocabularies: [{ vocabularyName: "v", terms: [{ term: "a" }] }] }), [20007]);
    assert.deepEqual(codes({ vocabularies: [{ terms: [{ term: " " }] }] }), [20014]);
    assert.deepEqual(codes({ vocabularies: [{ terms: [{ term: "a", weight: 6 }] }] }), [20015]);
    assert.deepEqual(codes({ vocabularies: [{ terms: [{ term: "a", weight: 1.5 }] }] }), [20015]);
    assert.deepEqual(
      codes({ vocabularies: [{ terms: [{ term: "Hark" }] }, { terms: [{ term: "hark" }] }] }),
      [20017],
    );
    const many = Array.from({ length: 1001 }, (_, index) => ({ term: `term${index}` }));
    assert.deepEqual(codes({ vocabularies: [{ terms: many }] }), [20010]);
    accepted({ vocabularies: [{ scripts: [{ script: "thank you for calling" }, "how can I help"] }] });
  });

  test("ingest faults have VoiceBase's codes (15000, 15001, 15005)", () => {
    assert.deepEqual(codes({ ingest: { speakerName: "A", stereo: { left: {}, right: {} } } }), [15000]);
    assert.deepEqual(codes({ ingest: { channels: [] } }), [15001]);
    assert.deepEqual(codes({ ingest: { channels: [{ ignore: true }, { ignore: true }] } }), [15005]);
  });

  test("prediction faults have VoiceBase's codes (50002, 50004, 50007, 50008)", () => {
    assert.deepEqual(codes({ prediction: { classifiers: [{ version: "1" }] } }), [50002]);
    assert.deepEqual(codes({ prediction: { detectors: [{ version: "1" }] } }), [50004]);
    assert.deepEqual(codes({ prediction: { detectors: [{ detectorName: "PCI", redactor: {} }] } }), [50007]);
    assert.deepEqual(
      codes({ prediction: { detectors: [{ detectorName: "PCI", redactor: { audio: { tone: 170 } } }] } }),
      [50008],
    );
  });
});
