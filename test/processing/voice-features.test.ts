/**
 * Voice features end to end: a stereo call of two flite voices (a man's, rms, as the agent; a woman's,
 * slt, as the caller), uploaded asking for `voiceFeatures` and the `talk-style-tone-and-volume` metrics.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Word } from "../../src/domain/transcript.ts";
import { buildStereo, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";

describe("voice features of a call", () => {
  let hark: TestHark;
  let dir: { dir: string; cleanup: () => Promise<void> };
  // The document as a client's JSON.parse leaves it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let doc: Record<string, any>;

  before(async () => {
    dir = await tempDir();
    const call = path.join(dir.dir, "call.wav");
    await buildStereo(
      [
        { text: "thank you for calling acme how can I help you today", voice: "rms" },
        { silenceMs: 5500 },
        { text: "of course I can cancel that for you right away", voice: "rms" },
      ],
      [
        { silenceMs: 3500 },
        { text: "I would like to cancel my subscription please", voice: "slt" },
        { silenceMs: 4000 },
        { text: "thank you very much for your help", voice: "slt" },
      ],
      call,
    );
    hark = await startTestHark({}, { workers: true });
    const token = await hark.createAccount();
    const response = await hark.upload(token, {
      media: call,
      configuration: {
        speechModel: { features: ["voiceFeatures"] },
        ingest: {
          stereo: {
            left: { speakerName: "Agent", speakerRole: "agent" },
            right: { speakerName: "Caller", speakerRole: "caller" },
          },
        },
        metrics: [{ metricGroupName: "talk-style-tone-and-volume" }],
      },
    });
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    assert.equal(await hark.ended(mediaId), "finished");
    doc = (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json();
  });

  after(async () => {
    await hark?.close();
    await dir?.cleanup();
  });

  /** The spoken words of each speaker. */
  const wordsBySpeaker = (): Map<string, Word[]> => {
    const bySpeaker = new Map<string, Word[]>();
    let speaker = "";
    for (const word of doc.transcript.words as Word[]) {
      if (word.m === "turn") speaker = word.w;
      else if (word.m === undefined) bySpeaker.set(speaker, [...(bySpeaker.get(speaker) ?? []), word]);
    }
    return bySpeaker;
  };

  test("every spoken word has frq (its dominant peak first, at energy 1) and a volume v", () => {
    const spoken = [...wordsBySpeaker().values()].flat();
    assert.ok(spoken.length >= 20, `${spoken.length} words heard`);
    for (const word of spoken) {
      const described = JSON.stringify(word);
      assert.ok(word.frq !== undefined && word.frq.length >= 1 && word.frq.length <= 2, described);
      assert.equal(word.frq[0]?.e, 1, described);
      for (const { f, e } of word.frq) assert.ok(f >= 60 && f <= 8000 && e >= 0 && e <= 1, described);
      assert.ok(typeof word.v === "number" && word.v > 0, described);
    }
    assert.ok(!(doc.warnings ?? []).some((w: { message: string }) => /voiceFeatures/.test(w.message)));
  });

  test("the woman's voice is higher than the man's", () => {
    const words = wordsBySpeaker();
    // The fundamental is the lower of a word's two peaks (in a man's voice the second harmonic is often
    // the stronger one).
    const meanLowerPeak = (speaker: string) => {
      const lows = (words.get(speaker) ?? []).map((word) => Math.min(...(word.frq ?? []).map((p) => p.f)));
      return lows.reduce((sum, f) => sum + f, 0) / lows.length;
    };
    const agent = meanLowerPeak("Agent");
    const caller = meanLowerPeak("Caller");
    assert.ok(caller > 1.2 * agent, `caller ${caller} Hz, agent ${agent} Hz`);
  });

  test("the talk-style-tone-and-volume metrics are there with plausible values", () => {
    const [group] = doc.metrics;
    assert.equal(group.metricGroupName, "talk-style-tone-and-volume");
    const metrics = new Map<string, number>(
      group.metricValues.map((value: { metricName: string; metricValue: number }) => [
        value.metricName,
        value.metricValue,
      ]),
    );
    assert.equal(metrics.size, 8, JSON.stringify(group));
    const described = JSON.stringify(group.metricValues);
    for (const role of ["agent", "caller"]) {
      // A synthetic voice keeps its pitch and level: the changes within the call stay near 1.
      const pitch = metrics.get(`${role}-intra-call-change-in-pitch`) ?? 0;
      const volume = metrics.get(`${role}-intra-call-change-in-relative-voice-volume-energy`) ?? 0;
      assert.ok(pitch > 0.7 && pitch < 1.4, described);
      assert.ok(volume > 0.3 && volume < 3, described);
      assert.ok((metrics.get(`${role}-relative-voice-volume-energy`) ?? 0) > 0, described);
      assert.ok((metrics.get(`${role}-voice-dynamism-std-dev-score`) ?? 0) > 0, described);
    }
  });
});
