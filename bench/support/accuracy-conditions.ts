/**
 * The recording conditions of the accuracy benchmark, each rendered by ffmpeg from a spoken dialogue's
 * two tracks: what Hark is given (`upload`) and what the bare engine is given (`bare`: the whole 16 kHz
 * file, or each channel of the call resampled to 16 kHz, as the table measured it). Rendered
 * files sit next to the tracks in the corpus cache, so a second run renders nothing.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { run } from "../../src/pipeline/run.ts";
import { pcm, type Span, type SpokenDialogue, writeWav } from "./accuracy-corpus.ts";

const TELEPHONE_RATE = 8000;
/** 300–3400 Hz, the telephone band; two passes of each 2-pole filter make the edges steeper. */
const BAND = "highpass=f=300,highpass=f=300,lowpass=f=3400,lowpass=f=3400";
const NOISE_SNR_DB = 15;
const QUIET_DBFS = -30;

export interface Condition {
  name: string;
  /** Names the condition's files in the cache. */
  key: string;
  /** Two channels, agent left and caller right: Hark is told with `ingest.stereo`. */
  stereo: boolean;
  /** Renders the condition into `dir`; returns the upload and the bare engine's 16 kHz mono inputs. */
  render(dialogue: SpokenDialogue, dir: string): Promise<{ upload: string; bare: string[] }>;
}

/** A lossy telephone codec this ffmpeg can write, the first of GSM then AMR-NB, or why there is none. */
export async function lossyCodec(): Promise<{ encoder: string; format: string } | { missing: string }> {
  const { stdout } = await run("ffmpeg", ["-hide_banner", "-encoders"]);
  for (const [encoder, format] of [
    ["libgsm", "gsm"],
    ["gsm", "gsm"],
    ["libopencore_amrnb", "amr"],
    ["amr_nb", "amr"],
  ] as const) {
    if (new RegExp(`^\\s*A\\S*\\s+${encoder}\\s`, "m").test(stdout)) return { encoder, format };
  }
  return { missing: "this ffmpeg has no gsm, libgsm, amr_nb or libopencore_amrnb encoder" };
}

export function conditions(codec: { encoder: string; format: string } | undefined): Condition[] {
  const list: Condition[] = [
    {
      name: "16 kHz mono mix",
      key: "mono16k",
      stereo: false,
      async render(dialogue, dir) {
        const upload = path.join(dir, "mono16k.wav");
        await ffmpeg(
          ["-i", dialogue.agentFile, "-i", dialogue.callerFile],
          ["-filter_complex", "[0:a][1:a]amix=inputs=2:normalize=0", upload],
        );
        return { upload, bare: [upload] };
      },
    },
    telephone("8 kHz mu-law stereo, 300-3400 Hz", "mulaw", async (channel) => channel.samples),
    telephone(`same + noise at ${NOISE_SNR_DB} dB SNR`, "noise15", async (channel, dir) => {
      const noiseFile = path.join(dir, `noise-${channel.name}.wav`);
      const seed = channel.name === "left" ? 1 : 2;
      const seconds = channel.samples.length / 2 / TELEPHONE_RATE;
      // The same band as the speech: line noise the phone network carried, not hiss it filtered away.
      await ffmpeg(
        [
          "-f",
          "lavfi",
          "-i",
          `anoisesrc=color=white:sample_rate=${TELEPHONE_RATE}:seed=${seed}:d=${seconds}`,
        ],
        ["-af", BAND, "-ar", String(TELEPHONE_RATE), "-c:a", "pcm_s16le", noiseFile],
      );
      const noise = await pcm(noiseFile);
      const gain = rms(channel.samples, channel.speech) / rms(noise) / 10 ** (NOISE_SNR_DB / 20);
      return mix(channel.samples, noise, gain);
    }),
    telephone(`quiet: speech at ${QUIET_DBFS} dBFS`, "quiet30", async (channel) => {
      const gain = (32768 * 10 ** (QUIET_DBFS / 20)) / rms(channel.samples, channel.speech);
      return mix(channel.samples, Buffer.alloc(0), 0, gain);
    }),
  ];
  if (codec !== undefined)
    list.push(
      telephone(
        `${codec.format.toUpperCase()} (${codec.encoder}) leg`,
        codec.format,
        async (channel, dir) => {
          // Each party's leg goes through the codec; the recorder keeps the decoded audio as mu-law stereo.
          const coded = path.join(dir, `${channel.name}.${codec.format}`);
          const decoded = path.join(dir, `${channel.name}-decoded.wav`);
          const amr = codec.format === "amr" ? ["-b:a", "12.2k"] : [];
          await ffmpeg(["-i", channel.file], ["-c:a", codec.encoder, ...amr, "-f", codec.format, coded]);
          await ffmpeg(["-i", coded], ["-ar", String(TELEPHONE_RATE), "-c:a", "pcm_s16le", decoded]);
          return await pcm(decoded);
        },
      ),
    );
  return list;
}

interface Channel {
  name: "left" | "right";
  /** The band-limited 8 kHz 16-bit channel, as a file and as samples. */
  file: string;
  samples: Buffer;
  /** Where this channel's party speaks. */
  speech: Span[];
}

/**
 * A two-channel telephone condition: each party's track band-limited to 300–3400 Hz at 8 kHz, changed by
 * `alter`, and written as 8 kHz G.711 mu-law stereo (agent left, caller right).
 */
function telephone(
  name: string,
  key: string,
  alter: (channel: Channel, dir: string) => Promise<Buffer>,
): Condition {
  return {
    name,
    key,
    stereo: true,
    async render(dialogue, dir) {
      const work = path.join(dir, key);
      await fs.mkdir(work, { recursive: true });
      const sides = [
        { name: "left", track: dialogue.agentFile, speech: dialogue.agentSpeech },
        { name: "right", track: dialogue.callerFile, speech: dialogue.callerSpeech },
      ] as const;
      const altered: string[] = [];
      for (const side of sides) {
        const file = path.join(work, `${side.name}-band.wav`);
        await ffmpeg(
          ["-i", side.track],
          ["-af", BAND, "-ar", String(TELEPHONE_RATE), "-c:a", "pcm_s16le", file],
        );
        const samples = await alter(
          { name: side.name, file, samples: await pcm(file), speech: side.speech },
          work,
        );
        const out = path.join(work, `${side.name}-altered.wav`);
        await writeWav(samples, out, TELEPHONE_RATE);
        altered.push(out);
      }
      const upload = path.join(dir, `${key}.wav`);
      await ffmpeg(
        ["-i", altered[0]!, "-i", altered[1]!],
        ["-filter_complex", "[0:a][1:a]amerge=inputs=2", "-c:a", "pcm_mulaw", upload],
      );
      // The bare engine hears each channel of the very file Hark is given, resampled to 16 kHz.
      const bare = [0, 1].map((channel) => path.join(work, `bare-${channel}.wav`));
      for (const [channel, file] of bare.entries())
        await ffmpeg(
          ["-i", upload],
          ["-af", `pan=mono|c0=c${channel}`, "-ar", "16000", "-c:a", "pcm_s16le", file],
        );
      return { upload, bare };
    },
  };
}

/** Renders `condition` for `dialogue`, or reads where an earlier run put its files. */
export async function rendered(
  condition: Condition,
  dialogue: SpokenDialogue,
): Promise<{ upload: string; bare: string[] }> {
  const done = path.join(dialogue.dir, `${condition.key}.json`);
  const cached = await fs.readFile(done, "utf8").catch(() => undefined);
  if (cached !== undefined) return JSON.parse(cached) as { upload: string; bare: string[] };
  const files = await condition.render(dialogue, dialogue.dir);
  await fs.writeFile(done, JSON.stringify(files));
  return files;
}

/** Root mean square of 16-bit samples, over `spans` (ms at 8 kHz) if given, else over all of them. */
export function rms(samples: Buffer, spans?: readonly Span[]): number {
  const count = samples.length / 2;
  const ranges = spans?.map((span) => [
    Math.floor((span.startMs * TELEPHONE_RATE) / 1000),
    Math.min(count, Math.ceil((span.endMs * TELEPHONE_RATE) / 1000)),
  ]) ?? [[0, count]];
  let sum = 0;
  let n = 0;
  for (const [start, end] of ranges)
    for (let i = start!; i < end!; i++) {
      const value = samples.readInt16LE(i * 2);
      sum += value * value;
      n++;
    }
  return n === 0 ? 0 : Math.sqrt(sum / n);
}

/** `signal * signalGain + noise * noiseGain`, clipped to 16 bits; `noise` may be shorter (zeros after). */
function mix(signal: Buffer, noise: Buffer, noiseGain: number, signalGain = 1): Buffer {
  const out = Buffer.alloc(signal.length);
  for (let i = 0; i < signal.length / 2; i++) {
    const n = i * 2 < noise.length ? noise.readInt16LE(i * 2) : 0;
    const value = Math.round(signal.readInt16LE(i * 2) * signalGain + n * noiseGain);
    out.writeInt16LE(Math.max(-32768, Math.min(32767, value)), i * 2);
  }
  return out;
}

async function ffmpeg(inputs: string[], outputs: string[]): Promise<void> {
  await run("ffmpeg", ["-nostdin", "-hide_banner", "-v", "error", "-y", ...inputs, ...outputs]);
}
