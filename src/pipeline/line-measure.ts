import { open } from "node:fs/promises";
import { forEachSampleChunk, type WavLayout } from "./wav.ts";

/**
 * What the recogniser's front end needs to know of a channel's line (issue 15), measured in one pass over
 * the 16-bit mono PCM WAV `decodeChannel` writes, a chunk at a time (memory stays flat however long).
 */
export interface LineMeasure {
  /**
   * How loud the channel is where nobody speaks: the level (dBFS) a tenth of its 50 ms frames stay under.
   * A party's channel of a call is the other party's turn about half the time, and a recording of one
   * voice pauses between sentences, so the tenth percentile is the line's own noise, not speech.
   */
  backgroundDb: number;
  /**
   * The share of the channel's energy above 5 kHz, in dB: telephone audio resampled to 16 kHz has
   * none (−60 to −75 measured), wide-band speech has fricatives there (−17 to −36).
   */
  highBandDb: number;
}

/**
 * Above this background level (dBFS) a line is noisy: it keeps pocketsphinx's noise subtraction
 * (pocketsphinx.ts) and gets no noise floor (noise-floor.ts). Measured on the tuning half of
 * `npm run bench:accuracy`: clean channels (digital silence between turns) measure −96 dBFS, a line with
 * noise at 15 dB SNR about −35; the threshold sits between, nearer the clean side, since real lines hiss.
 */
export const NOISY_LINE_DB = -50;
/** Below this share of energy above 5 kHz (dB) a channel is narrow-band: telephone audio. */
export const NARROW_BAND_DB = -50;

/**
 * A clean telephone line: quiet between turns and nothing above 5 kHz. It gets the noise floor
 * (noise-floor.ts) and pocketsphinx without noise subtraction (pocketsphinx.ts); everything else is
 * recognised as the engine would by default: measured, the telephone settings hurt a noisy line, and turned
 * right sentences of clean wide-band speech wrong.
 */
export function isCleanTelephoneLine(line: LineMeasure): boolean {
  return line.backgroundDb <= NOISY_LINE_DB && line.highBandDb < NARROW_BAND_DB;
}

const FRAME_SECONDS = 0.05;
const BACKGROUND_PERCENTILE = 0.1;
const HIGH_BAND_HZ = 5000;
/** Second-order sections in the high-pass: eight poles leave a 3.4 kHz telephone band 60 dB down. */
const HIGH_PASS_SECTIONS = 4;
/** Digital silence, which has no level: as quiet as 16-bit audio can say. */
const SILENCE_DB = -96;

export async function measureLine(
  wav: string,
  layout: WavLayout,
  signal?: AbortSignal,
): Promise<LineMeasure> {
  if (layout.channels !== 1 || layout.bitsPerSample !== 16)
    throw new Error(
      `measuring a line needs 16-bit mono PCM, not ${layout.channels} x ${layout.bitsPerSample} bit`,
    );
  const frameSamples = Math.max(1, Math.round(layout.sampleRate * FRAME_SECONDS));
  const highPass = Array.from({ length: HIGH_PASS_SECTIONS }, () =>
    biquadHighPass(HIGH_BAND_HZ, layout.sampleRate),
  );
  const levels: number[] = [];
  let frameSum = 0;
  let frameCount = 0;
  let total = 0;
  let high = 0;
  // The hot loops keep their sums in locals and store them once per chunk: a number a closure captures
  // and changes is boxed on every change, which made this pass take 2.5 s on a ten-minute channel, all of
  // it before recognition could start. The filter runs over a whole chunk at a time, section by section.
  let filtered = new Float64Array(0);
  const file = await open(wav, "r");
  try {
    await forEachSampleChunk(
      file,
      layout,
      (chunk) => {
        const count = chunk.length / 2;
        if (filtered.length < count) filtered = new Float64Array(count);
        const samples = filtered.subarray(0, count);
        for (let i = 0; i < count; i++) samples[i] = chunk.readInt16LE(2 * i);
        let [chunkTotal, sum, counted] = [0, frameSum, frameCount];
        for (let i = 0; i < count; i++) {
          const square = samples[i]! * samples[i]!;
          chunkTotal += square;
          sum += square;
          if (++counted === frameSamples) {
            levels.push(levelDb(sum / counted));
            sum = 0;
            counted = 0;
          }
        }
        [frameSum, frameCount] = [sum, counted];
        total += chunkTotal;
        for (const filter of highPass) filter(samples);
        let chunkHigh = 0;
        for (let i = 0; i < count; i++) chunkHigh += samples[i]! * samples[i]!;
        high += chunkHigh;
      },
      signal,
    );
  } finally {
    await file.close();
  }
  if (frameCount > 0) levels.push(levelDb(frameSum / frameCount));
  return {
    backgroundDb: percentile(levels, BACKGROUND_PERCENTILE),
    highBandDb: total > 0 ? Math.max(SILENCE_DB, 10 * Math.log10(high / total)) : SILENCE_DB,
  };
}

/** dBFS of a mean square of 16-bit samples, digital silence at −96. */
function levelDb(meanSquare: number): number {
  const rms = Math.sqrt(meanSquare) / 32768;
  return rms > 0 ? Math.max(SILENCE_DB, 20 * Math.log10(rms)) : SILENCE_DB;
}

/**
 * A second-order Butterworth high-pass (the Audio EQ Cookbook's) that filters samples in place, keeping
 * its state from one call to the next, so a long signal can go through it a chunk at a time.
 */
export function biquadHighPass(cutoffHz: number, sampleRate: number): (samples: Float64Array) => void {
  const w0 = (2 * Math.PI * cutoffHz) / sampleRate;
  const alpha = Math.sin(w0) / (2 * Math.SQRT1_2);
  const cos = Math.cos(w0);
  const a0 = 1 + alpha;
  const b0 = (1 + cos) / 2 / a0;
  const b1 = -(1 + cos) / a0;
  const b2 = b0;
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  // The state between calls; the loop works on locals (see measureLine on captured numbers).
  const state = new Float64Array(4);
  return (samples) => {
    // Plain locals: destructured from the typed array, the loop ran three times slower.
    let x1 = state[0]!;
    let x2 = state[1]!;
    let y1 = state[2]!;
    let y2 = state[3]!;
    for (let i = 0; i < samples.length; i++) {
      const x = samples[i]!;
      let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      // In digital silence the output decays into subnormal numbers, each of which costs the CPU many
      // times a normal one; so far below one 16-bit step, it is zero.
      if (Math.abs(y) < 1e-20) y = 0;
      x2 = x1;
      x1 = x;
      y2 = y1;
      y1 = y;
      samples[i] = y;
    }
    state.set([x1, x2, y1, y2]);
  };
}

/** The value a `fraction` of `values` lie at or below (nearest rank); digital silence for none. Pure. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return SILENCE_DB;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}
