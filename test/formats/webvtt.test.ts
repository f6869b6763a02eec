import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { renderWebVtt } from "../../src/formats/webvtt.ts";
import { MONOLOGUE, transcript, VOICEBASE_EXAMPLE } from "./fixtures.ts";

interface VttCue {
  id: string;
  start: number;
  end: number;
  lines: string[];
}

const TIMING = /^(\d{2}):(\d{2}):(\d{2})\.(\d{3}) --> (\d{2}):(\d{2}):(\d{2})\.(\d{3})$/;

function ms(hours?: string, minutes?: string, seconds?: string, millis?: string): number {
  return ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis);
}

/** Reads the WebVTT subset the renderer writes, failing on anything the W3C parser would treat otherwise. */
function parseVtt(vtt: string): VttCue[] {
  assert.ok(vtt.startsWith("WEBVTT\n"), "starts with the WEBVTT header line");
  assert.ok(!vtt.includes("\r"), "LF line ends only");
  assert.ok(vtt.endsWith("\n") && !vtt.endsWith("\n\n"), "ends with one line end");
  const [header, ...blocks] = vtt.slice(0, -1).split("\n\n");
  assert.equal(header, "WEBVTT");
  const cues: VttCue[] = [];
  for (const block of blocks) {
    const [id = "", timing, ...lines] = block.split("\n");
    assert.match(id, /^\d+$/, "numeric cue identifier");
    const match = TIMING.exec(timing ?? "");
    assert.ok(match, `cue ${id} timing "${timing}"`);
    const start = ms(match[1], match[2], match[3], match[4]);
    const end = ms(match[5], match[6], match[7], match[8]);
    assert.ok(start < end, `cue ${id} ends after it starts`);
    const previous = cues.at(-1);
    if (previous !== undefined) assert.ok(previous.end <= start, `cue ${id} starts after the previous ends`);
    assert.ok(lines.length >= 1, `cue ${id} has text`);
    for (const line of lines) {
      assert.ok(!line.includes("-->"), `cue ${id} text has no arrow`);
      assert.ok(!/&(?!(amp|lt|gt);)/.test(line), `cue ${id} escapes &`);
      assert.ok(!line.replace(/^<v [^<>]+>/, "").includes("<"), `cue ${id} has no tag but its voice`);
    }
    cues.push({ id, start, end, lines });
  }
  return cues;
}

describe("renderWebVtt", () => {
  test("renders VoiceBase's example with the speaker's label at each turn", () => {
    assert.equal(
      renderWebVtt(VOICEBASE_EXAMPLE),
      "WEBVTT\n\n1\n00:00:02.200 --> 00:00:02.300\nagent: Hello.\n\n2\n00:00:02.400 --> 00:00:02.500\ncaller: Hi\n",
    );
  });

  test("labels the first cue of each turn with its speaker, as VoiceBase's WebVTT", () => {
    const words = transcript(
      { speaker: "Agent Smith", at: 1000, text: MONOLOGUE },
      { speaker: "Customer", at: 60_000, text: "I see." },
    );
    const cues = parseVtt(renderWebVtt(words));
    assert.ok(cues.length >= 6);
    assert.deepEqual(
      cues.map((cue) => cue.id),
      cues.map((_, index) => String(index + 1)),
    );
    const labels = cues.map((cue) => /^(Agent Smith|Customer): /.exec(cue.lines[0] ?? "")?.[1]);
    assert.deepEqual(labels, ["Agent Smith", ...Array(cues.length - 2).fill(undefined), "Customer"]);
    assert.equal(cues.at(-1)?.lines[0], "Customer: I see.");
  });

  test("escapes text and speaker names", () => {
    const words = transcript(
      { speaker: "R&D <team>", at: 0, text: "AT&T <b> is --> here" },
      { speaker: "Caller", at: 5000, text: "ok" },
    );
    const cues = parseVtt(renderWebVtt(words));
    assert.deepEqual(cues[0]?.lines, ["R&amp;D &lt;team&gt;: AT&amp;T &lt;b&gt; is --&gt; here"]);
  });

  test("has no label when the transcript has no turns or one speaker (mono)", () => {
    const vtt = renderWebVtt(transcript({ at: 0, text: "just words." }));
    assert.deepEqual(parseVtt(vtt)[0]?.lines, ["just words."]);
    const mono = renderWebVtt(transcript({ speaker: "Speaker", at: 0, text: "just words." }));
    assert.deepEqual(parseVtt(mono)[0]?.lines, ["just words."]);
  });

  test("gives just the header for an empty transcript", () => {
    assert.equal(renderWebVtt([]), "WEBVTT\n");
    assert.deepEqual(parseVtt(renderWebVtt([])), []);
  });
});

describe("the test's WebVTT reader", () => {
  test("rejects what a player could misread", () => {
    const good = "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nhi\n";
    assert.equal(parseVtt(good).length, 1);
    for (const bad of [
      good.replace("WEBVTT", "WEBVT"),
      good.replace("01.000", "01,000"),
      good.replace("hi", "a & b"),
      good.replace("hi", "a <b> c"),
      good.replace("02.000", "00.500"),
    ]) {
      assert.throws(() => parseVtt(bad), bad);
    }
  });
});
