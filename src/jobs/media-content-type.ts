/** The MIME type of a media file from the container ffprobe found, for uploads that declared none. */
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
  return BY_CONTAINER.find(([pattern]) => pattern.test(formatName))?.[1] ?? "application/octet-stream";
}
