/**
 * VoiceBase's voice features of one word, from the word's samples on its own channel: `frq`, the two
 * dominant spectral peaks (`f` in Hz, `e` the peak's energy relative to the dominant one, 0..1), and
 * `v`, the word's volume. Pure: samples in, numbers out.
 *
 * The spectrum is the mean magnitude spectrum of Hann-windowed frames of `FRAME_SIZE` samples taken every
 * `HOP_SIZE` samples over the word (fft.js's real transform). A peak is a local maximum of that spectrum
 * above `MIN_PEAK_HZ`; its frequency is refined between bins by a parabola through the log magnitudes of
 * the peak bin and its neighbours, which brings a pure tone within about 1 Hz of the truth although
 * a bin is 15.6 Hz wide at 16 kHz.
 *
 * VoiceBase defines `v = A * M`, "A the average between the word's timing and the frequencies' amplitude,
 * M the maximum amplitude from any frequency and spectrum frame within the word". Hark reads it as: A is
 * the mean over the word's frames of each frame's strongest amplitude, M the strongest amplitude of any
 * frame, amplitudes as fractions of full scale (a full-scale sine is 1). `v` thus grows with the square
 * of loudness. Scaled by `VOLUME_SCALE` so that speech at an ordinary level (peaks around -10 dBFS) gives
 * a few units, the range of the "good agent" (4.33) and "good caller" (7.57) averages the conversation
 * metrics guide divides by.
 */
import FFT from "fft.js";
import type { SpectralPeak, VoiceFeatures } from "../domain/transcript.ts";

/** 64 ms at 16 kHz: bins of 15.6 Hz, fine enough to part the harmonics of a low (100 Hz) voice. */
export const FRAME_SIZE = 1024;
/** 16 ms at 16 kHz: even a short word (100 ms) has several frames. */
export const HOP_SIZE = 256;
/** Below this is hum and rumble, not voice: no voice's fundamental is that low. */
export const MIN_PEAK_HZ = 60;
export const VOLUME_SCALE = 100;

const fft = new FFT(FRAME_SIZE);

/**
 * The voice features of one word's samples (mono, -1..1) at `sampleRate`: the dominant peak, then the
 * second (fewer when the spectrum has fewer: silence has none). A word shorter than a frame is one frame
 * of its own length, padded with zeros: its peaks are as sharp as its length allows.
 */
export function voiceFeatures(samples: Float32Array, sampleRate: number): VoiceFeatures {
  if (samples.length === 0) return { frq: [], v: 0 };
  const frameLength = Math.min(FRAME_SIZE, samples.length);
  const window = hann(frameLength);
  // Amplitude of a sine of amplitude 1 in its bin: half the window's sum (the other half is the mirror).
  const gain = 2 / window.reduce((sum, w) => sum + w, 0);
  const bins = FRAME_SIZE / 2 + 1;
  const mean = new Float64Array(bins);
  const input = new Array<number>(FRAME_SIZE).fill(0);
  const output = fft.createComplexArray() as number[];
  let frames = 0;
  let sumOfMaxima = 0;
  let maximum = 0;
  for (let start = 0; start + frameLength <= samples.length; start += HOP_SIZE) {
    for (let i = 0; i < frameLength; i += 1) input[i] = (samples[start + i] ?? 0) * (window[i] ?? 0);
    fft.realTransform(output, input);
    let frameMax = 0;
    for (let k = 0; k < bins; k += 1) {
      const re = output[2 * k] ?? 0;
      const im = output[2 * k + 1] ?? 0;
      const magnitude = Math.sqrt(re * re + im * im) * gain;
      mean[k] = (mean[k] ?? 0) + magnitude;
      if (magnitude > frameMax) frameMax = magnitude;
    }
    sumOfMaxima += frameMax;
    maximum = Math.max(maximum, frameMax);
    frames += 1;
  }
  for (let k = 0; k < bins; k += 1) mean[k] = (mean[k] ?? 0) / frames;
  return {
    frq: dominantPeaks(mean, sampleRate, 2),
    v: round3(VOLUME_SCALE * (sumOfMaxima / frames) * maximum),
  };
}

/** The `count` strongest local maxima of a magnitude spectrum above `MIN_PEAK_HZ`, strongest first. */
export function dominantPeaks(spectrum: Float64Array, sampleRate: number, count: number): SpectralPeak[] {
  const binHz = sampleRate / (2 * (spectrum.length - 1));
  const peaks: { bin: number; magnitude: number }[] = [];
  for (let k = Math.max(1, Math.ceil(MIN_PEAK_HZ / binHz)); k < spectrum.length - 1; k += 1) {
    const here = spectrum[k] ?? 0;
    if (here > 0 && here > (spectrum[k - 1] ?? 0) && here >= (spectrum[k + 1] ?? 0))
      peaks.push({ bin: k, magnitude: here });
  }
  peaks.sort((a, b) => b.magnitude - a.magnitude);
  const strongest = peaks[0]?.magnitude ?? 0;
  return peaks.slice(0, count).map(({ bin, magnitude }) => ({
    f: round3((bin + offsetBetweenBins(spectrum, bin)) * binHz),
    e: round3(magnitude / strongest),
  }));
}

/** Where the true peak lies from `bin`, -0.5..0.5 bins: the vertex of a parabola through the log magnitudes. */
function offsetBetweenBins(spectrum: Float64Array, bin: number): number {
  const tiny = Number.MIN_VALUE;
  const a = Math.log(Math.max(tiny, spectrum[bin - 1] ?? 0));
  const b = Math.log(Math.max(tiny, spectrum[bin] ?? 0));
  const c = Math.log(Math.max(tiny, spectrum[bin + 1] ?? 0));
  const curvature = a - 2 * b + c;
  if (!(curvature < 0)) return 0;
  return Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / curvature));
}

function hann(length: number): Float64Array {
  const window = new Float64Array(length);
  if (length === 1) window[0] = 1;
  for (let i = 0; i < length && length > 1; i += 1)
    window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (length - 1));
  return window;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
