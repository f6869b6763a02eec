import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  clampConfidence,
  cleanWord,
  decoderSettings,
  parsePocketsphinxOutput,
} from "../../src/pipeline/pocketsphinx.ts";

// Literal output of `pocketsphinx_continuous -time yes -logfn /dev/null` (Debian 12) on two flite
// sentences separated by two seconds of silence: each utterance is a text line, then timed tokens.
const TWO_UTTERANCES = `hello there now are you doing today
<s> 0.070 0.150 0.998801
hello(2) 0.160 0.520 0.998601
there 0.530 0.840 0.979510
<sil> 0.850 1.000 0.870475
now 1.010 1.150 0.689118
are 1.160 1.330 0.883544
you 1.340 1.560 0.993719
doing 1.570 1.860 0.999600
today 1.870 2.350 0.673380
</s> 4.540 4.780 1.000000
i would like to cancel
<s> 6.710 6.810 0.999500
i 6.820 6.940 0.998801
would 6.950 7.220 0.999500
like 7.230 7.570 1.000100
to(3) 7.580 7.710 0.769796
cancel 7.720 8.360 0.999600
[NOISE] 8.370 8.560 0.402000
</s> 8.570 8.600 1.000000
`;

describe("parsePocketsphinxOutput", () => {
  it("keeps spoken words with times in ms and drops markers and the text lines", () => {
    const words = parsePocketsphinxOutput(TWO_UTTERANCES);
    assert.deepEqual(
      words.map((w) => w.word),
      ["hello", "there", "now", "are", "you", "doing", "today", "i", "would", "like", "to", "cancel"],
    );
    assert.deepEqual(words[0], { word: "hello", start: 160, end: 520, confidence: 0.998601 });
    assert.deepEqual(words.at(-1), { word: "cancel", start: 7720, end: 8360, confidence: 0.9996 });
  });

  it("clamps confidences printed above 1", () => {
    const like = parsePocketsphinxOutput(TWO_UTTERANCES).find((w) => w.word === "like");
    assert.equal(like?.confidence, 1);
  });

  it("shifts times by the offset of the piece in the media", () => {
    const words = parsePocketsphinxOutput("slow 4.200 4.660 0.779168\n", 60_000);
    assert.deepEqual(words, [{ word: "slow", start: 64_200, end: 64_660, confidence: 0.779168 }]);
  });

  it("rounds seconds to whole milliseconds without float noise", () => {
    const [word] = parsePocketsphinxOutput("subscription 1.930 2.730 0.999900", 0);
    assert.equal(word?.start, 1930);
    assert.equal(word?.end, 2730);
  });

  it("returns nothing for silence-only or empty output", () => {
    assert.deepEqual(parsePocketsphinxOutput(""), []);
    assert.deepEqual(
      parsePocketsphinxOutput("\n<s> 0.000 0.100 1.000000\n<sil> 0.1 2.9 0.9\n</s> 2.9 3.0 1.0\n"),
      [],
    );
  });

  it("ignores lines that are not timed tokens, including CRLF endings", () => {
    const out = "INFO: something 1 2 3 4\r\nhello there\r\nthere 0.530 0.840 0.979510\r\n";
    assert.deepEqual(parsePocketsphinxOutput(out), [
      { word: "there", start: 530, end: 840, confidence: 0.97951 },
    ]);
  });
});

describe("cleanWord", () => {
  it("drops sentence, silence and filler markers", () => {
    for (const token of [
      "<s>",
      "</s>",
      "<sil>",
      "[NOISE]",
      "[BREATH]",
      "[SMACK]",
      "[UH]",
      "++UM++",
      "++NOISE++",
    ]) {
      assert.equal(cleanWord(token), undefined, token);
    }
  });

  it("strips alternate-pronunciation tags", () => {
    assert.equal(cleanWord("forgot(2)"), "forgot");
    assert.equal(cleanWord("to(3)"), "to");
    assert.equal(cleanWord("read(12)"), "read");
  });

  it("keeps ordinary words, apostrophes and dotted abbreviations", () => {
    assert.equal(cleanWord("don't"), "don't");
    assert.equal(cleanWord("a.b.c."), "a.b.c.");
    assert.equal(cleanWord("i"), "i");
  });
});

describe("clampConfidence", () => {
  it("keeps 0..1 and clamps the rest", () => {
    assert.equal(clampConfidence(0.5), 0.5);
    assert.equal(clampConfidence(1.0002), 1);
    assert.equal(clampConfidence(-0.1), 0);
    assert.equal(clampConfidence(Number.NaN), 0);
  });
});

describe("decoderSettings", () => {
  it("does not subtract noise on a clean telephone line", () => {
    assert.deepEqual(decoderSettings(true), ["-remove_noise", "no"], "a clean telephone line");
    assert.deepEqual(decoderSettings(false), [], "anything else: the engine's defaults");
    assert.deepEqual(decoderSettings(undefined), [], "unknown: the engine's defaults");
  });
});
