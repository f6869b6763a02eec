import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  biquadHighPass,
  isCleanTelephoneLine,
  measureLine,
  percentile,
} from "../../src/pipeline/line-measure.ts";
import { readWavLayout, wavHeader } from "../../src/pipeline/wav.ts";

const RATE = 16000;

/** A second of a loud tone (the speech) then `pauseSeconds` of white noise at `noiseRms` of full scale. */
function turnThenPause(noiseRms: number, pauseSeconds: number): Buffer {
  const samples: number[] = [];
  for (let i = 0; i < RATE; i++) samples.push(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE)));
  let seed = 1;
  for (let i = 0; i < RATE * pauseSeconds; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    // Uniform in ±√3·rms has that RMS.
    samples.push(Math.round(((seed / 2 ** 31) * 2 - 1) * Math.sqrt(3) * noiseRms * 32768));
  }
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, i) => data.writeInt16LE(sample, i * 2));
  return Buffer.concat([wavHeader(data.length, RATE), data]);
}

describe("measureLine", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "hark-background-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const levelOf = async (name: string, wav: Buffer) => {
    const file = join(dir, name);
    await writeFile(file, wav);
    return measureLine(file, await readWavLayout(file));
  };

  it("hears the line's noise between turns, not the speech", async () => {
    const hiss = await levelOf("hiss.wav", turnThenPause(10 ** (-35 / 20), 1));
    assert.ok(
      Math.abs(hiss.backgroundDb - -35) < 1.5,
      `a line hissing at -35 dBFS measures ${hiss.backgroundDb}`,
    );
    const clean = await levelOf("clean.wav", turnThenPause(10 ** (-65 / 20), 1));
    assert.ok(Math.abs(clean.backgroundDb - -65) < 1.5, `a clean line measures ${clean.backgroundDb}`);
  });

  it("tells a narrow band from white noise's wide one, and a clean telephone line from the rest", async () => {
    const silent = await levelOf("silent.wav", turnThenPause(0, 1));
    assert.equal(silent.backgroundDb, -96, "digital silence is as quiet as 16 bits can say");
    assert.ok(silent.highBandDb < -50, `a 440 Hz tone has no energy above 5 kHz: ${silent.highBandDb}`);
    assert.equal(isCleanTelephoneLine(silent), true);
    const hiss = await levelOf("hiss.wav", turnThenPause(10 ** (-35 / 20), 1));
    assert.ok(hiss.highBandDb > -50, `white noise fills the band above 5 kHz: ${hiss.highBandDb}`);
    assert.equal(isCleanTelephoneLine(hiss), false);
    assert.equal(
      isCleanTelephoneLine({ backgroundDb: -96, highBandDb: -20 }),
      false,
      "clean wide-band speech",
    );
  });
});

describe("percentile", () => {
  it("takes the nearest rank, and digital silence for nothing", () => {
    assert.equal(percentile([5, 1, 4, 2, 3, 6, 7, 8, 9, 10], 0.1), 1);
    assert.equal(percentile([5, 1, 4, 2, 3, 6, 7, 8, 9, 10], 0.5), 5);
    assert.equal(percentile([], 0.1), -96);
  });
});

describe("biquadHighPass", () => {
  const tone = (hz: number, count: number) =>
    Float64Array.from({ length: count }, (_, i) => 10_000 * Math.sin((2 * Math.PI * hz * i) / RATE));
  const power = (samples: Float64Array, from: number) =>
    samples.subarray(from).reduce((sum, sample) => sum + sample * sample, 0) / (samples.length - from);

  it("passes what is above the cut-off and stops what is below", () => {
    const [high, low] = [tone(7000, 4000), tone(500, 4000)];
    const [inHigh, inLow] = [power(high, 1000), power(low, 1000)];
    biquadHighPass(5000, RATE)(high);
    biquadHighPass(5000, RATE)(low);
    assert.ok(power(high, 1000) / inHigh > 0.8, "7 kHz passes");
    assert.ok(power(low, 1000) / inLow < 0.001, "500 Hz is stopped");
  });

  it("filters a signal in chunks exactly as in one go", () => {
    const whole = tone(3000, 3000);
    const chunked = Float64Array.from(whole);
    biquadHighPass(5000, RATE)(whole);
    const filter = biquadHighPass(5000, RATE);
    filter(chunked.subarray(0, 1234));
    filter(chunked.subarray(1234));
    assert.deepEqual(chunked, whole);
  });
});
