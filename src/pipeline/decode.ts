import { CommandFailedError, run, stderrTail } from "./run.ts";
import { toolFault } from "../domain/server-faults.ts";

/** What the recogniser accepts: pocketsphinx's en-us model is trained on 16 kHz speech. */
export const RECOGNIZER_SAMPLE_RATE = 16000;

/** A channel index of the input (0 = left), or `"mix"` for all channels down-mixed to one. */
export type ChannelSelection = number | "mix";

export class DecodeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DecodeError";
  }
}

export interface DecodeOptions {
  signal?: AbortSignal;
  /**
   * Decoding stops once it has written this much audio: a header can claim a short length and hold days,
   * and 16 kHz PCM of a day is 2.8 GB of temp space. The caller tells a cut from a whole by the length.
   */
  maxLengthMs?: number;
}

/** The ffmpeg audio filter arguments that reduce the input to the selected channel. */
export function channelFilterArgs(channel: ChannelSelection): string[] {
  if (channel === "mix") return ["-ac", "1"];
  if (!Number.isInteger(channel) || channel < 0) throw new RangeError(`invalid channel index ${channel}`);
  // pan rather than -ac: a stereo call keeps one speaker per channel, and mixing them ruins recognition.
  return ["-af", `pan=mono|c0=c${channel}`];
}

/**
 * Writes one channel of the first audio stream of `input` (or the down-mix) to `output` as a 16 kHz mono
 * 16-bit PCM WAV. Rejects with a `DecodeError` that carries the end of ffmpeg's stderr when ffmpeg could
 * not make sense of the input; with the `CommandFailedError` itself when the fault is the server's (a
 * full disk under `output`, ffmpeg killed), since that is no reason to blame the media.
 */
export async function decodeChannel(
  input: string,
  output: string,
  channel: ChannelSelection,
  options: DecodeOptions = {},
): Promise<void> {
  const args = [
    "-nostdin",
    "-hide_banner",
    "-v",
    "error",
    "-y",
    "-i",
    input,
    "-map",
    "0:a:0",
    ...channelFilterArgs(channel),
    ...(options.maxLengthMs === undefined ? [] : ["-t", String(options.maxLengthMs / 1000)]),
    "-ar",
    String(RECOGNIZER_SAMPLE_RATE),
    "-c:a",
    "pcm_s16le",
    // bitexact keeps the header to the plain 44 bytes (no LIST/INFO chunk naming the encoder).
    "-fflags",
    "+bitexact",
    "-flags:a",
    "+bitexact",
    "-f",
    "wav",
    output,
  ];
  try {
    if (channel !== "mix") await assertChannelExists(input, channel, options);
    await run("ffmpeg", args, options);
  } catch (error) {
    if (error instanceof CommandFailedError && toolFault(error) === "input") {
      const which = channel === "mix" ? "the down-mixed audio" : `channel ${channel}`;
      const reason = stderrTail(error.stderr.replaceAll(input, "the media"), 300) || "no reason given";
      throw new DecodeError(`cannot decode ${which} (${reason})`, { cause: error });
    }
    throw error;
  }
}

/** ffmpeg's pan filter quietly outputs silence for a channel the input lacks: check beforehand. */
async function assertChannelExists(input: string, channel: number, options: DecodeOptions): Promise<void> {
  const { stdout } = await run(
    "ffprobe",
    ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels", "-of", "csv=p=0", input],
    options,
  );
  const channels = Number.parseInt(stdout.trim(), 10);
  if (!(channel < channels)) {
    const has = Number.isNaN(channels) ? "has no audio stream" : `has ${channels} channel(s)`;
    throw new DecodeError(`cannot decode channel ${channel}: the media ${has}`);
  }
}
