import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import type { RecognizedWord, SpeakerWords } from "../domain/transcript.ts";
import { type ChannelSelection, decodeChannel } from "./decode.ts";
import { measureVoice } from "./measure-voice.ts";
import { isCleanTelephoneLine, measureLine } from "./line-measure.ts";
import { createPhaseTimer, type PhaseTimer } from "./phase-timer.ts";
import { addNoiseFloorToWav } from "./noise-floor.ts";
import { fastestPlan } from "./piece-plan.ts";
import { MediaTooLongError } from "./probe.ts";
import { PocketsphinxRecognizer } from "./pocketsphinx.ts";
import { allOrAbort, createLimiter, type Limiter } from "./pool.ts";
import type { PronouncedTerm } from "./pronunciations.ts";
import type { Recognizer } from "./recognizer.ts";
import { detectSilences, planSegments, type Segment } from "./silences.ts";
import { transcribeDirPrefix } from "./temp-dirs.ts";
import { readWavLayout, wavLengthMs, writeWavSlice } from "./wav.ts";

/**
 * Piece planning, measured on 2 cores with one-minute flite recordings: each pocketsphinx process costs
 * about 0.35 s before it recognises anything (loading the model), about what it needs for 2.5 s of
 * audio; below ~10 s a piece's start-up outweighs what parallelism gains. When one speaker has the cores
 * to itself, pieces longer than a minute are cut even without a silence, so a long recording spreads over
 * the cores; when the speakers already fill them, each channel stays whole.
 */
export const DEFAULT_STARTUP_MS = 2_500;
export const DEFAULT_SEGMENT_MIN_MS = 10_000;
export const DEFAULT_SEGMENT_MAX_MS = 60_000;

export interface TranscribeOptions {
  /** Defaults to Debian's pocketsphinx. */
  recognizer?: Recognizer;
  /** Engine processes running at once; defaults to the number of cores. Ignored when `limiter` is given. */
  concurrency?: number;
  /** A limiter shared with other work, so that several transcriptions together stay within the cores. */
  limiter?: Limiter;
  /**
   * Pieces aim at this length (`Infinity`: the whole channel in one piece). Unset: the plan that
   * finishes soonest on the cores (`fastestPlan`).
   */
  segmentTargetMs?: number;
  /** No piece is longer, even if that means cutting through speech. */
  segmentMaxMs?: number;
  segmentMinMs?: number;
  /** The engine's start-up cost as a length of audio; see `DEFAULT_STARTUP_MS`. */
  startupMs?: number;
  /**
   * The cores one speaker's pieces should fill. Defaults to the concurrency; `transcribeMedia` shares it
   * among its speakers, since two channels in parallel already keep two cores busy.
   */
  balanceSlots?: number;
  /** Measure each word's voice features (`RecognizedWord.voice`) on the decoded channel. */
  voiceFeatures?: boolean;
  /**
   * Longer audio is refused with `MediaTooLongError`: decoding stops just past it, whatever the container
   * claimed, so a job's temp space stays within what this length takes as 16 kHz PCM.
   */
  maxLengthMs?: number;
  /** Passed to `detectSilences`. */
  silence?: { noiseDb?: number; minSilenceMs?: number };
  /** Where the per-call temporary directory goes; defaults to the OS temp dir. It is removed at the end. */
  tempDir?: string;
  /** Fraction of the audio recognised so far, 0..1, never decreasing; 1 when done. */
  onProgress?: (fraction: number) => void;
  /**
   * Times the `decode`, `silenceScan`, `recognition` and (voice features) `analysis` work, not the waits
   * for a core. Defaults to a timer of its own that nobody reads.
   */
  phases?: PhaseTimer;
  /** Terms the recogniser listens for in every piece (`RecognizeOptions.vocabulary`). */
  vocabulary?: readonly PronouncedTerm[];
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
  const progress = monotonic(options.onProgress);
  const phases = options.phases ?? createPhaseTimer(() => performance.now());
  const { signal } = options;
  const vocabulary = options.vocabulary?.length ? { vocabulary: options.vocabulary } : {};

  // Named for this process, so that a later start can tell a crash's leftover from a directory in use.
  const dir = await mkdtemp(join(options.tempDir ?? tmpdir(), transcribeDirPrefix()));
  try {
    // Always decoded, even a 16 kHz mono WAV: a clean telephone line gets a noise floor in place.
    const decoded = join(dir, "decoded.wav");
    const { maxLengthMs } = options;
    // One second past the limit: decoded audio that reaches it is too long, not merely at the limit.
    const limit = maxLengthMs === undefined ? {} : { maxLengthMs: maxLengthMs + 1000 };
    await limiter.run(() =>
      phases.time("decode", () => decodeChannel(input, decoded, channel, { signal, ...limit })),
    );
    const layout = await readWavLayout(decoded);
    const lengthMs = wavLengthMs(layout);
    if (maxLengthMs !== undefined && lengthMs > maxLengthMs)
      throw new MediaTooLongError(lengthMs, maxLengthMs);

    const slots = options.balanceSlots ?? limiter.concurrency;
    const minMs = options.segmentMinMs ?? DEFAULT_SEGMENT_MIN_MS;
    const maxMs =
      options.segmentMaxMs ??
      (options.segmentTargetMs === undefined ? DEFAULT_SEGMENT_MAX_MS : 2 * options.segmentTargetMs);
    // A speaker with no core of its own to fill (the channels of a call already fill them) keeps its whole
    // channel in one piece: every cut costs the decoder what it had learnt of the speaker and the line
    // (issue 15). Audio that stays in one piece anyway has nothing to gain from looking for silences.
    const onePiece =
      options.segmentTargetMs === Number.POSITIVE_INFINITY ||
      (options.segmentTargetMs === undefined && slots < 2) ||
      (lengthMs <= maxMs && lengthMs < 2 * minMs);
    // These passes over the decoded channel count as the silence scan. The line is measured here while
    // ffmpeg looks for silences in a process of its own; the floor goes in after both, so that it cannot
    // hide a silence.
    const { cleanTelephoneLine, silences } = await limiter.run(() =>
      phases.time("silenceScan", async () => {
        const [line, silences] = await Promise.all([
          measureLine(decoded, layout, signal),
          onePiece ? [] : detectSilences(decoded, { ...options.silence, lengthMs, signal }),
        ]);
        const clean = isCleanTelephoneLine(line);
        if (clean) await addNoiseFloorToWav(decoded, layout, signal);
        return { cleanTelephoneLine: clean, silences };
      }),
    );
    const plan: Segment[] = onePiece
      ? [{ startMs: 0, endMs: lengthMs }]
      : options.segmentTargetMs !== undefined
        ? planSegments(lengthMs, silences, { targetMs: options.segmentTargetMs, maxMs })
        : fastestPlan(lengthMs, silences, {
            slots,
            startupMs: options.startupMs ?? DEFAULT_STARTUP_MS,
            minMs,
            maxMs,
          });

    // How much of each piece is recognised, so that a long piece's progress moves before it ends.
    const heardMs = plan.map(() => 0);
    const hear = (index: number, segment: Segment, ms: number) => {
      heardMs[index] = Math.min(segment.endMs - segment.startMs, Math.max(0, ms));
      progress(lengthMs > 0 ? heardMs.reduce((sum, heard) => sum + heard, 0) / lengthMs : 1);
    };
    const recognizePiece = async (segment: Segment, index: number, pieceSignal: AbortSignal) => {
      pieceSignal.throwIfAborted();
      const onHeard = (untilMs: number) => hear(index, segment, untilMs - segment.startMs);
      const engine = { signal: pieceSignal, onHeard, cleanTelephoneLine, ...vocabulary };
      if (plan.length === 1) return recognizer.recognize(decoded, 0, engine);
      const piece = join(dir, `piece-${index}.wav`);
      await writeWavSlice(decoded, layout, segment.startMs, segment.endMs, piece);
      try {
        // Another piece may have failed while this one was being cut: do not start the engine then.
        pieceSignal.throwIfAborted();
        return await recognizer.recognize(piece, segment.startMs, engine);
      } finally {
        await rm(piece, { force: true });
      }
    };
    const pieces = await allOrAbort(
      plan.map((segment, index) => async (pieceSignal: AbortSignal) => {
        const words = await limiter.run(() =>
          phases.time("recognition", () => recognizePiece(segment, index, pieceSignal)),
        );
        hear(index, segment, segment.endMs - segment.startMs);
        return words;
      }),
      signal,
    );
    const words = pieces.flat();
    // Measured here, while the decoded channel exists, rather than decoding the media a second time.
    const measured = options.voiceFeatures
      ? await phases.time("analysis", () => measureVoice(decoded, layout, words, signal))
      : words;
    progress(1);
    return measured;
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
