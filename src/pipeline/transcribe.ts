import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { RecognizedWord, SpeakerWords } from "../domain.ts";
import { type ChannelSelection, decodeChannel } from "./decode.ts";
import { PocketsphinxRecognizer } from "./pocketsphinx.ts";
import { allOrAbort, createLimiter, type Limiter } from "./pool.ts";
import type { Recognizer } from "./recognizer.ts";
import { balancedTargetMs, detectSilences, planSegments, type Segment } from "./silences.ts";
import { readWavLayout, wavLengthMs, writeWavSlice } from "./wav.ts";

/**
 * Piece length. Measured on 2 cores with a one-minute flite recording: each pocketsphinx process costs
 * about 0.5 s of CPU on top of the audio (mostly loading the model), so 2 x 30 s pieces finished in
 * 4.6 s against 7.9 s for one run over the whole file, where 4 x 15 s took 4.9 s and 6 x 10 s 5.9 s.
 * Longer recordings keep ~30 s pieces: enough of them to spread evenly over the cores.
 */
export const DEFAULT_SEGMENT_TARGET_MS = 30_000;
/** Shortest piece that balancing may plan: below ~10 s the start-up cost outweighs the parallelism. */
export const DEFAULT_SEGMENT_MIN_MS = 10_000;

export interface TranscribeOptions {
  /** Defaults to Debian's pocketsphinx. */
  recognizer?: Recognizer;
  /** Engine processes running at once; defaults to the number of cores. Ignored when `limiter` is given. */
  concurrency?: number;
  /** A limiter shared with other work, so that several transcriptions together stay within the cores. */
  limiter?: Limiter;
  /** Pieces aim at this length; `Infinity` recognises the whole channel in one piece. */
  segmentTargetMs?: number;
  /**
   * No piece is longer, even if that means cutting through speech. Defaults to twice the target: a cut
   * through a word costs more than one piece taking a little longer.
   */
  segmentMaxMs?: number;
  /**
   * Shorten pieces (down to `segmentMinMs`) so that their number is a multiple of `balanceSlots`, which
   * evens out the work across cores on short files. Default true; false plans with `segmentTargetMs` as is.
   */
  balanceSegments?: boolean;
  segmentMinMs?: number;
  /**
   * The cores one speaker's pieces should fill. Defaults to the concurrency; `transcribeMedia` shares it
   * among its speakers, since two channels in parallel already keep two cores busy.
   */
  balanceSlots?: number;
  /** Passed to `detectSilences`. */
  silence?: { noiseDb?: number; minSilenceMs?: number };
  /** Where the per-call temporary directory goes; defaults to the OS temp dir. It is removed at the end. */
  tempDir?: string;
  /** Fraction of the audio recognised so far, 0..1, never decreasing; 1 when done. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface SpeakerChannel {
  speakerName: string;
  channel: ChannelSelection;
}

/**
 * Transcribes one channel (or the down-mix) of a media file: decode to 16 kHz mono, cut at silences,
 * recognise the pieces in parallel and join their words in order, with times from the start of the media.
 */
export async function transcribeSpeaker(
  input: string,
  channel: ChannelSelection,
  options: TranscribeOptions = {},
): Promise<RecognizedWord[]> {
  const recognizer = options.recognizer ?? new PocketsphinxRecognizer();
  const limiter = options.limiter ?? createLimiter(options.concurrency ?? availableParallelism());
  const targetMs = options.segmentTargetMs ?? DEFAULT_SEGMENT_TARGET_MS;
  const maxMs = options.segmentMaxMs ?? 2 * targetMs;
  const progress = monotonic(options.onProgress);
  const { signal } = options;

  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), "hark-transcribe-"));
  try {
    const decoded = join(dir, "decoded.wav");
    await limiter.run(() => decodeChannel(input, decoded, channel, { signal }));
    const layout = await readWavLayout(decoded);
    const lengthMs = wavLengthMs(layout);

    const planOptions = {
      targetMs:
        options.balanceSegments === false
          ? targetMs
          : balancedTargetMs(
              lengthMs,
              targetMs,
              options.balanceSlots ?? limiter.concurrency,
              options.segmentMinMs ?? DEFAULT_SEGMENT_MIN_MS,
            ),
      maxMs,
    };
    // Audio that stays in one piece anyway has nothing to gain from looking for silences.
    const silences =
      planSegments(lengthMs, [], planOptions).length > 1
        ? await limiter.run(() => detectSilences(decoded, { ...options.silence, lengthMs, signal }))
        : [];
    const plan = planSegments(lengthMs, silences, planOptions);

    let doneMs = 0;
    const recognizePiece = async (segment: Segment, index: number, pieceSignal: AbortSignal) => {
      pieceSignal.throwIfAborted();
      if (plan.length === 1) return recognizer.recognize(decoded, 0, { signal: pieceSignal });
      const piece = join(dir, `piece-${index}.wav`);
      await writeWavSlice(decoded, layout, segment.startMs, segment.endMs, piece);
      try {
        // Another piece may have failed while this one was being cut: do not start the engine then.
        pieceSignal.throwIfAborted();
        return await recognizer.recognize(piece, segment.startMs, { signal: pieceSignal });
      } finally {
        await rm(piece, { force: true });
      }
    };
    const pieces = await allOrAbort(
      plan.map((segment, index) => async (pieceSignal: AbortSignal) => {
        const words = await limiter.run(() => recognizePiece(segment, index, pieceSignal));
        doneMs += segment.endMs - segment.startMs;
        progress(lengthMs > 0 ? doneMs / lengthMs : 1);
        return words;
      }),
      signal,
    );
    progress(1);
    return pieces.flat();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Transcribes several speakers of one media file (both channels of a stereo call, or one speaker on the
 * down-mix) with one limiter across all of them. Results come in the order of `speakers`.
 */
export async function transcribeMedia(
  input: string,
  speakers: readonly SpeakerChannel[],
  options: TranscribeOptions = {},
): Promise<SpeakerWords[]> {
  const limiter = options.limiter ?? createLimiter(options.concurrency ?? availableParallelism());
  const progress = monotonic(options.onProgress);
  const fractions = speakers.map(() => 0);

  const results = await allOrAbort(
    speakers.map((speaker, index) => async (signal: AbortSignal) => {
      const words = await transcribeSpeaker(input, speaker.channel, {
        ...options,
        limiter,
        balanceSlots: options.balanceSlots ?? Math.ceil(limiter.concurrency / Math.max(1, speakers.length)),
        signal,
        onProgress: (fraction) => {
          fractions[index] = fraction;
          progress(fractions.reduce((sum, f) => sum + f, 0) / fractions.length);
        },
      });
      return { speakerName: speaker.speakerName, channel: channelIndex(speaker.channel), words };
    }),
    options.signal,
  );
  progress(1);
  return results;
}

/** `SpeakerWords.channel` for a selection: the down-mix is reported as channel 0. */
export function channelIndex(channel: ChannelSelection): number {
  return channel === "mix" ? 0 : channel;
}

/** Wraps a progress callback so that it only ever hears increasing fractions within 0..1. */
function monotonic(callback: ((fraction: number) => void) | undefined): (fraction: number) => void {
  let last = -1;
  return (fraction) => {
    const value = Math.min(1, Math.max(0, fraction));
    if (!callback || value <= last) return;
    last = value;
    callback(value);
  };
}
