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

  let output: FfprobeOutput;
  try {
    const { stdout } = await run(
      "ffprobe",
      ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path],
      options,
    );
    output = JSON.parse(stdout) as FfprobeOutput;
  } catch (error) {
    if (error instanceof CommandFailedError && toolFault(error) === "input") {
      const reason = stderrTail(error.stderr.replaceAll(`${path}: `, "").replaceAll(path, "the media"), 300);
      throw new UndecodableMediaError(`not a media file ffmpeg can read (${reason || "no reason given"})`, {
        cause: error,
      });
    }
    throw error;
  }

  const audio = output.streams?.find((stream) => stream.codec_type === "audio");
  if (!audio) {
    const kinds = (output.streams ?? []).map((stream) => stream.codec_type ?? "unknown");
    const found = kinds.length > 0 ? `only ${kinds.join(", ")}` : "no streams at all";
    throw new UndecodableMediaError(`the media has no audio stream (${found})`);
  }
  const channels = audio.channels ?? 0;
  if (channels < 1) throw new UndecodableMediaError("the audio stream has no channels");

  const lengthMs =
    secondsToMs(audio.duration) ??
    secondsToMs(output.format?.duration) ??
    (await decodedLengthMs(path, options));
  if (lengthMs <= 0) throw new UndecodableMediaError("the audio has zero length");

  return {
    lengthMs,
    channels,
    sampleRate: Number(audio.sample_rate ?? 0),
    codec: audio.codec_name ?? "unknown",
    formatName: output.format?.format_name ?? "unknown",
  };
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
