/**
 * Golden tests: a fixed two-speaker call and a fixed mono recording (test/fixtures/golden/, the words of
 * VoiceBase's closed-captioning and transcript guides), assembled and rendered, compared with the files
 * that hold VoiceBase's shapes: the JSON transcript field by field, each rendering byte for byte.
 *
 * The expected files were written once from Hark's output and read against the guides (turn entries
 * spanning their turn with its words after them, punctuation `c: 0`, `Speaker: ` at each turn of a
 * two-speaker call and no label in mono, SubRip CRLF, TTAF1 DFXP). A change of shape fails here; if it is
 * meant, the files change with it, in the same commit, where a reviewer sees the difference.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import type { SpeakerWords, Word } from "../../src/domain/transcript.ts";
import { alternateFormats, type RenderedFormat, renderFormat } from "../../src/formats/index.ts";
import { assembleTranscript } from "../../src/pipeline/assemble.ts";

const GOLDEN = path.join(import.meta.dirname, "..", "fixtures", "golden");
const EXTENSIONS: Readonly<Record<RenderedFormat, string>> = {
  text: "txt",
  srt: "srt",
  webvtt: "vtt",
  dfxp: "dfxp",
};

const read = (file: string): string => readFileSync(path.join(GOLDEN, file), "utf8");

/** Field by field, so that a failure names the entry and the field that moved. */
function assertSameWords(actual: readonly Word[], expected: readonly Word[]): void {
  assert.equal(actual.length, expected.length, "number of words[] entries");
  expected.forEach((want, index) => {
    const got = actual[index];
    for (const field of new Set([...Object.keys(want), ...Object.keys(got ?? {})]) as Set<keyof Word>) {
      assert.deepEqual(got?.[field], want[field], `words[${index}].${field} (${want.w})`);
    }
  });
}

for (const name of ["two-speakers", "mono"]) {
  describe(`golden ${name}`, () => {
    const speakers = JSON.parse(read(`${name}.input.json`)) as SpeakerWords[];
    const expected = JSON.parse(read(`${name}.transcript.json`)) as ReturnType<typeof assembleTranscript>;
    const transcript = assembleTranscript(speakers);

    test("words[], confidence and voiceActivity are VoiceBase's shape, field by field", () => {
      assertSameWords(transcript.words, expected.words);
      assert.equal(transcript.confidence, expected.confidence);
      assert.deepEqual(transcript.voiceActivity, expected.voiceActivity);
    });

    for (const format of Object.keys(EXTENSIONS) as RenderedFormat[]) {
      test(`the ${format} rendering is the golden file, byte for byte`, () => {
        const file = `${name}.${EXTENSIONS[format]}`;
        assert.equal(renderFormat(format, transcript.words), read(file), file);
      });
    }

    test("alternateFormats carry the same bytes, Base64, utf-8", () => {
      for (const entry of alternateFormats(transcript.words)) {
        assert.equal(entry.contentEncoding, "Base64");
        assert.equal(entry.charset, "utf-8");
        assert.equal(
          Buffer.from(entry.data, "base64").toString("utf8"),
          read(`${name}.${EXTENSIONS[entry.format]}`),
        );
      }
    });
  });
}

describe("golden files", () => {
  test("hold the shapes the guides show", () => {
    const two = JSON.parse(read("two-speakers.transcript.json")) as { words: Word[] };
    // Each turn entry spans its turn and is followed by that turn's words, numbered in order.
    two.words.forEach((word, index) => assert.equal(word.p, index));
    let turn: Word | undefined;
    for (const word of two.words) {
      if (word.m === "turn") turn = word;
      else if (word.m === undefined) assert.ok(turn && turn.s <= word.s && word.e <= turn.e, word.w);
      if (word.m === "punc") assert.equal(word.c, 0);
      assert.equal(word.v, undefined);
    }
    assert.deepEqual(
      two.words.filter((word) => word.m === "turn").map((word) => word.w),
      ["Agent", "Customer", "Agent", "Agent"],
      "the agent's talk-over gets its own turn, after the customer's, whose turn stays whole",
    );
    assert.match(read("two-speakers.srt"), /^1\r\n00:00:02,760 --> [^\r]+\r\nAgent: Well this is michael/);
    assert.match(read("two-speakers.vtt"), /\nCustomer: Hi I'm calling/);
    assert.match(read("two-speakers.txt"), /^Agent: .*\n\nCustomer: /);
    assert.match(read("two-speakers.dfxp"), /xmlns="http:\/\/www\.w3\.org\/2006\/04\/ttaf1"/);
    // Mono, as the transcript guide shows it: the words, with no speaker label.
    assert.match(
      read("mono.srt"),
      /^1\r\n00:00:00,050 --> 00:00:05,440\r\nTo find the source of success we started\r\nat work/,
    );
    for (const file of ["mono.txt", "mono.srt", "mono.vtt", "mono.dfxp"]) {
      assert.doesNotMatch(read(file), /Speaker: /, file);
    }
  });
});
