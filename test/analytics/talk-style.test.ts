import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { analyse } from "../../src/analytics/analyse.ts";
import { pitchOf, talkStyleMetrics } from "../../src/analytics/talk-style.ts";
import { NO_ANALYSES } from "../../src/domain/configuration.ts";
import type { RecognizedWord, Transcript } from "../../src/domain/transcript.ts";
import { assembleTranscript } from "../../src/pipeline/assemble.ts";

const ROLES = { agent: "Agent", caller: "Caller" };

/** A word every 400 ms from `start`, each with a pitch (a fundamental and its second harmonic) and a volume. */
function voiced(start: number, measures: [pitch: number, volume: number][]): RecognizedWord[] {
  return measures.map(([pitch, v], index) => ({
    word: `word${index}`,
    start: start + index * 400,
    end: start + index * 400 + 300,
    confidence: 0.9,
    voice: {
      frq: [
        { f: 2 * pitch, e: 1 },
        { f: pitch, e: 0.6 },
      ],
      v,
    },
  }));
}

function call(agent: RecognizedWord[], caller: RecognizedWord[]): Transcript {
  const speakers = [
    { speakerName: "Agent", channel: 0, words: agent },
    { speakerName: "Caller", channel: 1, words: caller },
  ];
  return { ...assembleTranscript(speakers), alternateFormats: [] };
}

function values(transcript: Transcript, roles = ROLES): Map<string, number> {
  const group = talkStyleMetrics(transcript, roles);
  assert.equal(group.metricGroupName, "talk-style-tone-and-volume");
  return new Map(group.metricValues.map(({ metricName, metricValue }) => [metricName, metricValue]));
}

const STEADY: [number, number][] = Array.from({ length: 6 }, () => [120, 4.33]);

describe("talk-style-tone-and-volume", () => {
  test("with both roles, the guide's eight metrics in the guide's order", () => {
    const group = talkStyleMetrics(call(voiced(0, STEADY), voiced(10_000, STEADY)), ROLES);
    assert.deepEqual(
      group.metricValues.map((value) => value.metricName),
      [
        "agent-intra-call-change-in-pitch",
        "agent-intra-call-change-in-relative-voice-volume-energy",
        "agent-relative-voice-volume-energy",
        "agent-voice-dynamism-std-dev-score",
        "caller-intra-call-change-in-pitch",
        "caller-intra-call-change-in-relative-voice-volume-energy",
        "caller-relative-voice-volume-energy",
        "caller-voice-dynamism-std-dev-score",
      ],
    );
  });

  test("a voice that rises in pitch and falls in volume: last third over first third", () => {
    const agent = voiced(0, [
      [100, 6],
      [100, 6],
      [120, 4],
      [120, 4],
      [150, 3],
      [150, 3],
    ]);
    const metrics = values(call(agent, voiced(10_000, STEADY)));
    assert.equal(metrics.get("agent-intra-call-change-in-pitch"), 1.5);
    assert.equal(metrics.get("agent-intra-call-change-in-relative-voice-volume-energy"), 0.5);
    assert.equal(metrics.get("caller-intra-call-change-in-pitch"), 1);
  });

  test("relative volume is the mean volume over the guide's good agent (4.33) and good caller (7.57)", () => {
    const caller = voiced(10_000, [
      [200, 7.57 * 2],
      [200, 7.57 * 2],
    ]);
    const metrics = values(call(voiced(0, STEADY), caller));
    assert.equal(metrics.get("agent-relative-voice-volume-energy"), 1);
    assert.equal(metrics.get("caller-relative-voice-volume-energy"), 2);
  });

  test("voice dynamism is the standard deviation of the word volumes", () => {
    const agent = voiced(0, [
      [120, 2],
      [120, 4],
      [120, 2],
      [120, 4],
    ]);
    const metrics = values(call(agent, voiced(10_000, STEADY)));
    assert.equal(metrics.get("agent-voice-dynamism-std-dev-score"), 1);
    assert.equal(metrics.get("caller-voice-dynamism-std-dev-score"), 0);
  });

  test("without roles there are no metrics; a speaker without measured words gets zeros", () => {
    assert.deepEqual(talkStyleMetrics(call(voiced(0, STEADY), []), {}).metricValues, []);
    const unmeasured = voiced(0, STEADY).map(({ voice: _voice, ...word }) => word);
    for (const [name, value] of values(call(unmeasured, []))) assert.equal(value, 0, name);
  });

  test("a word's pitch is the lower of two harmonic peaks, else the dominant peak", () => {
    assert.equal(
      pitchOf({
        frq: [
          { f: 200, e: 1 },
          { f: 101, e: 0.7 },
        ],
      }),
      101,
    );
    assert.equal(
      pitchOf({
        frq: [
          { f: 180, e: 1 },
          { f: 545, e: 0.3 },
        ],
      }),
      180,
    );
    assert.equal(
      pitchOf({
        frq: [
          { f: 300, e: 1 },
          { f: 1700, e: 0.3 },
        ],
      }),
      300,
    );
    assert.equal(pitchOf({ frq: [{ f: 300, e: 1 }] }), 300);
    assert.equal(pitchOf({}), undefined);
  });
});

describe("voice features in the analysed transcript", () => {
  const transcript = call(voiced(0, STEADY), voiced(10_000, STEADY));
  const definitions = { spottingGroups: [], categories: [], classifiers: [] };
  const spoken = (sections: Record<string, unknown>) =>
    (sections.transcript as Transcript).words.filter((word) => word.m === undefined);

  test("with voiceFeatures asked for, every word shows frq and its volume as v", () => {
    const plan = { ...NO_ANALYSES, voiceFeatures: true };
    for (const word of spoken(analyse(transcript, plan, definitions, { roles: ROLES }).sections)) {
      assert.equal(word.frq?.length, 2);
      assert.equal(word.v, 4.33);
    }
  });

  test("measured only for the metrics, the words do not show them, and the group is there", () => {
    const plan = { ...NO_ANALYSES, metricGroups: ["talk-style-tone-and-volume" as const] };
    const { sections } = analyse(transcript, plan, definitions, { roles: ROLES });
    for (const word of spoken(sections)) assert.deepEqual([word.frq, word.v], [undefined, undefined]);
    assert.deepEqual(
      (sections.metrics as { metricGroupName: string }[]).map((group) => group.metricGroupName),
      ["talk-style-tone-and-volume"],
    );
  });
});
