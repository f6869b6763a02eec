/**
 * Client-supplied encryption at the end of processing: the streams, the results and each callback body
 * encrypted to the client's OpenPGP public key, so that nothing of the results is kept or sent in the
 * clear. Framing, per callback type:
 *
 * - analytics: `application/json`, the envelope (ids, status, dates, `encryption`) in the clear and
 *   `encrypted`, an ASCII-armored OpenPGP message of the document the callback would otherwise carry
 *   (its `include` applied);
 * - transcript: `application/octet-stream`, a binary OpenPGP message of the transcript in its format;
 * - media: `application/octet-stream`, the encrypted stream (a binary OpenPGP message).
 */
import { Readable } from "node:stream";
import { encryptedResultsKey, mediaPrefix } from "../blobs/blob-store.ts";
import { MEDIA_CONTENT_TYPE } from "../callbacks/render-body.ts";
import { envelopeOf } from "../documents/media-document.ts";
import type { DeliveryFate } from "../domain/delivery.ts";
import type { MediaRecord } from "../domain/media.ts";
import { encryptBytes, encryptStream } from "../security/openpgp.ts";
import type { Services } from "../services.ts";

/**
 * Encrypted copies of the item's streams, beside the plaintext ones (which processing still reads and
 * which go once processing has ended). Resolves to their keys.
 */
export async function encryptStreams(
  services: Pick<Services, "blobs">,
  mediaId: string,
  streams: { originalBlob: string; redactedBlob?: string },
  armoredKey: string,
): Promise<{ originalBlob: string; redactedBlob?: string }> {
  const encrypt = async (key: string, name: string) => {
    const target = `${mediaPrefix(mediaId)}${name}`;
    await services.blobs.put(target, await encryptStream(armoredKey, await services.blobs.read(key)));
    return target;
  };
  return {
    originalBlob: await encrypt(streams.originalBlob, "original-encrypted"),
    ...(streams.redactedBlob !== undefined && {
      redactedBlob: await encrypt(streams.redactedBlob, "redacted-encrypted"),
    }),
  };
}

/** Each pending callback's body, encrypted and framed as the header says. */
export async function sealFates(
  fates: readonly DeliveryFate[],
  media: MediaRecord,
  armoredKey: string,
  publicUrl: string,
): Promise<DeliveryFate[]> {
  return Promise.all(
    fates.map(async (fate): Promise<DeliveryFate> => {
      if (fate.state !== "pending" || !("body" in fate)) return fate;
      const callback = media.configuration.callbacks[fate.position];
      if (callback?.type === "analytics") {
        const encrypted = (await encryptBytes(armoredKey, fate.body, true)).toString("utf8");
        const body = Buffer.from(JSON.stringify({ ...envelopeOf(media, publicUrl), encrypted }), "utf8");
        return { ...fate, body };
      }
      return {
        ...fate,
        contentType: MEDIA_CONTENT_TYPE,
        body: await encryptBytes(armoredKey, fate.body, false),
      };
    }),
  );
}

/** The whole media document, encrypted, stored for `GET /v3/media/{mediaId}/encrypted`. */
export async function storeEncryptedResults(
  services: Pick<Services, "blobs">,
  document: unknown,
  mediaId: string,
  armoredKey: string,
): Promise<void> {
  const bytes = await encryptBytes(armoredKey, Buffer.from(JSON.stringify(document), "utf8"), false);
  await services.blobs.put(encryptedResultsKey(mediaId), Readable.from([bytes]));
}
