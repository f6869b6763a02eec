/**
 * What voice features cost on a one-minute stereo call (a man's voice on the left, a woman's on the
 * right): the measuring alone (`measureVoice` over every recognised word of both decoded channels), and
 * the whole transcription with and without it. Prints the times and what was measured per speaker.
 *
 *   npm run bench:voice      (or: node bench/voice-features.ts [runs])
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pitchOf } from "../src/analytics/talk-style.ts";
import { decodeChannel } from "../src/pipeline/decode.ts";
import { measureVoice } from "../src/pipeline/measure-voice.ts";
import { transcribeMedia } from "../src/pipeline/transcribe.ts";
import { readWavLayout } from "../src/pipeline/wav.ts";
import { buildStereo, type SpeechPart } from "../test/pipeline/speech.ts";

const AGENT = [
  "thank you for calling customer support my name is john how can I help you today",
  "I am sorry to hear that let me look up your account can you give me your phone number",
  "thank you I can see there was an outage in your area last week",
  "I will reset the connection from our side and send a technician if that does not help",
  "it should take about ten minutes please restart your router after that",
  "you are welcome is there anything else I can help you with today",
  "your contract ends in march next year and you can renew it online",
];
const CALLER = [
  "hi I am calling about my internet service it has been very slow for the last two weeks",
  "sure it is five five five one two three four five six seven",
  "that explains it but the problem is still there this morning",
  "that sounds good how long will the reset take",
  "okay I will do that thank you for your help",
  "actually one more thing can you tell me when my contract ends",
  "great that is all have a nice day",
];
const TURN_MS = 5200;
const SPEAKERS = [
  { speakerName: "Agent", channel: 0 },
  { speakerName: "Caller", channel: 1 },
];
const runs = Number(process.argv[2] ?? 3);

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-voice-"));
  try {
    const file = path.join(dir, "call.wav");
    // Turns alternate: each side is silent while the other speaks.
    const left: SpeechPart[] = AGENT.flatMap((text) => [
      { text, voice: "rms" as const },
      { silenceMs: TURN_MS },
    ]);
    const right: SpeechPart[] = [
      { silenceMs: TURN_MS },
      ...CALLER.flatMap((text) => [{ text, voice: "slt" as const }, { silenceMs: TURN_MS }]),
    ];
    const { lengthMs } = await buildStereo(left, right, file);
    if (lengthMs < 60_000) throw new Error(`the call lasts ${lengthMs} ms; it must last a minute`);
    console.log(`audio: ${(lengthMs / 1000).toFixed(1)} s stereo, ${os.availableParallelism()} cores`);

    const plain: number[] = [];
    const measured: number[] = [];
    let words = await transcribeMedia(file, SPEAKERS);
    for (let run = 0; run < runs; run += 1) {
      plain.push(await timed(() => transcribeMedia(file, SPEAKERS)));
      measured.push(
        await timed(async () => (words = await transcribeMedia(file, SPEAKERS, { voiceFeatures: true }))),
      );
    }
    console.log(`transcription without voice features: median ${median(plain).toFixed(0)} ms`);
    console.log(`transcription with voice features:    median ${median(measured).toFixed(0)} ms`);

    // The measuring alone, on channels decoded beforehand: what the features add, without the noise of
    // recognition running beside it.
    const alone: number[] = [];
    const decoded = await Promise.all(
      SPEAKERS.map(async ({ channel }) => {
        const output = path.join(dir, `channel-${channel}.wav`);
        await decodeChannel(file, output, channel);
        return { output, layout: await readWavLayout(output) };
      }),
    );
    for (let run = 0; run < Math.max(runs, 5); run += 1)
      alone.push(
        await timed(() =>
          Promise.all(
            words.map((speaker, index) => {
              const channel = decoded[index];
              if (channel === undefined) throw new Error("no decoded channel");
              return measureVoice(channel.output, channel.layout, speaker.words);
            }),
          ),
        ),
      );
    const count = words.reduce((sum, speaker) => sum + speaker.words.length, 0);
    console.log(`measuring ${count} words alone: median ${median(alone).toFixed(0)} ms`);

    for (const speaker of words) {
      const pitches = speaker.words.flatMap((word) => pitchOf(word.voice ?? { frq: [] }) ?? []);
      const volumes = speaker.words.map((word) => word.voice?.v ?? 0);
      console.log(
        `${speaker.speakerName}: ${speaker.words.length} words, mean pitch ${mean(pitches).toFixed(0)} Hz, mean dominant peak ${mean(speaker.words.map((word) => word.voice?.frq[0]?.f ?? 0)).toFixed(0)} Hz, mean v ${mean(volumes).toFixed(2)} (min ${Math.min(...volumes).toFixed(2)}, max ${Math.max(...volumes).toFixed(2)})`,
      );
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

await main();
