import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sentencesOf } from "../../src/analytics/sentences.ts";
import { conversation } from "./transcript.ts";

describe("sentencesOf", () => {
  test("the transcript's full stops and turn changes end sentences", () => {
    const transcript = conversation([
      ["Agent", "hello. how are you"],
      ["Caller", "fine thanks"],
    ]);
    assert.deepEqual(
      sentencesOf(transcript).map(({ speakerName, turn, words }) => [
        speakerName,
        turn,
        words.map((word) => word.w).join(" "),
      ]),
      [
        ["Agent", 0, "Hello"],
        ["Agent", 0, "How are you"],
        ["Caller", 1, "Fine thanks"],
      ],
    );
  });

  test("question marks end sentences; commas do not", () => {
    const transcript = conversation([["Agent", "hello how are you"]]);
    const punc = (after: number, w: string) => ({ p: 0, c: 0, s: after, e: after, w, m: "punc" as const });
    const [turn, hello, how, are, you] = transcript.words;
    const words = [turn!, hello!, punc(hello!.e, ","), how!, are!, you!, punc(you!.e, "?")];
    assert.deepEqual(
      sentencesOf({ words }).map((sentence) => sentence.words.map((word) => word.w).join(" ")),
      ["Hello how are you"],
    );
  });
});
