import { join } from "node:path";
import type { RecognizedWord } from "../domain/transcript.ts";
import { spotKeywords } from "./pocketsphinx-keywords.ts";
import type { RecognizeOptions, Recognizer } from "./recognizer.ts";
import { CommandFailedError, run } from "./run.ts";

/** Where Debian's `pocketsphinx-en-us` package installs the US English model. */
export const DEBIAN_POCKETSPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

/**
 * pocketsphinx's spectral noise subtraction (`-remove_noise`) is off for a clean telephone line and at its
 * default (on) for everything else. Measured on the tuning half of `npm run bench:accuracy` (issue 15): on
 * clean 8 kHz calls it estimates "noise" from digital silence and an empty band above 4 kHz, and turning it
 * off took word error on mu-law calls from 44% to 38% alone and to 30% with the noise floor
 * (noise-floor.ts); on a line with noise at 15 dB SNR turning it off cost 10 points. Other settings tried
 * there did not help: a language weight of 5, 8 or 10 (default 6.5), wider beams, `-dither yes`, a VAD
 * threshold of 3 or 4 and ffmpeg's `afftdn` denoiser on the noisy line; `-cmn`, `-upperf` and the rest of
 * the front end are fixed by the model's `feat.params`.
 */
export function decoderSettings(cleanTelephoneLine: boolean | undefined): string[] {
  return cleanTelephoneLine ? ["-remove_noise", "no"] : [];
}

export interface PocketsphinxOptions {
  /** A directory holding `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDir?: string;
  /** The decoder program; Debian's package installs `pocketsphinx_continuous`. */
  binary?: string;
  /** Appended to the command line, e.g. `["-fwdflat", "no"]` to trade accuracy for speed. */
  extraArgs?: readonly string[];
}

export class RecognitionError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "RecognitionError";
  }
}

/** CMU pocketsphinx as packaged by Debian, one process per file (it cannot read from a Node pipe). */
export class PocketsphinxRecognizer implements Recognizer {
  readonly #binary: string;
  readonly #modelArgs: readonly string[];
  readonly #extraArgs: readonly string[];
  readonly #acousticModel: string;

  constructor(options: PocketsphinxOptions = {}) {
    const modelDir = options.modelDir ?? DEBIAN_POCKETSPHINX_MODEL_DIR;
    this.#binary = options.binary ?? "pocketsphinx_continuous";
    this.#acousticModel = join(modelDir, "en-us");
    this.#modelArgs = [
      "-hmm",
      join(modelDir, "en-us"),
      "-lm",
      join(modelDir, "en-us.lm.bin"),
      "-dict",
      join(modelDir, "cmudict-en-us.dict"),
    ];
    this.#extraArgs = options.extraArgs ?? [];
  }

  async recognize(wavPath: string, offsetMs = 0, options: RecognizeOptions = {}): Promise<RecognizedWord[]> {
    const args = [
      "-infile",
      wavPath,
      "-time",
      "yes",
      "-logfn",
      "/dev/null",
      ...this.#modelArgs,
      ...decoderSettings(options.cleanTelephoneLine),
      ...this.#extraArgs,
    ];
    const heard = options.onHeard && heardUntil(offsetMs, options.onHeard);
    try {
      const { stdout } = await run(this.#binary, args, { signal: options.signal, onStdout: heard });
      const words = parsePocketsphinxOutput(stdout, offsetMs);
      if (!options.vocabulary?.length) return words;
      return await spotKeywords(words, wavPath, offsetMs, options.vocabulary, {
        binary: this.#binary,
        acousticModel: this.#acousticModel,
        ...(options.signal && { signal: options.signal }),
      });
    } catch (error) {
      if (error instanceof CommandFailedError) {
        // With its log sent to /dev/null pocketsphinx says nothing on failure: name the usual causes.
        throw new RecognitionError(
          `pocketsphinx failed (${error.exitCode === null ? `killed by ${error.signal ?? "a signal"}` : `exit ${error.exitCode}`}): ` +
            "the audio piece is missing or not 16 kHz mono 16-bit WAV, or the model files are missing",
          { cause: error },
        );
      }
      throw error;
    }
  }
}

/**
 * Follows pocketsphinx's stdout as it comes: it prints each utterance's words when the utterance ends
 * (in blocks, as its stdout is a pipe), so the last word line's end time is how far it has got.
 */
function heardUntil(offsetMs: number, onHeard: (untilMs: number) => void): (chunk: string) => void {
  let partial = "";
  return (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    const last = parsePocketsphinxOutput(lines.join("\n"), offsetMs).at(-1);
    if (last !== undefined) onHeard(last.end);
  };
}

/** `word start_s end_s confidence`, e.g. `support 1.730 2.170 0.665280`. */
const WORD_LINE = /^(\S+)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*$/i;

/**
 * Turns the output of `pocketsphinx_continuous -time yes` into words. Each utterance is printed as a
 * line of plain text followed by one line per word; only the timed word lines are read. Times become
 * whole milliseconds shifted by `offsetMs`.
 */
export function parsePocketsphinxOutput(stdout: string, offsetMs = 0): RecognizedWord[] {
  const offset = Math.round(offsetMs);
  const words: RecognizedWord[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const match = WORD_LINE.exec(line.trim());
    if (!match) continue;
    const [, token = "", startS = "", endS = "", confidence = ""] = match;
    const word = cleanWord(token);
    if (word === undefined) continue;
    const start = offset + Math.round(Number(startS) * 1000);
    const end = offset + Math.round(Number(endS) * 1000);
    words.push({ word, start, end: Math.max(start, end), confidence: clampConfidence(Number(confidence)) });
  }
  return words;
}

/**
 * The spoken word a pocketsphinx token stands for, or `undefined` for a marker that is not speech:
 * `<s>`, `</s>`, `<sil>`, and fillers in brackets (`[NOISE]`, `[BREATH]`, `++UM++` in older models).
 * `forgot(2)` names the second pronunciation of `forgot`: the tag goes.
 */
export function cleanWord(token: string): string | undefined {
  if (/^<.*>$/.test(token) || /^\[.*\]$/.test(token) || /^\+\+.*\+\+$/.test(token)) return undefined;
  const word = token.replace(/\(\d+\)$/, "");
  return word.length > 0 ? word : undefined;
}

/** pocketsphinx prints posteriors a hair above 1 (e.g. 1.000200) from rounding in log space. */
export function clampConfidence(value: number): number {
  if (!Number.isFinite(value) || value < 0) return 0;
  return Math.min(1, value);
}
