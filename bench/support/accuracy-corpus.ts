/**
 * The accuracy benchmark's corpus: every dialogue of `accuracy-dialogues.ts` spoken by two different
 * flite voices (agent, caller), turn after turn with pauses, as two 16 kHz tracks of one call: the agent's
 * track is silent while the caller speaks and the other way round. What a condition does to the call
 * (mixing, telephone band, noise, codec) is `accuracy-conditions.ts`'s.
 *
 * Generated audio is cached under $TMPDIR/hark-accuracy-bench/<hash of dialogues, voices and layout>, so
 * a second run skips flite; a change to any dialogue or to the installed voices makes a new directory.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { run } from "../../src/pipeline/run.ts";
import { parseWavHeader, wavHeader } from "../../src/pipeline/wav.ts";
import { type FliteVoice, SAMPLE_RATE, synthesize } from "../../test/pipeline/speech.ts";
import { DIALOGUES } from "./accuracy-dialogues.ts";

/** Silence before the first turn, between turns and after the last one. */
const LEAD_MS = 500;
const PAUSE_MS = 700;
/** Bump when the way tracks are laid out changes, so the cache does not serve the old layout. */
const LAYOUT_VERSION = 1;

export type Part = "tuning" | "held-out";

export interface Dialogue {
  index: number;
  part: Part;
  agentVoice: FliteVoice;
  callerVoice: FliteVoice;
  agentTurns: readonly string[];
  callerTurns: readonly string[];
  /** All turns in the order spoken: the reference of the mono mix. */
  turns: readonly string[];
}

/** Where a spoken dialogue's tracks are, and where each party speaks (ms), for level measurements. */
export interface SpokenDialogue extends Dialogue {
  dir: string;
  agentFile: string;
  callerFile: string;
  lengthMs: number;
  agentSpeech: Span[];
  callerSpeech: Span[];
}

export interface Span {
  startMs: number;
  endMs: number;
}

/** flite's general voices here; awb_time is a talking clock and cannot say a sentence. */
export async function fliteVoices(): Promise<FliteVoice[]> {
  const { stdout } = await run("flite", ["-lv"]);
  const listed = stdout.replace(/^.*:/, "").trim().split(/\s+/);
  return listed.filter((voice) => voice !== "awb_time").sort() as FliteVoice[];
}

/**
 * The dialogues with their part and voices. Even positions are tuning, odd ones held out (50/50, fixed).
 * Voices rotate so that every voice speaks both roles and each pair of different voices comes up.
 */
export function corpus(voices: readonly FliteVoice[]): Dialogue[] {
  const n = voices.length;
  return DIALOGUES.map((turns, index) => {
    const offset = 1 + (Math.floor(index / n) % (n - 1));
    return {
      index,
      part: index % 2 === 0 ? "tuning" : "held-out",
      agentVoice: voices[index % n]!,
      callerVoice: voices[(index + offset) % n]!,
      agentTurns: turns.filter((_, turn) => turn % 2 === 0),
      callerTurns: turns.filter((_, turn) => turn % 2 === 1),
      turns,
    };
  });
}

/** The cache directory of this corpus: a hash of everything the audio is made from. */
export function cacheDir(voices: readonly FliteVoice[]): string {
  const key = JSON.stringify({ DIALOGUES, voices, LEAD_MS, PAUSE_MS, LAYOUT_VERSION });
  const hash = createHash("sha256").update(key).digest("hex").slice(0, 16);
  return path.join(os.tmpdir(), "hark-accuracy-bench", hash);
}

/** Speaks one dialogue into its two tracks, or finds them in the cache. */
export async function speak(dialogue: Dialogue, root: string): Promise<SpokenDialogue> {
  const dir = path.join(root, `dialogue-${String(dialogue.index).padStart(2, "0")}`);
  const agentFile = path.join(dir, "agent.wav");
  const callerFile = path.join(dir, "caller.wav");
  const layoutFile = path.join(dir, "layout.json");
  const cached = await fs.readFile(layoutFile, "utf8").catch(() => undefined);
  if (cached !== undefined) return { ...dialogue, dir, agentFile, callerFile, ...JSON.parse(cached) };

  await fs.mkdir(dir, { recursive: true });
  const ms = (samples: number) => Math.round((samples / SAMPLE_RATE) * 1000);
  const silence = (durationMs: number) => Buffer.alloc(Math.round((durationMs * SAMPLE_RATE) / 1000) * 2);
  const agent: Buffer[] = [silence(LEAD_MS)];
  const caller: Buffer[] = [silence(LEAD_MS)];
  const layout = { lengthMs: 0, agentSpeech: [] as Span[], callerSpeech: [] as Span[] };
  let samples = silence(LEAD_MS).length / 2;
  for (const [turn, text] of dialogue.turns.entries()) {
    const byAgent = turn % 2 === 0;
    const file = path.join(dir, `turn-${turn}.wav`);
    await synthesize(text, file, byAgent ? dialogue.agentVoice : dialogue.callerVoice);
    const speech = await pcm(file);
    await fs.rm(file, { force: true });
    (byAgent ? layout.agentSpeech : layout.callerSpeech).push({
      startMs: ms(samples),
      endMs: ms(samples + speech.length / 2),
    });
    const gap = silence(PAUSE_MS);
    (byAgent ? agent : caller).push(speech, gap);
    (byAgent ? caller : agent).push(Buffer.alloc(speech.length), gap);
    samples += speech.length / 2 + gap.length / 2;
  }
  layout.lengthMs = ms(samples);
  await writeWav(Buffer.concat(agent), agentFile);
  await writeWav(Buffer.concat(caller), callerFile);
  // Written last: a run stopped half-way leaves no layout, and the next run speaks the dialogue again.
  await fs.writeFile(layoutFile, JSON.stringify(layout));
  return { ...dialogue, dir, agentFile, callerFile, ...layout };
}

/** The 16-bit samples of a mono WAV. */
export async function pcm(file: string): Promise<Buffer> {
  const bytes = await fs.readFile(file);
  const layout = parseWavHeader(bytes, bytes.length);
  return bytes.subarray(layout.dataOffset, layout.dataOffset + layout.dataBytes);
}

/** Writes 16-bit mono samples as a WAV at `sampleRate`. */
export async function writeWav(samples: Buffer, file: string, sampleRate = SAMPLE_RATE): Promise<void> {
  await fs.writeFile(file, Buffer.concat([wavHeader(samples.length, sampleRate), samples]));
}
