import { createReadStream } from "node:fs";
import type { WavLayout } from "./wav.ts";

/**
 * How loud a channel is where nobody speaks: the level (dBFS) that a tenth of its 50 ms frames stay
 * under. A party's channel of a call is the other party's turn about half the time, and a recording of
 * one voice pauses between sentences, so the tenth percentile is the line's own noise, not speech. The
 * recogniser uses it to tell a noisy line from a clean one (pocketsphinx.ts). Reads the 16-bit mono PCM
 * WAV `decodeChannel` writes, in chunks: memory stays flat however long the call.
 */
export async function backgroundLevelDb(
  wav: string,
  layout: WavLayout,
  signal?: AbortSignal,
): Promise<number> {
  if (layout.channels !== 1 || layout.bitsPerSample !== 16)
    throw new Error(
      `the background level needs 16-bit mono PCM, not ${layout.channels} x ${layout.bitsPerSample} bit`,
    );
  const frameSamples = Math.max(1, Math.round(layout.sampleRate * FRAME_SECONDS));
  const levels: number[] = [];
  let sum = 0;
  let count = 0;
  let odd: number | undefined;
  const stream = createReadStream(wav, {
    start: layout.dataOffset,
    end: layout.dataOffset + layout.dataBytes - 1,
    signal,
  });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let i = 0;
    // A sample split between two chunks.
    if (odd !== undefined && chunk.length > 0) {
      const sample = (((chunk[0]! << 8) | odd) << 16) >> 16;
      sum += sample * sample;
      count++;
      odd = undefined;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) {
      const sample = chunk.readInt16LE(i);
      sum += sample * sample;
      if (++count === frameSamples) {
        levels.push(frameLevelDb(sum, count));
        sum = 0;
        count = 0;
      }
    }
    if (i < chunk.length) odd = chunk[i];
  }
  if (count > 0) levels.push(frameLevelDb(sum, count));
  return percentile(levels, BACKGROUND_PERCENTILE);
}

const FRAME_SECONDS = 0.05;
const BACKGROUND_PERCENTILE = 0.1;
/** Digital silence, which has no level: as quiet as 16-bit audio can say. */
const SILENCE_DB = -96;

function frameLevelDb(sumOfSquares: number, count: number): number {
  const rms = Math.sqrt(sumOfSquares / count) / 32768;
  return rms > 0 ? Math.max(SILENCE_DB, 20 * Math.log10(rms)) : SILENCE_DB;
}

/** The value a `fraction` of `values` lie at or below (nearest rank); digital silence for none. Pure. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return SILENCE_DB;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}
