/**
 * How well advanced punctuation places `.`, `,` and `?`: the dialogues of `punctuation-corpus.ts`, each
 * spoken by every general flite voice (awb_time is a talking clock and cannot say them) into one mono
 * file with a pause between turns, recognised by Hark's recogniser, assembled as Hark assembles a
 * transcript, punctuated, and scored against the reference by aligning words. Prints precision, recall
 * and F1 per mark for the tuning and the held-out part, with the pause-only full stops Hark places
 * without the feature for comparison.
 *
 *   npm run bench:punctuation        (or: node bench/punctuation.ts [parallel recognitions, default 2])
 *
 * Recognised words are cached in $TMPDIR/hark-punctuation-bench (by voice and text), so a rerun after
 * changing the punctuator takes seconds; delete the directory to measure recognition again.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { punctuate } from "../src/analytics/punctuation.ts";
import type { RecognizedWord, Word } from "../src/domain/transcript.ts";
import { assembleTranscript } from "../src/pipeline/assemble.ts";
import { transcribeSpeaker } from "../src/pipeline/transcribe.ts";
import { buildSpeech, type FliteVoice, type SpeechPart } from "../test/pipeline/speech.ts";
import { HELD_OUT, TUNING } from "./punctuation-corpus.ts";
import {
  type Counts,
  emptyCounts,
  type Mark,
  MARKS,
  type MarkedWord,
  markedWords,
  prf,
  score,
} from "./punctuation-score.ts";

const VOICES: FliteVoice[] = ["rms", "slt", "awb", "kal", "kal16"];
const CACHE = path.join(os.tmpdir(), "hark-punctuation-bench");
const parallel = Number(process.argv[2] ?? 2);

interface Job {
  dialogue: string[];
  voice: FliteVoice;
}

async function main(): Promise<void> {
  const started = performance.now();
  await fs.mkdir(CACHE, { recursive: true });
  const parts = { tuning: TUNING, "held-out": HELD_OUT };
  const jobs = Object.values(parts).flatMap((dialogues) =>
    dialogues.flatMap((dialogue) => VOICES.map((voice) => ({ dialogue, voice }))),
  );
  const recognised = new Map<Job, RecognizedWord[]>();
  let next = 0;
  let audioMs = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        const result = await recognise(job);
        audioMs += result.lengthMs;
        recognised.set(job, result.words);
      }
    }),
  );
  console.log(
    `${jobs.length} recordings (${VOICES.join(", ")}), ${(audioMs / 60000).toFixed(1)} min of audio, recognised or cached in ${seconds(performance.now() - started)}`,
  );

  for (const [name, dialogues] of Object.entries(parts)) {
    const baseline = emptyCounts();
    const advanced = emptyCounts();
    let turns = 0;
    for (const job of jobs.filter((j) => dialogues.includes(j.dialogue))) {
      turns += job.dialogue.length;
      const reference = markedWords(job.dialogue.join(" "));
      const { words } = assembleTranscript([
        { speakerName: "Speaker", channel: 0, words: recognised.get(job)! },
      ]);
      score(reference, marked(words), baseline);
      score(reference, marked(punctuate(words)), advanced);
      if (process.env.SHOW === job.voice && name === "tuning") console.log(text(punctuate(words)));
    }
    console.log(`\n${name}: ${dialogues.length} dialogues x ${VOICES.length} voices, ${turns} turns`);
    print("pause-only full stops", baseline);
    print("advancedPunctuation", advanced);
  }
  console.log(`\nbench took ${seconds(performance.now() - started)}`);
}

async function recognise(job: Job): Promise<{ words: RecognizedWord[]; lengthMs: number }> {
  const key = createHash("sha256").update(JSON.stringify(job)).digest("hex").slice(0, 16);
  const cached = path.join(CACHE, `${key}.json`);
  try {
    return JSON.parse(await fs.readFile(cached, "utf8")) as { words: RecognizedWord[]; lengthMs: number };
  } catch {
    // not cached yet
  }
  const file = path.join(CACHE, `${key}.wav`);
  // Pauses between turns vary as a call's do: 500 to 900 ms.
  const speech: SpeechPart[] = job.dialogue.flatMap((text, index) => [
    { text, voice: job.voice },
    { silenceMs: 500 + ((index * 137) % 400) },
  ]);
  const { lengthMs } = await buildSpeech(speech, file);
  const words = await transcribeSpeaker(file, 0, { concurrency: 1 });
  await fs.rm(file, { force: true });
  await fs.writeFile(cached, JSON.stringify({ words, lengthMs }));
  return { words, lengthMs };
}

/** A transcript's spoken words, each with the mark after it. */
function marked(words: readonly Word[]): MarkedWord[] {
  const result: MarkedWord[] = [];
  for (const word of words) {
    if (word.m === undefined) result.push({ word: word.w.toLowerCase() });
    else if (word.m === "punc" && result.length > 0) result[result.length - 1]!.mark = word.w as Mark;
  }
  return result;
}

function text(words: readonly Word[]): string {
  return words
    .filter((word) => word.m !== "turn")
    .map((word) => (word.m === "punc" ? word.w : ` ${word.w}`))
    .join("");
}

function print(label: string, counts: Counts): void {
  const cells = MARKS.map((mark) => {
    const { precision, recall, f1 } = prf(counts[mark]);
    return `"${mark}" P ${precision.toFixed(2)} R ${recall.toFixed(2)} F1 ${f1.toFixed(2)}`;
  });
  console.log(`  ${label.padEnd(22)} ${cells.join("   ")}`);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

await main();
