import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  containsCardNumber,
  detect,
  DetectorRequestError,
  ENTIRE_REGION_BUFFER_MS,
  isPlausibleSsn,
  luhnValid,
  PROBABLE_NUMBERS_BUFFER_MS,
} from "../../src/analytics/detectors.ts";
import type { DetectorRequest } from "../../src/domain/configuration.ts";
import { predictionTranscript, span, type Utterance } from "./prediction-transcript.ts";

const VISA = "four one one one one one one one one one one one one one one one"; // 4111 1111 1111 1111
const NOT_A_CARD = "four one one one one one one one one one one one one one one two"; // fails Luhn

const level = (value: string): DetectorRequest["parameters"] => [{ parameter: "detectionLevel", value }];

describe("luhnValid / containsCardNumber / isPlausibleSsn", () => {
  it("accepts card numbers and rejects one wrong digit", () => {
    assert.equal(luhnValid("4111111111111111"), true);
    assert.equal(luhnValid("378282246310005"), true);
    assert.equal(luhnValid("4111111111111112"), false);
    assert.equal(luhnValid(""), false);
  });

  it("finds a card read on into its expiry date and code, or after an 'oh'", () => {
    assert.equal(containsCardNumber("4111111111111111"), true);
    assert.equal(containsCardNumber("04111111111111111"), true);
    assert.equal(containsCardNumber("41111111111111110825123"), true);
    assert.equal(containsCardNumber("4111111111111112"), false);
    assert.equal(containsCardNumber("411111111111"), false);
  });

  it("accepts social security numbers the SSA could issue", () => {
    assert.equal(isPlausibleSsn("536221479"), true);
    assert.equal(isPlausibleSsn("902101234"), false); // a ZIP+4
    assert.equal(isPlausibleSsn("666221479"), false);
    assert.equal(isPlausibleSsn("536001479"), false);
    assert.equal(isPlausibleSsn("53622147"), false);
  });
});

describe("detect PCI", () => {
  const card: Utterance = { speaker: "Caller", at: 5000, text: `my card number is ${VISA}` };
  const question: Utterance = { speaker: "Agent", at: 13000, text: "and the expiration date" };
  const expiry: Utterance = { speaker: "Caller", at: 15000, text: "oh eight twenty five" };
  const code: Utterance = { speaker: "Caller", at: 18000, text: "the code is one two three" };
  const goodbye: Utterance = {
    speaker: "Agent",
    at: 45000,
    text: "your order number is four five six thanks",
  };
  const call = predictionTranscript(
    { speaker: "Agent", at: 0, text: "how would you like to pay" },
    card,
    question,
    expiry,
    code,
    goodbye,
  );

  it("finds a Luhn-valid card read aloud, with its speaker and times", () => {
    const [result] = detect(call, [{ detectorName: "PCI", parameters: level("numbersOnly") }]);
    assert.equal(result?.detectorName, "PCI");
    assert.equal(result?.detectorType, "binary");
    assert.equal(result?.detections.length, 1);
    const [detection] = result?.detections ?? [];
    assert.equal(detection?.detectorClass, 1);
    assert.equal(detection?.detectorClassLabel, "pci");
    const caller = detection?.detectedSegments.find((segment) => segment.speakerName === "Caller");
    // The card, then the expiry date and the code read after it; the order number much later is not PCI.
    assert.deepEqual(caller?.occurrences, [span(card, 4, 19), span(expiry, 0, 3), span(code, 3, 5)]);
    assert.equal(detection?.detectedSegments.length, 1);
  });

  it("marks the whole region with a buffer by default", () => {
    const [result] = detect(call, [{ detectorName: "PCI" }]);
    assert.deepEqual(result?.detections[0]?.detectedSegments, [
      {
        speakerName: "Caller",
        occurrences: [
          {
            s: span(card, 4, 4).s - ENTIRE_REGION_BUFFER_MS,
            e: span(code, 5, 5).e + ENTIRE_REGION_BUFFER_MS,
          },
        ],
      },
    ]);
  });

  it("buffers each run of digits a little at probableNumbers", () => {
    const [result] = detect(call, [{ detectorName: "PCI", parameters: level("probableNumbers") }]);
    const b = PROBABLE_NUMBERS_BUFFER_MS;
    const widen = ({ s, e }: { s: number; e: number }) => ({ s: s - b, e: e + b });
    assert.deepEqual(result?.detections[0]?.detectedSegments[0]?.occurrences, [
      widen(span(card, 4, 19)),
      widen(span(expiry, 0, 3)),
      widen(span(code, 3, 5)),
    ]);
  });

  it("does not take a Luhn-invalid 16-digit run for a card", () => {
    const transcript = predictionTranscript({
      speaker: "Caller",
      at: 0,
      text: `my card number is ${NOT_A_CARD}`,
    });
    const [result] = detect(transcript, [{ detectorName: "PCI" }]);
    assert.deepEqual(result?.detections, []);
  });

  it("does not join a card number from halves said by two speakers", () => {
    const transcript = predictionTranscript(
      { speaker: "Caller", at: 0, text: "four one one one one one one one" },
      { speaker: "Agent", at: 3200, text: "one one one one one one one one" },
    );
    assert.deepEqual(detect(transcript, [{ detectorName: "PCI" }])[0]?.detections, []);
  });

  it("finds a card read in groups at the very end of the call", () => {
    const groups: Utterance[] = [
      { speaker: "Caller", at: 0, text: "it is four one one one" },
      { speaker: "Caller", at: 2700, text: "one one one one" },
      { speaker: "Caller", at: 5000, text: "one one one one" },
      { speaker: "Caller", at: 7300, text: "one one one one" },
    ];
    const [result] = detect(predictionTranscript(...groups), [
      { detectorName: "PCI", parameters: level("numbersOnly") },
    ]);
    assert.deepEqual(result?.detections[0]?.detectedSegments, [
      {
        speakerName: "Caller",
        occurrences: [{ s: span(groups[0] as Utterance, 2, 2).s, e: span(groups[3] as Utterance, 3, 3).e }],
      },
    ]);
  });

  it("reports the card read back by the agent under the agent", () => {
    const transcript = predictionTranscript(
      { speaker: "Caller", at: 0, text: VISA },
      { speaker: "Agent", at: 10000, text: `that was ${VISA}` },
    );
    const [result] = detect(transcript, [{ detectorName: "PCI", parameters: level("numbersOnly") }]);
    assert.deepEqual(
      result?.detections[0]?.detectedSegments.map((segment) => segment.speakerName),
      ["Caller", "Agent"],
    );
  });
});

describe("detect SSN and Number", () => {
  const ssn: Utterance = {
    speaker: "Caller",
    at: 2000,
    text: "my social is five three six two two one four seven nine okay",
  };
  const phone: Utterance = {
    speaker: "Caller",
    at: 9000,
    text: "my phone is five five five two one two four four three three",
  };

  it("finds a social security number read aloud, and not a ten-digit phone number", () => {
    const [result] = detect(predictionTranscript(ssn, phone), [
      { detectorName: "SSN", parameters: level("numbersOnly") },
    ]);
    assert.deepEqual(result?.detections, [
      {
        detectorClass: 1,
        detectorClassLabel: "ssn",
        detectedSegments: [{ speakerName: "Caller", occurrences: [span(ssn, 3, 11)] }],
      },
    ]);
  });

  it("finds every number, down to the minimum asked for", () => {
    const says: Utterance = { speaker: "Agent", at: 0, text: "oh that is room five on floor twenty one" };
    const transcript = predictionTranscript(says, phone);
    const [all, long] = detect(transcript, [
      { detectorName: "Number" },
      { detectorName: "Number", parameters: [{ parameter: "minimumDigits", value: "3" }] },
    ]);
    assert.equal(all?.detections[0]?.detectorClassLabel, "Number");
    assert.deepEqual(
      all?.detections[0]?.detectedSegments.map((segment) => [segment.speakerName, segment.occurrences]),
      [
        ["Agent", [span(says, 4, 4), span(says, 7, 8)]],
        ["Caller", [span(phone, 3, 12)]],
      ],
    );
    assert.deepEqual(long?.detections[0]?.detectedSegments, [
      { speakerName: "Caller", occurrences: [span(phone, 3, 12)] },
    ]);
  });
});

describe("detect requests", () => {
  it("answers every requested detector, in order, with nothing found in an empty transcript", () => {
    const results = detect(predictionTranscript(), [
      { detectorName: "PCI" },
      { detectorName: "SSN", detectorId: "e79c540f-0d47-484e-859e-30d1ae6e4009" },
      { detectorName: "Number" },
    ]);
    assert.deepEqual(
      results.map((result) => [result.detectorName, result.detectorId, result.detections]),
      [
        ["PCI", undefined, []],
        ["SSN", "e79c540f-0d47-484e-859e-30d1ae6e4009", []],
        ["Number", undefined, []],
      ],
    );
  });

  it("leaves out the speaker name when the transcript has none", () => {
    const transcript = { words: [{ p: 0, c: 0.9, s: 100, e: 400, w: "seven" }] };
    const [result] = detect(transcript, [{ detectorName: "Number" }]);
    assert.deepEqual(result?.detections[0]?.detectedSegments, [{ occurrences: [{ s: 100, e: 400 }] }]);
  });

  it("rejects detectors and levels Hark does not have, naming what to use", () => {
    assert.throws(() => detect(predictionTranscript(), [{ detectorName: "PCI-Spanish" }]), {
      name: "DetectorRequestError",
      message: /"PCI-Spanish".*"PCI", "SSN", "Number"/u,
    });
    assert.throws(() => detect(predictionTranscript(), [{ detectorId: "abc" }]), DetectorRequestError);
    assert.throws(
      () => detect(predictionTranscript(), [{ detectorName: "PCI", parameters: level("everything") }]),
      /entireRegion, probableNumbers, numbersOnly/u,
    );
    assert.throws(
      () =>
        detect(predictionTranscript(), [
          { detectorName: "Number", parameters: [{ parameter: "minimumDigits", value: "0" }] },
        ]),
      DetectorRequestError,
    );
  });
});
