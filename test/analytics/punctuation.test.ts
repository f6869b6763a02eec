import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { punctuate } from "../../src/analytics/punctuation.ts";
import type { Word } from "../../src/domain/transcript.ts";

/**
 * A turn as the recogniser gives it: each word 300 ms, 10 ms apart (pocketsphinx's frame), and a number
 * between words the pause there in ms: "yes 200 it is".
 */
function turn(script: string, speakerName = "Agent", startMs = 0): Word[] {
  const words: Word[] = [{ p: 0, c: 1, s: startMs, e: startMs, w: speakerName, m: "turn" }];
  let at = startMs;
  let gap = 0;
  for (const token of script.split(" ")) {
    if (/^\d+$/.test(token)) {
      gap = Number(token);
      continue;
    }
    at += gap;
    words.push({ p: words.length, c: 0.9, s: at, e: at + 300, w: token, v: 0 });
    at += 300;
    gap = 10;
  }
  return words;
}

/** The punctuated transcript as text, turns on their own lines. */
function text(words: readonly Word[]): string {
  return words
    .map((word) => (word.m === "turn" ? `\n${word.w}:` : word.m === "punc" ? word.w : ` ${word.w}`))
    .join("")
    .trim();
}

const punctuated = (script: string) => text(punctuate(turn(script))).replace(/^Agent: /, "");

describe("punctuate", () => {
  test("a sentence opened by a wh-word and an auxiliary or verb is a question; others end with a stop", () => {
    assert.equal(punctuated("how long will the reset take"), "How long will the reset take?");
    assert.equal(punctuated("who called you"), "Who called you?");
    assert.equal(punctuated("what time does the store open"), "What time does the store open?");
    assert.equal(punctuated("when i called nobody answered"), "When I called nobody answered.");
    assert.equal(punctuated("i am calling about my bill"), "I am calling about my bill.");
  });

  test("an auxiliary followed by its subject opens a question; an imperative does not", () => {
    assert.equal(punctuated("can you give me your phone number"), "Can you give me your phone number?");
    assert.equal(punctuated("is there anything else"), "Is there anything else?");
    assert.equal(punctuated("okay do you have the order number"), "Okay, do you have the order number?");
    assert.equal(punctuated("have a nice day"), "Have a nice day.");
    // A question's subject is followed by a verb, not by another auxiliary.
    assert.doesNotMatch(punctuated("please do i will call you"), /\?/);
  });

  test("a question opener inside a run starts a new sentence unless the words before lead into it", () => {
    assert.equal(
      punctuated("thank you for calling how can i help you today"),
      "Thank you for calling. How can I help you today?",
    );
    assert.equal(
      punctuated("you are welcome is there anything else i can do"),
      "You are welcome. Is there anything else I can do?",
    );
    assert.equal(punctuated("i wonder what happened"), "I wonder what happened.");
    assert.equal(punctuated("i can see there was an outage"), "I can see there was an outage.");
    assert.equal(punctuated("what time is it"), "What time is it?");
  });

  test("pauses: a long one ends a sentence, a shorter one before a sentence opener too, a medium one is a comma", () => {
    assert.equal(
      punctuated("the line is fine 700 the bill is wrong"),
      "The line is fine. The bill is wrong.",
    );
    assert.equal(punctuated("my name is john 300 i work here"), "My name is john. I work here.");
    assert.equal(
      punctuated("it costs forty dollars 200 and it includes four phones"),
      "It costs forty dollars, and it includes four phones.",
    );
    // A determiner or preposition needs the next word, however long the pause after it.
    assert.equal(punctuated("send it to 300 the office"), "Send it to the office.");
    assert.equal(punctuated("yes it is on the receipt"), "Yes, it is on the receipt.");
  });

  test("marks are punc entries with c 0 at the end of the word before; turns stay and p is numbered again", () => {
    const words = [...turn("hi can you hear me"), ...turn("yes", "Caller", 5000)];
    const result = punctuate(words);
    assert.deepEqual(
      result.map((word) => word.p),
      result.map((_, index) => index),
    );
    assert.equal(text(result), "Agent: Hi, can you hear me?\nCaller: Yes.");
    const question = result.find((word) => word.w === "?");
    const me = result.find((word) => word.w === "me");
    assert.deepEqual(question, { p: question?.p, c: 0, s: me?.e, e: me?.e, w: "?", m: "punc" });
    assert.deepEqual(
      result.filter((word) => word.m === "turn").map((word) => word.w),
      ["Agent", "Caller"],
    );
    assert.equal(result.find((word) => word.w === "Hi")?.c, 0.9, "a word keeps its fields");
  });

  test("the full stops already in the transcript are placed again, and the casing follows", () => {
    const words = turn("hello how are you");
    words.splice(2, 0, { p: 0, c: 1, s: 300, e: 300, w: ".", m: "punc" });
    words[3] = { ...words[3]!, w: "How" };
    assert.equal(text(punctuate(words)), "Agent: Hello, how are you?");
    assert.deepEqual(punctuate([]), []);
  });
});
