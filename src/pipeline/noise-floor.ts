import { open } from "node:fs/promises";
import { forEachSampleChunk, type WavLayout } from "./wav.ts";

/**
 * A faint white noise, about −65 dBFS (uniform within ±33 of 32768), added to a clean channel before it is
 * recognised. Measured on the tuning half of `npm run bench:accuracy` (issue 15): a clean telephone channel
 * resampled to 16 kHz has nothing above 4 kHz and is digital silence while the other party speaks, and the
 * model, trained on 16 kHz speech, then reads filterbank energies at the log floor. With this floor (and
 * noise subtraction off, pocketsphinx.ts) word error fell from 44% to 30% on 8 kHz mu-law calls, 43% to 28%
 * at −30 dBFS, 50% to 36% through GSM and 32% to 25% on 16 kHz mono mixes. A floor three times louder hurt
 * speech at −30 dBFS. On a line that already hisses (15 dB SNR) the floor cost 7 points, and on clean
 * wide-band speech (flite's 16 kHz voices alone) it turned right sentences wrong: it is for clean
 * narrow-band lines only (`isCleanTelephoneLine`).
 */
export const NOISE_FLOOR_PEAK = 33;

/** The floor's noise generator: a fixed seed, so that the same media always gives the same words. */
export interface NoiseState {
  seed: number;
}

export function noiseState(): NoiseState {
  return { seed: 1 };
}

/** Adds the floor to 16-bit little-endian samples in place, clipped to 16 bits. Pure but for `buffer`. */
export function addNoiseFloor(buffer: Buffer, length: number, state: NoiseState): void {
  for (let i = 0; i + 1 < length; i += 2) {
    // Numerical Recipes' 32-bit LCG: plenty for a noise nobody listens to, and the same everywhere.
    state.seed = (Math.imul(state.seed, 1664525) + 1013904223) >>> 0;
    const noise = Math.round((state.seed / 2 ** 32) * 2 * NOISE_FLOOR_PEAK - NOISE_FLOOR_PEAK);
    buffer.writeInt16LE(Math.max(-32768, Math.min(32767, buffer.readInt16LE(i) + noise)), i);
  }
}

/** Adds the floor to a 16-bit mono PCM WAV in place, a chunk at a time: memory stays flat however long. */
export async function addNoiseFloorToWav(
  wav: string,
  layout: WavLayout,
  signal?: AbortSignal,
): Promise<void> {
  if (layout.bitsPerSample !== 16)
    throw new Error(`the noise floor needs 16-bit PCM, not ${layout.bitsPerSample} bit`);
  const file = await open(wav, "r+");
  try {
    const state = noiseState();
    await forEachSampleChunk(
      file,
      layout,
      async (chunk, position) => {
        addNoiseFloor(chunk, chunk.length, state);
        await file.write(chunk, 0, chunk.length, position);
      },
      signal,
    );
  } finally {
    await file.close();
  }
}
