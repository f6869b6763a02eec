/**
 * The MIME type of a media file when the upload did not say (curl sends `application/octet-stream` for
 * audio files): from the file name's extension at upload, from the container ffprobe found when
 * processing.
 */
export const UNKNOWN_CONTENT_TYPE = "application/octet-stream";

const BY_EXTENSION: Record<string, string> = {
  wav: "audio/x-wav",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  flac: "audio/flac",
  m4a: "audio/mp4",
  mp4: "audio/mp4",
  webm: "audio/webm",
  aac: "audio/aac",
  amr: "audio/amr",
  aif: "audio/aiff",
  aiff: "audio/aiff",
};

export function contentTypeOfFileName(fileName: string | undefined): string | undefined {
  const extension = fileName?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  return extension === undefined ? undefined : BY_EXTENSION[extension];
}

const BY_CONTAINER: [RegExp, string][] = [
  [/^wav$/, "audio/x-wav"],
  [/^mp3$/, "audio/mpeg"],
  [/^ogg$/, "audio/ogg"],
  [/^flac$/, "audio/flac"],
  [/(^|,)mp4(,|$)|(^|,)m4a(,|$)/, "audio/mp4"],
  [/(^|,)webm(,|$)|matroska/, "audio/webm"],
  [/^aac$/, "audio/aac"],
  [/^amr$/, "audio/amr"],
  [/^aiff$/, "audio/aiff"],
];

export function contentTypeOfContainer(formatName: string): string {
  return BY_CONTAINER.find(([pattern]) => pattern.test(formatName))?.[1] ?? UNKNOWN_CONTENT_TYPE;
}
