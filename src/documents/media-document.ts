/**
 * The media document: what `GET /v3/media/{mediaId}` answers and an analytics callback carries
 * (VoiceBase `VbMedia`, spec/callbacks.md "Callback body of type analytics"). Pure.
 */
import { type IncludeSection, type StreamName, STREAM_NAMES } from "../domain/configuration.ts";
import type { Message } from "../domain/errors.ts";
import {
  type MediaLinks,
  type MediaRecord,
  type MediaSummaryRecord,
  PHASES,
  type PhaseTimes,
  TASKS,
} from "../domain/media.ts";
import type { Transcript } from "../domain/transcript.ts";

/**
 * The VoiceBase media format this document follows: 3.0.8, the real callback body's, once transcripts
 * took its shape (turn entries spanning their turn, punctuation `c: 0`, `contentEncoding: "Base64"`).
 */
export const FORMAT_VERSION = "3.0.8";

export function mediaUrl(publicUrl: string, mediaId: string): string {
  return `${publicUrl}/v3/media/${mediaId}`;
}

export interface Stream {
  /** The HTTP status a fetch of `streamLocation` answers (VoiceBase's Swagger: an integer). */
  status: number;
  streamName: string;
  streamLocation: string;
}

/** An item whose results are stored and delivered encrypted to the client's OpenPGP key. */
export function isEncrypted(media: Pick<MediaSummaryRecord, "configuration">): boolean {
  return media.configuration.encryption !== undefined;
}

/**
 * Where a stream's bytes are stored, if the item has that stream. An encrypted item's streams are its
 * encrypted copies, made when processing ends; before that it has none to give out.
 */
export function streamBlob(media: MediaRecord, name: StreamName): string | undefined {
  if (isEncrypted(media) && media.status !== "finished") return undefined;
  return name === "original" ? media.originalBlob : media.redactedBlob;
}

/** A stream's name as listed: VoiceBase calls an encrypted item's `original-encrypted`, `redacted-encrypted`. */
function listedName(media: MediaRecord, name: StreamName): string {
  if (!isEncrypted(media)) return name;
  return name === "original" ? "original-encrypted" : "redacted-encrypted";
}

/** The streams a media item has, by listed name, with the blob holding each. */
export function availableStreams(media: MediaRecord): { name: string; blob: string }[] {
  return STREAM_NAMES.flatMap((name) => {
    const blob = streamBlob(media, name);
    return blob === undefined ? [] : [{ name: listedName(media, name), blob }];
  });
}

/**
 * The streams a media item has: its original bytes once stored, the redacted audio once made; each with
 * a link that works without the account's token until it expires.
 */
export function streamsOf(media: MediaRecord, links: MediaLinks): Stream[] {
  return availableStreams(media).map(({ name }) => ({
    status: 200,
    streamName: name,
    streamLocation: links.stream(media.mediaId, name),
  }));
}

/** The fields every document carries, whatever `include` says. */
export function envelopeOf(media: MediaSummaryRecord, publicUrl: string): Record<string, unknown> {
  return {
    _links: { self: { href: mediaUrl(publicUrl, media.mediaId) } },
    formatVersion: FORMAT_VERSION,
    mediaId: media.mediaId,
    accountId: media.account.accountId,
    accountName: media.account.accountName,
    status: media.status,
    dateCreated: media.dateCreated.toISOString(),
    ...(media.dateFinished && { dateFinished: media.dateFinished.toISOString() }),
    timeToLiveInSeconds: media.timeToLiveSeconds,
    expiresOn: media.expiresOn.toISOString(),
    ...(media.mediaContentType && { mediaContentType: media.mediaContentType }),
    ...(media.lengthMs !== undefined && { length: media.lengthMs }),
    ...(media.errors && { errors: media.errors }),
    ...(media.configuration.encryption && {
      encryption: {
        publishKeyId: media.configuration.encryption.publicKeyId,
        publicKeyHash: media.configuration.encryption.publicKeyHash,
      },
    }),
  };
}

/** VoiceBase's `warnings`: what the configuration asked for and Hark did not do, then processing's. */
function warningsOf(media: MediaRecord): { warnings?: Message[] } {
  const warnings = [...(media.configuration.warnings ?? []), ...media.messages];
  return warnings.length > 0 ? { warnings } : {};
}

/**
 * The document with the sections `include` names (every section when it is undefined). A section not
 * computed (yet, or at all for this item) is left out rather than shown empty.
 */
export function mediaDocument(media: MediaRecord, links: MediaLinks, include?: readonly IncludeSection[]) {
  const wanted = (section: IncludeSection) => include === undefined || include.includes(section);
  const document = envelopeOf(media, links.publicUrl);
  // An encrypted item's metadata is delivered inside its encrypted results only.
  if (wanted("metadata") && media.metadata !== undefined && !isEncrypted(media))
    document.metadata = media.metadata;
  for (const [name, section] of Object.entries(media.sections)) {
    if (wanted(name as IncludeSection)) document[name] = section;
  }
  const streams = streamsOf(media, links);
  if (wanted("streams") && streams.length > 0) document.streams = streams;
  // VoiceBase's `warnings` and the spec's `messages` section are one thing under two names; both go
  // where `include` asks for messages, so a body filtered by `include` has exactly what it names.
  if (wanted("messages") && media.messages.length > 0) document.messages = media.messages;
  if (wanted("messages")) Object.assign(document, warningsOf(media));
  return document;
}

/**
 * The JSON transcript (`GET .../transcript`, and the body of a `json` transcript callback): the envelope
 * and the transcript, with the alternate formats named in `alternateFormats` only.
 */
export function transcriptDocument(
  media: MediaRecord,
  publicUrl: string,
  alternateFormats: readonly string[],
) {
  const transcript = media.sections.transcript as Transcript;
  return {
    ...envelopeOf(media, publicUrl),
    transcript: {
      ...transcript,
      alternateFormats: transcript.alternateFormats.filter((format) =>
        alternateFormats.includes(format.format),
      ),
    },
  };
}

/**
 * VoiceBase `VbMediaSummary`, as `GET /v3/media` lists items: the envelope and the metadata, no results.
 * An encrypted item's metadata is left out, as its media document leaves it out.
 */
export function mediaSummary(media: MediaSummaryRecord, publicUrl: string) {
  const envelope = envelopeOf(media, publicUrl);
  return media.metadata === undefined || isEncrypted(media)
    ? envelope
    : { ...envelope, metadata: media.metadata };
}

/**
 * `GET .../progress`: each processing task, in order, and how far it is; Hark adds the last run's phase
 * times beside VoiceBase's `tasks`.
 */
export function progressDocument(media: MediaRecord, publicUrl: string) {
  return {
    _links: { self: { href: `${mediaUrl(publicUrl, media.mediaId)}/progress` } },
    mediaId: media.mediaId,
    status: media.status,
    progress: {
      tasks: TASKS.map((task) => ({
        taskId: task,
        status: media.progress[task]?.status ?? "pending",
        ...fraction(media.progress[task]?.fraction),
      })),
      ...phaseTimes(media.phaseTimes),
    },
  };
}

/** In the order the phases run: the database keeps an object's keys in an order of its own. */
function phaseTimes(times: PhaseTimes | undefined) {
  if (times === undefined) return {};
  const ran = PHASES.filter((phase) => times.phasesMs[phase] !== undefined);
  return {
    phasesMs: Object.fromEntries(ran.map((phase) => [phase, times.phasesMs[phase]])),
    totalMs: times.totalMs,
  };
}

function fraction(value: number | undefined) {
  return value === undefined ? {} : { fraction: Math.round(value * 1000) / 1000 };
}
