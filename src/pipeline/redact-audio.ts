import { copyFile } from "node:fs/promises";
import { dirname, extname, join } from "node:path";
import type { AudioRedactor } from "../domain/configuration.ts";
import type { Occurrence } from "../domain/transcript.ts";
import { CommandFailedError, run } from "./run.ts";

/**
 * The redacted copy of a recording: a tone over every detected range, on every channel (VoiceBase's
 * stereo guide: "Audio redaction of PCI will redact the audio in both channels"), the rest untouched.
 */

export class RedactAudioError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RedactAudioError";
  }
}

export interface RedactAudioOptions {
  /** Defaults to `ffprobe` beside `ffmpegPath` when that is a path, else `ffprobe` on PATH. */
  ffprobePath?: string;
  signal?: AbortSignal;
}

/** What the redacted file must keep of the input's first audio stream. */
interface AudioStream {
  codecName: string;
  sampleFormat?: string;
  sampleRate?: number;
  bitRate?: number;
  /** ffprobe's demuxer names, e.g. "wav" or "mov,mp4,m4a,3gp,3g2,mj2". */
  formatName?: string;
}

/**
 * The ffmpeg audio filter that replaces the samples within `ranges` (ms) by a sine of `tone` Hz at `gain`
 * (0..1 of full scale) on every channel and passes the others through unchanged. One `aeval` expression
 * does it for any channel count and sample rate, so nothing about the input has to be known beforehand.
 * `sampleFormat` (ffmpeg's name, e.g. "s16") converts back to the input's sample format, which `aeval`
 * (working in doubles) would otherwise leave to the encoder's choice.
 */
export function redactionFilter(
  ranges: readonly Occurrence[],
  redactor: AudioRedactor,
  sampleFormat?: string,
): string {
  checkRedactor(redactor);
  const within = ranges
    .filter(({ s, e }) => {
      if (!Number.isFinite(s) || !Number.isFinite(e)) throw new RangeError(`invalid range ${s}–${e} ms`);
      return e > s;
    })
    .map(({ s, e }) => `between(t,${seconds(s)},${seconds(e)})`);
  if (within.length === 0) throw new RangeError("no range to redact");
  const beep = `${redactor.gain}*sin(2*PI*${redactor.tone}*t)`;
  // Quoted so that the commas of the expression do not split the filter graph; no quote can occur inside.
  const filter = `aeval=exprs='if(${within.join("+")},${beep},val(ch))':c=same`;
  return sampleFormat === undefined ? filter : `${filter},aformat=sample_fmts=${sampleFormat}`;
}

/**
 * Writes to `output` the recording at `input` with a beep over `ranges` (ms). The output keeps the
 * input's codec, sample format, sample rate, channels and bit rate; its container is the one `output`'s
 * extension names, or without one the input's. Other streams (a video, cover art) are copied as they are.
 * Without ranges the output is a plain copy of the input. Rejects with a `RedactAudioError` carrying the
 * end of ffmpeg's stderr, e.g. when this ffmpeg cannot encode the input's codec.
 */
export async function redactAudio(
  input: string,
  output: string,
  ranges: readonly Occurrence[],
  redactor: AudioRedactor,
  ffmpegPath = "ffmpeg",
  options: RedactAudioOptions = {},
): Promise<void> {
  checkRedactor(redactor);
  if (!ranges.some(({ s, e }) => e > s)) {
    await copyFile(input, output);
    return;
  }
  const { signal } = options;
  try {
    const stream = await probeAudio(input, options.ffprobePath ?? siblingProbe(ffmpegPath), signal);
    if (stream.sampleRate !== undefined && redactor.tone >= stream.sampleRate / 2) {
      throw new RedactAudioError(
        `a ${redactor.tone} Hz tone cannot be heard in audio sampled at ${stream.sampleRate} Hz; use a tone below ${stream.sampleRate / 2} Hz`,
      );
    }
    const container = extname(output) === "" && stream.formatName ? ["-f", stream.formatName] : [];
    const bitRate = stream.bitRate === undefined ? [] : ["-b:a", String(stream.bitRate)];
    await run(
      ffmpegPath,
      [
        "-nostdin",
        "-hide_banner",
        "-v",
        "error",
        "-y",
        "-i",
        input,
        "-map",
        "0",
        "-c",
        "copy",
        "-af",
        redactionFilter(ranges, redactor, stream.sampleFormat),
        "-c:a",
        stream.codecName,
        ...bitRate,
        ...container,
        output,
      ],
      { signal },
    );
  } catch (error) {
    if (error instanceof CommandFailedError) {
      throw new RedactAudioError(`cannot redact the audio: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

function checkRedactor({ tone, gain }: AudioRedactor): void {
  if (!Number.isFinite(tone) || tone <= 0)
    throw new RangeError(`audio redaction tone must be above 0 Hz, not ${tone}`);
  if (!Number.isFinite(gain) || gain < 0 || gain > 1) {
    throw new RangeError(`audio redaction gain must be between 0 and 1, not ${gain}`);
  }
}

async function probeAudio(input: string, ffprobePath: string, signal?: AbortSignal): Promise<AudioStream> {
  const { stdout } = await run(
    ffprobePath,
    [
      "-v",
      "error",
      "-select_streams",
      "a:0",
      "-show_entries",
      "stream=codec_name,sample_fmt,sample_rate,bit_rate:format=format_name",
      "-of",
      "json",
      input,
    ],
    { signal },
  );
  const probed = JSON.parse(stdout) as {
    streams?: { codec_name?: string; sample_fmt?: string; sample_rate?: string; bit_rate?: string }[];
    format?: { format_name?: string };
  };
  const stream = probed.streams?.[0];
  if (stream?.codec_name === undefined)
    throw new RedactAudioError("cannot redact the audio: the media has no audio stream");
  return {
    codecName: stream.codec_name,
    sampleFormat: stream.sample_fmt,
    sampleRate: positive(stream.sample_rate),
    bitRate: positive(stream.bit_rate),
    // The first of the demuxer names is also a muxer for the common audio formats (wav, mp3, flac, ogg).
    formatName: probed.format?.format_name?.split(",")[0],
  };
}

function positive(value: string | undefined): number | undefined {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** ffmpeg and ffprobe are shipped together, so a configured ffmpeg path says where ffprobe is. */
function siblingProbe(ffmpegPath: string): string {
  return ffmpegPath.includes("/") ? join(dirname(ffmpegPath), "ffprobe") : "ffprobe";
}

function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}
