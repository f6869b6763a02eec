/**
 * Speed of Hark against the bare engine it wraps (issue 15): a one-minute and a ten-minute call through
 * Hark, from upload to `finished`, against the bare `pocketsphinx_continuous` command on the same file.
 * This machine's speed swings by 40% from one minute to the next (the same bare run took 11.8 s and
 * 17.1 s a minute apart), so a ratio of two separate bests says more about when each ran than about Hark.
 * Each pair of runs is therefore timed back to back, in alternating order (bare then Hark, Hark then
 * bare), and the median of the pairs' ratios is the figure (targets on 2 cores: 0.6 or less on a minute,
 * 0.55 or less on ten). Prints the pairs, their median and both word error rates.
 *
 *   npm run bench            (or: node bench/transcription.ts [pairs on the one-minute call] [pairs on ten])
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startHarkClient } from "./support/accuracy-engines.ts";
import { barePocketsphinx } from "./support/bare-pocketsphinx.ts";
import {
  buildSpeech,
  type FliteVoice,
  normalizeWords,
  type SpeechPart,
  wordErrorRate,
} from "../test/pipeline/speech.ts";

const SENTENCES: [FliteVoice, string][] = [
  ["rms", "thank you for calling customer support my name is john how can I help you today"],
  ["slt", "hi I am calling about my internet service it has been very slow for the last two weeks"],
  ["rms", "I am sorry to hear that let me look up your account can you give me your phone number"],
  ["slt", "sure it is five five five one two three four five six seven"],
  ["rms", "thank you I can see there was an outage in your area last week"],
  ["slt", "that explains it but the problem is still there this morning"],
  ["rms", "I will reset the connection from our side and send a technician if that does not help"],
  ["slt", "that sounds good how long will the reset take"],
  ["rms", "it should take about ten minutes please restart your router after that"],
  ["slt", "okay I will do that thank you for your help"],
  ["rms", "you are welcome is there anything else I can help you with today"],
  ["slt", "actually one more thing can you tell me when my contract ends"],
  ["rms", "your contract ends in march next year and you can renew it online"],
  ["slt", "great that is all have a nice day"],
];

const shortPairs = Number(process.argv[2] ?? 6);
const longPairs = Number(process.argv[3] ?? 2);

/** The one-minute call, or the same turns ten times over, with the voices swapped every other time. */
function call(repeats: number): { parts: SpeechPart[]; reference: string[] } {
  const turns = Array.from({ length: repeats }, (_, round) =>
    SENTENCES.map(([voice, text]): [FliteVoice, string] => [
      round % 2 === 0 ? voice : voice === "rms" ? "slt" : "rms",
      text,
    ]),
  ).flat();
  // Pauses between turns, as a real call has.
  return {
    parts: turns.flatMap(([voice, text]) => [{ text, voice }, { silenceMs: 700 }]),
    reference: turns.map(([, text]) => text),
  };
}

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-"));
  const hark = await startHarkClient();
  try {
    console.log(`${os.availableParallelism()} cores`);
    for (const { name, repeats, pairs, target } of [
      { name: "one-minute call", repeats: 1, pairs: shortPairs, target: 0.6 },
      { name: "ten-minute call", repeats: 10, pairs: longPairs, target: 0.55 },
    ]) {
      const file = path.join(dir, `call-${repeats}.wav`);
      const { parts, reference } = call(repeats);
      const { lengthMs } = await buildSpeech(parts, file);
      console.log(
        `\n${name}: ${(lengthMs / 1000).toFixed(1)} s, ${reference.join(" ").split(" ").length} words`,
      );
      const bare = async (): Promise<Run> => ({ words: await barePocketsphinx(file) });
      const ours = async (): Promise<Run> => {
        const heard = await hark.recognise(file, false);
        return { words: heard.channels[0] ?? [], phasesMs: heard.phasesMs };
      };
      const ratios: number[] = [];
      let last: { bare: Timed; ours: Timed } | undefined;
      for (let pair = 0; pair < pairs; pair++) {
        const bareFirst = pair % 2 === 0;
        const first = await timed(bareFirst ? bare : ours);
        const second = await timed(bareFirst ? ours : bare);
        last = bareFirst ? { bare: first, ours: second } : { bare: second, ours: first };
        ratios.push(last.ours.ms / last.bare.ms);
        const phases = Object.entries(last.ours.run.phasesMs ?? {}).map(
          ([phase, ms]) => `${phase} ${seconds(ms)}`,
        );
        console.log(
          `pair ${pair + 1} (${bareFirst ? "bare first" : "Hark first"}): bare ${seconds(last.bare.ms)}, Hark ${seconds(last.ours.ms)}, ratio ${(last.ours.ms / last.bare.ms).toFixed(2)}`,
        );
        console.log(`  Hark's phases (a phase's time is while any of its work runs): ${phases.join(", ")}`);
      }
      if (!last) continue;
      const ref = normalizeWords(reference.join(" "));
      const bareWer = wordErrorRate(ref, normalizeWords(last.bare.run.words));
      const harkWer = wordErrorRate(ref, normalizeWords(last.ours.run.words));
      const ratio = median(ratios);
      console.log(
        `ratio Hark / bare: median ${ratio.toFixed(2)} of ${pairs} pairs (${Math.min(...ratios).toFixed(2)}..${Math.max(...ratios).toFixed(2)}; target <= ${target.toFixed(2)})${ratio <= target ? "" : "  ABOVE TARGET"}`,
      );
      console.log(
        `word error: bare ${percent(bareWer)}, Hark ${percent(harkWer)}, Hark - bare ${((harkWer - bareWer) * 100).toFixed(1)} points (target <= 0)`,
      );
    }
  } finally {
    await hark.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

interface Run {
  words: string[];
  phasesMs?: Record<string, number> | undefined;
}

interface Timed {
  ms: number;
  run: Run;
}

async function timed(work: () => Promise<Run>): Promise<Timed> {
  const start = performance.now();
  const run = await work();
  return { ms: performance.now() - start, run };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

await main();
