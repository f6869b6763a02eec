/**
 * Signed stream links. VoiceBase's `streamLocation` is a link a media player or a downstream system can
 * fetch as it is, without the account's token; Hark's is `.../streams/{name}?expires=…&signature=…`, an
 * HMAC-SHA256 over the media id, the stream name and the expiry, under a secret of the installation
 * (kept in the database, so every process signs and checks alike). A link stops working at its expiry
 * and when the item is deleted (there is nothing left to fetch). Pure: the secret and the time are given.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { MediaLinks } from "../domain/media.ts";

function signature(secret: Buffer, mediaId: string, streamName: string, expires: number): string {
  return createHmac("sha256", secret).update(`${mediaId}\n${streamName}\n${expires}`).digest("base64url");
}

/**
 * The links of documents rendered now. A link lives `streamLinkTtlSeconds` from when its document is rendered; a
 * callback body is rendered once, when processing ends, so the time to live must outlast the retry
 * schedule (15 h 45 min) for its last try to carry a link that works.
 */
export function mediaLinks(
  { publicUrl, streamLinkTtlSeconds }: { publicUrl: string; streamLinkTtlSeconds: number },
  secret: Buffer,
  now: Date,
): MediaLinks {
  const expires = Math.floor(now.getTime() / 1000) + streamLinkTtlSeconds;
  return {
    publicUrl,
    stream(mediaId, streamName) {
      const query = new URLSearchParams({
        expires: String(expires),
        signature: signature(secret, mediaId, streamName, expires),
      });
      return `${publicUrl}/v3/media/${mediaId}/streams/${encodeURIComponent(streamName)}?${query}`;
    },
  };
}

export type LinkCheck = "valid" | "expired" | "forged";

export function checkStreamLink(
  secret: Buffer,
  link: { mediaId: string; streamName: string; expires: string; signature: string },
  now: Date,
): LinkCheck {
  const expires = Number(link.expires);
  if (!/^\d{1,12}$/.test(link.expires)) return "forged";
  const expected = Buffer.from(signature(secret, link.mediaId, link.streamName, expires));
  const given = Buffer.from(link.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "forged";
  return now.getTime() / 1000 < expires ? "valid" : "expired";
}
