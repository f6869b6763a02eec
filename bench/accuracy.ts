/**
 * Word error of Hark against the bare engine it wraps, on two-party contact-centre calls under telephone
 * conditions (issue 15). The calls are generated here (`support/accuracy-dialogues.ts`, spoken by every
 * general flite voice, agent and caller in different voices) and rendered by ffmpeg into each condition
 * (`support/accuracy-conditions.ts`). For every call, Hark (upload → finished) and the bare
 * `pocketsphinx_continuous` (whole file, or each channel resampled to 16 kHz) run one after the other, so
 * the machine's speed swings hit both alike. Word errors are pooled over a part: tuning (even dialogues)
 * and held-out (odd ones, which no tuning may look at) are always reported apart.
 *
 *   npm run bench:accuracy            every dialogue (≥ 10 minutes of speech per condition)
 *   npm run bench:accuracy -- --quick two dialogues per part, for development
 *   npm run bench:accuracy -- --only mono16k,gsm   only these conditions (their keys)
 *
 * Audio is cached under $TMPDIR/hark-accuracy-bench; delete it to generate again.
 */
import { normalizeWords, wordEditDistance } from "../test/pipeline/speech.ts";
import {
  cacheDir,
  corpus,
  fliteVoices,
  type Part,
  speak,
  type SpokenDialogue,
} from "./support/accuracy-corpus.ts";
import { type Condition, conditions, lossyCodec, rendered } from "./support/accuracy-conditions.ts";
import { bareRecognise, type Heard, startHarkClient } from "./support/accuracy-engines.ts";

const QUICK_PER_PART = 2;
const PARTS: Part[] = ["tuning", "held-out"];

interface Tally {
  referenceWords: number;
  harkErrors: number;
  bareErrors: number;
  harkMs: number;
  bareMs: number;
  audioMs: number;
  calls: number;
}

async function main(): Promise<void> {
  const quick = process.argv.includes("--quick");
  const started = performance.now();
  const voices = await fliteVoices();
  const root = cacheDir(voices);
  const all = corpus(voices);
  const chosen = quick
    ? PARTS.flatMap((part) => all.filter((d) => d.part === part).slice(0, QUICK_PER_PART))
    : all;

  const codec = await lossyCodec();
  if ("missing" in codec) console.log(`lossy codec condition skipped: ${codec.missing}`);
  const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
  const list = conditions("missing" in codec ? undefined : codec).filter(
    (condition) => only === undefined || only.split(",").includes(condition.key),
  );

  // Generation first (cached), two at a time: flite and ffmpeg are single-threaded.
  const spoken: SpokenDialogue[] = [];
  const queue = [...chosen];
  await Promise.all(
    [0, 1].map(async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const dialogue = await speak(next, root);
        for (const condition of list) await rendered(condition, dialogue);
        spoken.push(dialogue);
      }
    }),
  );
  spoken.sort((a, b) => a.index - b.index);
  for (const part of PARTS) {
    const ofPart = spoken.filter((d) => d.part === part);
    const minutes = ofPart.reduce((sum, d) => sum + d.lengthMs, 0) / 60000;
    const speech = ofPart.reduce((sum, d) => sum + speechMs(d), 0) / 60000;
    const words = ofPart.reduce((sum, d) => sum + normalizeWords(d.turns.join(" ")).length, 0);
    console.log(
      `${part}: ${ofPart.length} calls, ${minutes.toFixed(1)} min (${speech.toFixed(1)} min of speech), ${words} words`,
    );
  }
  console.log(
    `voices: ${voices.join(", ")}; cache: ${root}; ready in ${seconds(performance.now() - started)}`,
  );

  const hark = await startHarkClient();
  const tallies = new Map<string, Tally>();
  try {
    for (const condition of list) {
      for (const dialogue of spoken) {
        const files = await rendered(condition, dialogue);
        const references = condition.stereo ? [dialogue.agentTurns, dialogue.callerTurns] : [dialogue.turns];
        // Interleaved: Hark then the bare engine on the same call, call after call.
        const harkHeard = await hark.recognise(files.upload, condition.stereo);
        const bareHeard = await bareRecognise(files.bare);
        const tally = tallyOf(tallies, condition, dialogue.part);
        for (const [channel, turns] of references.entries()) {
          const reference = normalizeWords(turns.join(" "));
          tally.referenceWords += reference.length;
          tally.harkErrors += errors(reference, harkHeard, channel);
          tally.bareErrors += errors(reference, bareHeard, channel);
        }
        tally.harkMs += harkHeard.ms;
        tally.bareMs += bareHeard.ms;
        tally.audioMs += dialogue.lengthMs;
        tally.calls++;
      }
      // Each condition's rows as soon as it is done: a full run is long, and a cut one keeps what it measured.
      process.stderr.write(`done: ${condition.name} (${seconds(performance.now() - started)})\n`);
      for (const part of PARTS) process.stderr.write(`${row(condition, part, tallies)}\n`);
    }
  } finally {
    await hark.stop();
  }
  printTable(list, tallies, quick);
  console.log(`total ${seconds(performance.now() - started)}`);
}

/** How long the parties speak in a call, pauses left out. */
function speechMs(dialogue: SpokenDialogue): number {
  return [...dialogue.agentSpeech, ...dialogue.callerSpeech].reduce((sum, s) => sum + s.endMs - s.startMs, 0);
}

function tallyOf(tallies: Map<string, Tally>, condition: Condition, part: Part): Tally {
  const key = `${condition.key}/${part}`;
  let tally = tallies.get(key);
  if (tally === undefined) {
    tally = { referenceWords: 0, harkErrors: 0, bareErrors: 0, harkMs: 0, bareMs: 0, audioMs: 0, calls: 0 };
    tallies.set(key, tally);
  }
  return tally;
}

function errors(reference: string[], heard: Heard, channel: number): number {
  return wordEditDistance(reference, normalizeWords(heard.channels[channel] ?? []));
}

function printTable(list: Condition[], tallies: Map<string, Tally>, quick: boolean): void {
  console.log(`\nrun: ${quick ? `--quick (${QUICK_PER_PART} calls per part)` : "full"}`);
  console.log("| condition | part | calls | audio | Hark WER | bare WER | Hark - bare | time Hark / bare |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const condition of list)
    for (const part of PARTS)
      if (tallies.has(`${condition.key}/${part}`)) console.log(row(condition, part, tallies));
}

function row(condition: Condition, part: Part, tallies: Map<string, Tally>): string {
  const t = tallies.get(`${condition.key}/${part}`);
  if (t === undefined) return `| ${condition.name} | ${part} | 0 | | | | | |`;
  const hark = t.harkErrors / t.referenceWords;
  const bare = t.bareErrors / t.referenceWords;
  const diff = (hark - bare) * 100;
  return `| ${condition.name} | ${part} | ${t.calls} | ${(t.audioMs / 60000).toFixed(1)} min | ${percent(hark)} | ${percent(bare)} | ${diff > 0 ? "+" : ""}${diff.toFixed(1)} | ${(t.harkMs / t.bareMs).toFixed(2)} |`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

await main();
