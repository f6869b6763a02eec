/**
 * Test helpers for speech: synthesising known sentences with flite and scoring what a recogniser heard.
 * Audio is built at test time in temporary directories; none is kept in the repository.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { decodeChannel } from "../../src/pipeline/decode.ts";
import { run } from "../../src/pipeline/run.ts";
import { parseWavHeader, wavHeader } from "../../src/pipeline/wav.ts";

/** flite's voices; `rms` is the one pocketsphinx recognises best (about 2% word error). */
export type FliteVoice = "rms" | "slt" | "awb" | "kal" | "kal16";

/** A piece of a synthetic recording: a sentence in a voice, or a stretch of silence. */
export type SpeechPart = { text: string; voice?: FliteVoice } | { silenceMs: number };

export const SAMPLE_RATE = 16000;

/** A fresh temporary directory and a function that removes it. */
export async function tempDir(prefix = "hark-test-"): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Synthesises `text` with flite to a 16 kHz mono 16-bit WAV at `output`. */
export async function synthesize(text: string, output: string, voice: FliteVoice = "rms"): Promise<void> {
  const raw = `${output}.flite.wav`;
  await run("flite", ["-voice", voice, "-t", text, "-o", raw]);
  // flite's kal voice speaks at 8 kHz; the others at 16 kHz. Resample so every part can be concatenated.
  await decodeChannel(raw, output, "mix");
  await rm(raw, { force: true });
}

/** The 16-bit samples of a mono WAV. */
async function pcm(path: string): Promise<Buffer> {
  const bytes = await readFile(path);
  const layout = parseWavHeader(bytes, bytes.length);
  return bytes.subarray(layout.dataOffset, layout.dataOffset + layout.dataBytes);
}

type Spans = { startMs: number; endMs: number }[];

/** The samples of sentences and silences in order, and where each part starts and ends, in ms. */
async function render(
  parts: readonly SpeechPart[],
  scratch: string,
): Promise<{ samples: Buffer; spans: Spans }> {
  const chunks: Buffer[] = [];
  const spans: Spans = [];
  let bytes = 0;
  for (const [index, part] of parts.entries()) {
    let chunk: Buffer;
    if ("silenceMs" in part) {
      chunk = Buffer.alloc(Math.round((part.silenceMs * SAMPLE_RATE) / 1000) * 2);
    } else {
      const file = `${scratch}.part-${index}.wav`;
      await synthesize(part.text, file, part.voice);
      chunk = await pcm(file);
      await rm(file, { force: true });
    }
    spans.push({ startMs: bytesToMs(bytes), endMs: bytesToMs(bytes + chunk.length) });
    chunks.push(chunk);
    bytes += chunk.length;
  }
  return { samples: Buffer.concat(chunks), spans };
}

async function writeMono(samples: Buffer, output: string): Promise<void> {
  await writeFile(output, Buffer.concat([wavHeader(samples.length, SAMPLE_RATE), samples]));
}

/** Builds a 16 kHz mono WAV from sentences and silences; returns its length and each part's span. */
export async function buildSpeech(
  parts: readonly SpeechPart[],
  output: string,
): Promise<{ lengthMs: number; spans: Spans }> {
  const { samples, spans } = await render(parts, output);
  await writeMono(samples, output);
  return { lengthMs: bytesToMs(samples.length), spans };
}

/** One sentence spoken into a WAV file in a temporary directory, and a function that removes it. */
export async function spokenFile(text: string): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const { dir, cleanup } = await tempDir();
  const file = join(dir, "speech.wav");
  await buildSpeech([{ text }], file);
  return { file, cleanup };
}

/**
 * Builds a 16 kHz stereo WAV with one party per channel, as a call recorder does; the shorter channel is
 * padded with silence. Returns the length and the spans of each channel's parts.
 */
export async function buildStereo(
  left: readonly SpeechPart[],
  right: readonly SpeechPart[],
  output: string,
): Promise<{ lengthMs: number; left: Spans; right: Spans }> {
  const l = await render(left, `${output}.left`);
  const r = await render(right, `${output}.right`);
  const length = Math.max(l.samples.length, r.samples.length);
  const pad = (samples: Buffer) => Buffer.concat([samples, Buffer.alloc(length - samples.length)]);
  const leftFile = `${output}.left.wav`;
  const rightFile = `${output}.right.wav`;
  await writeMono(pad(l.samples), leftFile);
  await writeMono(pad(r.samples), rightFile);
  try {
    await run(
      "ffmpeg",
      ["-nostdin", "-v", "error", "-y", "-i", leftFile, "-i", rightFile].concat([
        "-filter_complex",
        "[0:a][1:a]amerge=inputs=2[a]",
        "-map",
        "[a]",
        "-c:a",
        "pcm_s16le",
        output,
      ]),
    );
  } finally {
    await rm(leftFile, { force: true });
    await rm(rightFile, { force: true });
  }
  return { lengthMs: bytesToMs(length), left: l.spans, right: r.spans };
}

function bytesToMs(bytes: number): number {
  return Math.round((bytes / 2 / SAMPLE_RATE) * 1000);
}

/** Lower-case words without punctuation (apostrophes kept: "don't" is one word). */
export function normalizeWords(text: string | readonly string[]): string[] {
  const joined = typeof text === "string" ? text : text.join(" ");
  return joined
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 0);
}

/** Word-level Levenshtein distance: substitutions, insertions and deletions to turn one into the other. */
export function wordEditDistance(reference: readonly string[], hypothesis: readonly string[]): number {
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const current = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      current.push(Math.min(substitution, (previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1));
    }
    previous = current;
  }
  return previous[hypothesis.length] ?? 0;
}

/** Word error rate: edit distance over the number of reference words (0 for two empty texts). */
export function wordErrorRate(
  reference: string | readonly string[],
  hypothesis: string | readonly string[],
): number {
  const ref = normalizeWords(reference);
  const hyp = normalizeWords(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  return wordEditDistance(ref, hyp) / ref.length;
}
