import { type FileHandle, open, writeFile } from "node:fs/promises";

/**
 * Cutting a decoded PCM WAV into pieces by byte offsets: exact to the sample and far cheaper than one
 * ffmpeg process per piece.
 */

export interface WavLayout {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  /** Bytes of sample data. */
  dataBytes: number;
}

const CANONICAL_HEADER_BYTES = 44;
/** Headers are small; a LIST chunk from a non-bitexact encoder still fits with room to spare. */
const HEADER_READ_BYTES = 64 * 1024;

/**
 * Reads the layout of a PCM WAV from its first bytes. `fileSize` settles the data length when the header
 * does not (a header written by a streaming encoder says 0 or 0xFFFFFFFF).
 */
export function parseWavHeader(header: Buffer, fileSize: number): WavLayout {
  if (
    header.length < 12 ||
    header.toString("ascii", 0, 4) !== "RIFF" ||
    header.toString("ascii", 8, 12) !== "WAVE"
  ) {
    throw new Error("not a RIFF/WAVE file");
  }
  let format: Omit<WavLayout, "dataOffset" | "dataBytes"> | undefined;
  let offset = 12;
  while (offset + 8 <= header.length) {
    const id = header.toString("ascii", offset, offset + 4);
    const size = header.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      const audioFormat = header.readUInt16LE(body);
      // 0xFFFE is WAVE_FORMAT_EXTENSIBLE, which ffmpeg uses for PCM with more than two channels.
      if (audioFormat !== 1 && audioFormat !== 0xfffe)
        throw new Error(`WAV is not PCM (format ${audioFormat})`);
      format = {
        channels: header.readUInt16LE(body + 2),
        sampleRate: header.readUInt32LE(body + 4),
        bitsPerSample: header.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      if (!format) throw new Error("WAV data chunk comes before its fmt chunk");
      const available = Math.max(0, fileSize - body);
      const dataBytes = size === 0 || size > available ? available : size;
      return { ...format, dataOffset: body, dataBytes };
    }
    // RIFF chunks are padded to an even size.
    offset = body + size + (size % 2);
  }
  throw new Error("WAV has no data chunk in its first bytes");
}

/** A 44-byte header for `dataBytes` of PCM sample data. */
export function wavHeader(dataBytes: number, sampleRate: number, channels = 1, bitsPerSample = 16): Buffer {
  const blockAlign = (channels * bitsPerSample) / 8;
  const header = Buffer.alloc(CANONICAL_HEADER_BYTES);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(CANONICAL_HEADER_BYTES - 8 + dataBytes, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(bitsPerSample, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** Duration of the sample data in whole milliseconds. */
export function wavLengthMs(layout: WavLayout): number {
  const frames = layout.dataBytes / ((layout.channels * layout.bitsPerSample) / 8);
  return Math.round((frames * 1000) / layout.sampleRate);
}

/** The byte range of the data between two times, aligned to whole sample frames and clamped to the data. */
export function byteRange(layout: WavLayout, startMs: number, endMs: number): { start: number; end: number } {
  const frameBytes = (layout.channels * layout.bitsPerSample) / 8;
  const toByte = (ms: number) => {
    const frame = Math.round((ms * layout.sampleRate) / 1000);
    return Math.min(layout.dataBytes, Math.max(0, frame * frameBytes));
  };
  const start = toByte(startMs);
  return { start, end: Math.max(start, toByte(endMs)) };
}

export async function readWavLayout(path: string): Promise<WavLayout> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const header = Buffer.alloc(Math.min(size, HEADER_READ_BYTES));
    await file.read(header, 0, header.length, 0);
    return parseWavHeader(header, size);
  } catch (error) {
    throw new Error(`cannot read WAV ${path}: ${(error as Error).message}`, { cause: error });
  } finally {
    await file.close();
  }
}

/** Copies the audio between `startMs` and `endMs` of the WAV at `source` into a new WAV at `output`. */
export async function writeWavSlice(
  source: string,
  layout: WavLayout,
  startMs: number,
  endMs: number,
  output: string,
): Promise<void> {
  const range = byteRange(layout, startMs, endMs);
  const data = Buffer.alloc(range.end - range.start);
  const file = await open(source, "r");
  try {
    // read() may return fewer bytes than asked for; loop until the slice is full.
    let filled = 0;
    while (filled < data.length) {
      const { bytesRead } = await file.read(
        data,
        filled,
        data.length - filled,
        layout.dataOffset + range.start + filled,
      );
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
  } finally {
    await file.close();
  }
  const header = wavHeader(data.length, layout.sampleRate, layout.channels, layout.bitsPerSample);
  await writeFile(output, Buffer.concat([header, data]));
}

const CHUNK_BYTES = 64 * 1024;

/**
 * Visits the sample data of an open WAV a chunk of whole 16-bit samples at a time, so that memory stays
 * flat however long the file and no sample is split between two chunks. `visit` may write the chunk back
 * at `position` (the file open for writing).
 */
export async function forEachSampleChunk(
  file: FileHandle,
  layout: WavLayout,
  visit: (chunk: Buffer, position: number) => Promise<void> | void,
  signal?: AbortSignal,
): Promise<void> {
  const buffer = Buffer.alloc(CHUNK_BYTES);
  const end = layout.dataOffset + layout.dataBytes;
  for (let position = layout.dataOffset; position < end;) {
    signal?.throwIfAborted();
    const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK_BYTES, end - position), position);
    const whole = bytesRead - (bytesRead % 2);
    if (whole === 0) break;
    await visit(buffer.subarray(0, whole), position);
    position += whole;
  }
}
