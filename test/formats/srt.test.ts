import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { renderSrt } from "../../src/formats/srt.ts";
import { MONOLOGUE, transcript, VOICEBASE_EXAMPLE } from "./fixtures.ts";

interface SrtCue {
  start: number;
  end: number;
  lines: string[];
}

const TIMING = /^(\d{2}):(\d{2}):(\d{2}),(\d{3}) --> (\d{2}):(\d{2}):(\d{2}),(\d{3})$/;

function ms(hours?: string, minutes?: string, seconds?: string, millis?: string): number {
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis);
}

/** A strict SubRip reader: fails on anything a careful player could misread. */
function parseSrt(srt: string): SrtCue[] {
  if (srt === "") return [];
  assert.ok(!/\r(?!\n)|(?<!\r)\n/.test(srt), "every line ends in CRLF");
  assert.ok(srt.endsWith("\r\n") && !srt.endsWith("\r\n\r\n"), "ends with one line end");
  const blocks = srt.slice(0, -2).split("\r\n\r\n");
  const cues: SrtCue[] = [];
  blocks.forEach((block, index) => {
    const [number, timing, ...lines] = block.split("\r\n");
    assert.equal(number, String(index + 1), `cue ${index + 1} is numbered ${index + 1}`);
    const match = TIMING.exec(timing ?? "");
    assert.ok(match, `cue ${index + 1} timing "${timing}"`);
    const start = ms(match[1], match[2], match[3], match[4]);
    const end = ms(match[5], match[6], match[7], match[8]);
    assert.ok(start < end, `cue ${index + 1} ends after it starts`);
    assert.ok(lines.length >= 1 && lines.length <= 2, `cue ${index + 1} has 1 or 2 text lines`);
    for (const line of lines) {
      assert.notEqual(line.trim(), "", `cue ${index + 1} has no blank text line`);
      assert.ok(!line.includes("-->"), `cue ${index + 1} text has no arrow`);
    }
    const previous = cues.at(-1);
    if (previous !== undefined)
      assert.ok(previous.end <= start, `cue ${index + 1} starts after the previous ends`);
    cues.push({ start, end, lines });
  });
  return cues;
}

describe("renderSrt", () => {
  test("renders VoiceBase's example as two labelled cues with three-digit milliseconds", () => {
    assert.equal(
      renderSrt(VOICEBASE_EXAMPLE),
      "1\r\n00:00:02,200 --> 00:00:02,300\r\nagent: Hello.\r\n\r\n" +
        "2\r\n00:00:02,400 --> 00:00:02,500\r\ncaller: Hi\r\n",
    );
  });

  test("labels only the first cue of a turn, and lines stay within 42 characters", () => {
    const words = transcript(
      { speaker: "Agent", at: 1000, text: MONOLOGUE },
      { speaker: "Customer", at: 60_000, text: "I see." },
    );
    const cues = parseSrt(renderSrt(words));
    assert.ok(cues.length >= 6);
    const labelled = cues.filter((cue) => /^(Agent|Customer): /.test(cue.lines[0] ?? ""));
    assert.deepEqual(
      labelled.map((cue) => cue.lines[0]?.split(":")[0]),
      ["Agent", "Customer"],
    );
    assert.equal(cues[0], labelled[0]);
    for (const cue of cues) for (const line of cue.lines) assert.ok(line.length <= 42, line);
    const spoken = cues
      .flatMap((cue) => cue.lines)
      .join(" ")
      .replace(/^Agent: /, "")
      .replace(/ Customer: I see\.$/, "");
    assert.equal(spoken, MONOLOGUE);
  });

  test("splits at a long pause", () => {
    const cues = parseSrt(renderSrt(transcript({ at: 0, text: "one two" }, { at: 5000, text: "three" })));
    assert.deepEqual(
      cues.map((cue) => cue.lines),
      [["one two"], ["three"]],
    );
  });

  test("keeps text as spoken, without markup escaping, but never writes an arrow", () => {
    const cues = parseSrt(renderSrt(transcript({ at: 0, text: "AT&T <b> is ---> here" })));
    assert.deepEqual(cues[0]?.lines, ["AT&T <b> is -> here"]);
  });

  test("never overlaps cues, even for overlapping speech", () => {
    const words = transcript(
      { speaker: "Agent", at: 0, text: "so what I was going to say", wordMs: 600 },
      { speaker: "Customer", at: 1000, text: "sorry go on" },
    );
    assert.equal(parseSrt(renderSrt(words)).length, 2);
  });

  test("gives an empty file for an empty transcript", () => {
    assert.equal(renderSrt([]), "");
  });
});

describe("the test's SubRip reader", () => {
  test("rejects what a player could misread", () => {
    const good = "1\r\n00:00:01,000 --> 00:00:02,000\r\nhi\r\n";
    assert.equal(parseSrt(good).length, 1);
    for (const bad of [
      good.replaceAll("\r\n", "\n"),
      good.replace("01,000", "01,00"),
      good.replace("1\r\n", "2\r\n"),
      good.replace("02,000", "01,000"),
      `${good}\r\n2\r\n00:00:01,500 --> 00:00:03,000\r\noverlap\r\n`,
    ]) {
      assert.throws(() => parseSrt(bad), bad);
    }
  });
});
