import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { renderText } from "../../src/formats/text.ts";
import { MONOLOGUE, transcript, VOICEBASE_EXAMPLE } from "./fixtures.ts";

describe("renderText", () => {
  test("labels each speaker turn as its own paragraph", () => {
    assert.equal(renderText(VOICEBASE_EXAMPLE), "agent: Hello.\n\ncaller: Hi\n");
  });

  test("shows each speaker's words after their label, across several turns", () => {
    const words = transcript(
      { speaker: "Agent", at: 0, text: "Thank you for calling, how may I help?" },
      { speaker: "Customer", at: 4000, text: "My AT&T <b> bill is wrong." },
      { speaker: "Agent", at: 8000, text: "Let me check." },
    );
    const paragraphs = renderText(words).trimEnd().split("\n\n");
    assert.deepEqual(paragraphs, [
      "Agent: Thank you for calling, how may I help?",
      "Customer: My AT&T <b> bill is wrong.",
      "Agent: Let me check.",
    ]);
  });

  test("has no labels when the transcript has no turns, and keeps a monologue on one line", () => {
    assert.equal(renderText(transcript({ at: 0, text: MONOLOGUE })), `${MONOLOGUE}\n`);
  });

  test("attaches punctuation to the word before it", () => {
    const rendered = renderText(transcript({ at: 0, text: "Hello, world. Is it you?" }));
    assert.equal(rendered, "Hello, world. Is it you?\n");
  });

  test("ends with exactly one newline", () => {
    const rendered = renderText(VOICEBASE_EXAMPLE);
    assert.ok(rendered.endsWith("\n") && !rendered.endsWith("\n\n"));
  });

  test("leaves out turns in which nobody spoke", () => {
    const words = transcript(
      { speaker: "Agent", at: 0, text: "hello" },
      { speaker: "Customer", at: 1000, text: "hi" },
    );
    const silent = { p: 99, c: 1, s: 500, e: 500, w: "Nobody", m: "turn" as const };
    assert.equal(
      renderText([...words.slice(0, 2), silent, ...words.slice(2)]),
      "Agent: hello\n\nCustomer: hi\n",
    );
  });

  test("keeps words before the first turn, unlabelled", () => {
    const words = transcript(
      { at: 0, text: "hmm" },
      { speaker: "Agent", at: 1000, text: "hello" },
      { speaker: "Caller", at: 2000, text: "hi" },
    );
    assert.equal(renderText(words), "hmm\n\nAgent: hello\n\nCaller: hi\n");
  });

  test("labels no one in a transcript of one speaker, as VoiceBase's mono text", () => {
    const words = transcript(
      { speaker: "Speaker", at: 0, text: "hello there." },
      { speaker: "Speaker", at: 5000, text: "bye" },
    );
    assert.equal(renderText(words), "hello there.\n\nbye\n");
  });

  test("gives an empty string for an empty transcript", () => {
    assert.equal(renderText([]), "");
  });
});
