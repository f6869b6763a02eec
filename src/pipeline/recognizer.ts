import type { RecognizedWord } from "../domain/transcript.ts";
import type { PronouncedTerm } from "./pronunciations.ts";

export interface RecognizeOptions {
  /** Aborting stops the recognition (kills the engine's process) and rejects with the abort reason. */
  signal?: AbortSignal;
  /**
   * Hears, as recognition goes on, how far into the media (ms, `offsetMs` included) the engine has
   * recognised: a long file's progress. Engines that cannot tell say nothing until they end.
   */
  onHeard?: (untilMs: number) => void;
  /**
   * The audio is a clean telephone line (`isCleanTelephoneLine`): narrow-band, quiet between turns. An
   * engine trained on wide-band speech may read it with settings of its own.
   */
  cleanTelephoneLine?: boolean;
  /**
   * Terms to listen for beside the engine's own vocabulary (custom vocabularies, spotting keywords): a
   * term heard replaces the words recognised where it was said. None: the engine as it is.
   */
  vocabulary?: readonly PronouncedTerm[];
}

/**
 * A speech recogniser: the seam between the pipeline and a particular engine, so that the pipeline can
 * be tested with a fake and another engine can replace pocketsphinx.
 *
 * Input is a 16 kHz mono 16-bit PCM WAV. Output is the spoken words in order, without silence or filler
 * markers, lower-case as the engine's dictionary spells them, with confidence in 0..1 and times in whole
 * milliseconds from the start of the media: the times within the file plus `offsetMs` (default 0), which
 * is where the file starts in the media when it is a piece of a longer recording.
 */
export interface Recognizer {
  recognize(wavPath: string, offsetMs?: number, options?: RecognizeOptions): Promise<RecognizedWord[]>;
}
