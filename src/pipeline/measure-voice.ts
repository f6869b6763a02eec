import { open } from "node:fs/promises";
import type { RecognizedWord } from "../domain/transcript.ts";
import { voiceFeatures } from "./voice-features.ts";
import { byteRange, type WavLayout } from "./wav.ts";

/**
 * Each recognised word with its voice features, measured on its own samples in the decoded channel (a
 * 16-bit mono PCM WAV, as `decodeChannel` writes it). Each word's bytes are read on their own, into one
 * buffer reused across words: memory stays at one word's audio however long the call.
 */
export async function measureVoice(
  decoded: string,
  layout: WavLayout,
  words: readonly RecognizedWord[],
  signal?: AbortSignal,
): Promise<RecognizedWord[]> {
  if (layout.channels !== 1 || layout.bitsPerSample !== 16)
    throw new Error(
      `voice features need 16-bit mono PCM, not ${layout.channels} x ${layout.bitsPerSample} bit`,
    );
  const file = await open(decoded, "r");
  try {
    let buffer = Buffer.alloc(0);
    const measured: RecognizedWord[] = [];
    for (const word of words) {
      signal?.throwIfAborted();
      const range = byteRange(layout, word.start, word.end);
      const length = range.end - range.start;
      if (buffer.length < length) buffer = Buffer.alloc(length);
      // read() may return fewer bytes than asked for; loop until the word is whole or the file ends.
      let filled = 0;
      while (filled < length) {
        const position = layout.dataOffset + range.start + filled;
        const { bytesRead } = await file.read(buffer, filled, length - filled, position);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      measured.push({ ...word, voice: voiceFeatures(samplesOf(buffer, filled), layout.sampleRate) });
    }
    return measured;
  } finally {
    await file.close();
  }
}

/** Little-endian 16-bit samples as fractions of full scale. */
function samplesOf(bytes: Buffer, length: number): Float32Array {
  const samples = new Float32Array(Math.floor(length / 2));
  for (let i = 0; i < samples.length; i += 1) samples[i] = bytes.readInt16LE(2 * i) / 32768;
  return samples;
}
