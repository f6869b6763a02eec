import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { detect, type DetectorResult } from "../../src/analytics/detectors.ts";
import { redactionRanges, redactTranscript } from "../../src/analytics/redact.ts";
import { predictionTranscript, formatTexts, span, type Utterance } from "./prediction-transcript.ts";

const VISA = "four one one one one one one one one one one one one one one one";
/** A digit of the card as the recogniser spells it. */
const CARD_DIGIT = /\b(four|one)\b/iu;

const card: Utterance = { speaker: "Caller", at: 1000, text: `yes my card number is ${VISA} okay` };
const reply: Utterance = { speaker: "Agent", at: 10500, text: "thank you very much" };
const call = predictionTranscript({ speaker: "Agent", at: 0, text: "card please" }, card, reply);

function redactedBy(parameters: DetectorResult[]) {
  return redactTranscript(call, redactionRanges(parameters), "[redacted]");
}

describe("redactTranscript", () => {
  it("leaves no digit of the card in the words or any alternate format", () => {
    const redacted = redactedBy(detect(call, [{ detectorName: "PCI" }]));
    const spoken = redacted.words.filter((word) => word.m === undefined).map((word) => word.w);
    assert.equal(spoken.filter((word) => CARD_DIGIT.test(word)).length, 0);
    assert.ok(spoken.includes("[redacted]"));
    const texts = formatTexts(redacted);
    assert.deepEqual(Object.keys(texts).sort(), ["dfxp", "srt", "text", "webvtt"]);
    for (const [format, text] of Object.entries(texts)) {
      assert.doesNotMatch(text, CARD_DIGIT, format);
      assert.match(text, /\[redacted\]/u, format);
    }
    assert.doesNotMatch(texts.text, /\d/u);
    // The original still had them: the test would notice a transcript without the card.
    assert.match(formatTexts(call).text, CARD_DIGIT);
  });

  it("keeps every other word, and every entry's position, times and kind", () => {
    const redacted = redactedBy(
      detect(call, [
        { detectorName: "PCI", parameters: [{ parameter: "detectionLevel", value: "numbersOnly" }] },
      ]),
    );
    assert.equal(redacted.words.length, call.words.length);
    redacted.words.forEach((word, index) => {
      const original = call.words[index];
      assert.deepEqual({ ...word, w: "" }, { ...original, w: "" });
      const inCard = word.s >= span(card, 5, 5).s && word.e <= span(card, 20, 20).e && word.m === undefined;
      assert.equal(word.w, inCard ? "[redacted]" : original?.w, `entry ${index}`);
    });
    assert.equal(
      formatTexts(redacted).text,
      "Agent: Card please.\n\n" +
        `Caller: Yes my card number is ${Array(16).fill("[redacted]").join(" ")} okay.\n\n` +
        "Agent: Thank you very much.\n",
    );
    assert.deepEqual(redacted.voiceActivity, call.voiceActivity);
    assert.equal(redacted.confidence, call.confidence);
  });

  it("takes a word only when its middle is inside a range", () => {
    const [first, second] = [span(reply, 0, 0), span(reply, 1, 1)];
    const redacted = redactTranscript(call, [{ s: first.s - 50, e: second.s + 100 }], "***");
    const words = redacted.words.filter((word) => word.s >= first.s).map((word) => word.w);
    assert.deepEqual(words, ["Agent", "***", "you", "very", "much", "."]);
  });

  it("redacts nothing without ranges, and handles an empty transcript", () => {
    assert.deepEqual(redactTranscript(call, [], "[redacted]"), call);
    const empty = redactTranscript(predictionTranscript(), [{ s: 0, e: 1000 }], "[redacted]");
    assert.deepEqual(empty.words, []);
    assert.equal(formatTexts(empty).text, "");
  });
});

describe("redactionRanges", () => {
  it("merges every detector's occurrences, of every speaker, into sorted ranges", () => {
    const result = (speakers: [string, { s: number; e: number }[]][]): DetectorResult => ({
      detectorName: "Number",
      detectorVersion: "1.0",
      detectorDisplayName: "Numbers",
      detectorType: "binary",
      detections: [
        {
          detectorClass: 1,
          detectorClassLabel: "Number",
          detectedSegments: speakers.map(([speakerName, occurrences]) => ({ speakerName, occurrences })),
        },
      ],
    });
    const ranges = redactionRanges([
      result([
        ["Agent", [{ s: 5000, e: 6000 }]],
        [
          "Caller",
          [
            { s: 100, e: 900 },
            { s: 5500, e: 7000 },
          ],
        ],
      ]),
      result([
        [
          "Caller",
          [
            { s: 900, e: 1200 },
            { s: 8000, e: 8000 },
            { s: 9000, e: 9500 },
          ],
        ],
      ]),
    ]);
    assert.deepEqual(ranges, [
      { s: 100, e: 1200 },
      { s: 5000, e: 7000 },
      { s: 9000, e: 9500 },
    ]);
    assert.deepEqual(redactionRanges([]), []);
  });
});
