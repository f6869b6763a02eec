import { stat } from "node:fs/promises";
import { CommandFailedError, run, stderrTail } from "./run.ts";
import { toolFault } from "../domain/server-faults.ts";

export interface MediaProbe {
  /** Length of the first audio stream, in milliseconds. */
  lengthMs: number;
  channels: number;
  sampleRate: number;
  /** ffmpeg's codec name of the first audio stream, e.g. `pcm_s16le`, `mp3`, `opus`. */
  codec: string;
  /** ffmpeg's container name, e.g. `wav`, `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
}

/** The upload is not something Hark can transcribe; `message` says why in words a client can act on. */
export class UndecodableMediaError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UndecodableMediaError";
  }
}

/** The media is longer than Hark takes (`maxLengthMs`); `lengthMs` is what was found, at least. */
export class MediaTooLongError extends Error {
  readonly lengthMs: number;
  readonly maxLengthMs: number;
  constructor(lengthMs: number, maxLengthMs: number) {
    super(
      `The media is ${describeSeconds(lengthMs)} long${lengthMs > maxLengthMs ? "" : " or more"}; at most ${describeSeconds(maxLengthMs)} is accepted (HARK_MAX_MEDIA_SECONDS): upload shorter media`,
    );
    this.name = "MediaTooLongError";
    this.lengthMs = lengthMs;
    this.maxLengthMs = maxLengthMs;
  }
}

function describeSeconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  channels?: number;
  sample_rate?: string;
  duration?: string;
}

interface FfprobeOutput {
  streams?: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

export interface ProbeOptions {
  signal?: AbortSignal;
  /**
   * Longer media is refused with `MediaTooLongError`, from the container's own duration when it has one;
   * when it has none, the decode that measures the length stops just past this.
   */
  maxLengthMs?: number;
}

/**
 * Describes the first audio stream of a media file. Rejects with `UndecodableMediaError` when the file
 * is empty, is not media ffmpeg understands, has no audio, or has audio of zero length; with the
 * `CommandFailedError` when ffprobe failed for a reason of the server's (killed, out of memory).
 */
export async function probeMedia(path: string, options: ProbeOptions = {}): Promise<MediaProbe> {
  // A missing file is an internal fault, not a bad upload: let stat's ENOENT through.
  const { size } = await stat(path);
  if (size === 0) throw new UndecodableMediaError("the media file is empty");

  const output = await ffprobe(path, options);
  const audio = output.streams?.find((stream) => stream.codec_type === "audio");
  if (!audio) {
    const kinds = (output.streams ?? []).map((stream) => stream.codec_type ?? "unknown");
    const found = kinds.length > 0 ? `only ${kinds.join(", ")}` : "no streams at all";
    throw new UndecodableMediaError(`the media has no audio stream (${found})`);
  }
  const channels = audio.channels ?? 0;
  if (channels < 1) throw new UndecodableMediaError("the audio stream has no channels");

  const lengthMs = declaredLengthMs(output) ?? (await decodedLengthMs(path, options));
  if (lengthMs <= 0) throw new UndecodableMediaError("the audio has zero length");
  if (options.maxLengthMs !== undefined && lengthMs > options.maxLengthMs) {
    throw new MediaTooLongError(lengthMs, options.maxLengthMs);
  }

  return {
    lengthMs,
    channels,
    sampleRate: Number(audio.sample_rate ?? 0),
    codec: audio.codec_name ?? "unknown",
    formatName: output.format?.format_name ?? "unknown",
  };
}

/**
 * The length the container declares for its first audio stream, without decoding anything: cheap enough
 * for the upload to check before answering. Undefined when the file is not media ffprobe reads, or
 * says no length (a streamed recording); then processing measures it.
 */
export async function declaredMediaLengthMs(
  path: string,
  options: ProbeOptions = {},
): Promise<number | undefined> {
  try {
    return declaredLengthMs(await ffprobe(path, options));
  } catch (error) {
    if (error instanceof UndecodableMediaError) return undefined;
    throw error;
  }
}

async function ffprobe(path: string, options: ProbeOptions): Promise<FfprobeOutput> {
  try {
    const { stdout } = await run(
      "ffprobe",
      ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path],
      options,
    );
    return JSON.parse(stdout) as FfprobeOutput;
  } catch (error) {
    if (error instanceof CommandFailedError && toolFault(error) === "input") {
      const reason = stderrTail(error.stderr.replaceAll(`${path}: `, "").replaceAll(path, "the media"), 300);
      throw new UndecodableMediaError(`not a media file ffmpeg can read (${reason || "no reason given"})`, {
        cause: error,
      });
    }
    throw error;
  }
}

function declaredLengthMs(output: FfprobeOutput): number | undefined {
  const audio = output.streams?.find((stream) => stream.codec_type === "audio");
  if (!audio) return undefined;
  return secondsToMs(audio.duration) ?? secondsToMs(output.format?.duration);
}

function secondsToMs(seconds: string | undefined): number | undefined {
  if (seconds === undefined) return undefined;
  const value = Number(seconds);
  return Number.isFinite(value) ? Math.round(value * 1000) : undefined;
}

/**
 * Streamed containers (a browser's WebM recording, a WAV whose header was never finalised) carry no
 * duration, so the only way to know the length is to decode the audio once.
 */
async function decodedLengthMs(path: string, options: ProbeOptions): Promise<number> {
  let stdout: string;
  try {
    ({ stdout } = await run(
      "ffmpeg",
      [
        "-nostdin",
        "-v",
        "error",
        "-i",
        path,
        "-map",
        "0:a:0",
        // A file that says no length may hold days of audio: a second past the limit settles it.
        ...(options.maxLengthMs === undefined ? [] : ["-t", String(options.maxLengthMs / 1000 + 1)]),
        "-f",
        "null",
        "-progress",
        "pipe:1",
        "-nostats",
        "-",
      ],
      options,
    ));
  } catch (error) {
    if (error instanceof CommandFailedError && toolFault(error) === "input") {
      throw new UndecodableMediaError("the audio stream cannot be decoded", { cause: error });
    }
    throw error;
  }
  const matches = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)];
  const last = matches.at(-1)?.[1];
  return last === undefined ? 0 : Math.round(Number(last) / 1000);
}
