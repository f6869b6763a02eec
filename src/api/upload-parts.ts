/**
 * Reads a VoiceBase multipart request part by part: text parts (`configuration`, `metadata`, `mediaUrl`,
 * `transcript`) and, where the route takes one, the `media` file, streamed straight into the blob store.
 *
 * VoiceBase clients send a text part in every style multipart allows, and each reads the same here:
 * - a plain field (`-F 'configuration={...}'`);
 * - a field typed `application/json` (`-F 'configuration={...};type=application/json'`), which
 *   @fastify/multipart hands over already parsed;
 * - a file part (`-F configuration=@configuration.json`, `-F 'mediaUrl=@url.txt;type=text/url'`).
 */
import type { Readable } from "node:stream";
import type { FastifyRequest } from "fastify";
import { ApiError } from "../domain/errors.ts";
import { contentTypeOfFileName, UNKNOWN_CONTENT_TYPE } from "../pipeline/media-content-type.ts";
import type { BlobStore } from "../blobs/blob-store.ts";

/** Larger than any real configuration or transcript; a cap on what a text part may hold in memory. */
export const MAX_TEXT_PART_BYTES = 1024 * 1024;

export interface ReceivedParts<Name extends string> {
  texts: Partial<Record<Name, string>>;
  /** The `media` file, once stored. */
  file?: { bytes: number; contentType: string | undefined };
}

/** Where a route that takes a `media` file stores it. */
export interface MediaTarget {
  blobs: BlobStore;
  key: string;
  maxBytes: number;
}

/**
 * `refusedParts`: parts a route knows and refuses, by name, with the message that says why (a reprocess
 * takes no `media`); refused as soon as they arrive, before their bytes are read.
 */
export async function receiveParts<Name extends string>(
  request: FastifyRequest,
  textParts: readonly Name[],
  media?: MediaTarget,
  refusedParts: Readonly<Record<string, string>> = {},
): Promise<ReceivedParts<Name>> {
  const received: ReceivedParts<Name> = { texts: {} };
  // A client gone before its body was read: the multipart reader listens for the request's 'close', which
  // has already been, and would wait for ever. (A close from here on reaches it.)
  if (request.raw.destroyed && !request.raw.complete) {
    throw new Error("the client closed the connection before its body was read");
  }
  const parts = request.parts({
    limits: { fileSize: media?.maxBytes ?? MAX_TEXT_PART_BYTES, fieldSize: MAX_TEXT_PART_BYTES, files: 5 },
  });
  for await (const part of parts) {
    const name = part.fieldname;
    // A refused part's bytes are drained, so that the error can be answered on the same connection.
    const refuse = (error: ApiError): never => {
      if (part.type === "file") part.file.resume();
      throw error;
    };
    if (part.type === "file" && name === "media" && media) {
      if (received.file) {
        refuse(
          new ApiError(
            "tooManyAttachments",
            "The request contains more than one 'media' part; send exactly one",
          ),
        );
      }
      const bytes = await media.blobs.put(media.key, part.file);
      if (part.file.truncated) throw new ApiError("bodyTooLarge", mediaTooLarge(media.maxBytes));
      received.file = {
        bytes,
        contentType: declaredContentType(part.mimetype) ?? contentTypeOfFileName(part.filename),
      };
      continue;
    }
    const refusal = Object.hasOwn(refusedParts, name) ? refusedParts[name] : undefined;
    if (refusal !== undefined) refuse(new ApiError("invalidMultipart", refusal));
    if (!(textParts as readonly string[]).includes(name)) {
      const known = [...(media ? ["media (a file)"] : []), ...textParts].join(", ");
      refuse(new ApiError("invalidMultipart", `Unknown part '${name}'; the parts are ${known}`));
    }
    const textName = name as Name;
    if (received.texts[textName] !== undefined) {
      refuse(new ApiError("invalidMultipart", `The part '${name}' is given more than once; send it once`));
    }
    if (part.type === "file") {
      received.texts[textName] = await readText(part.file, name);
    } else if (part.valueTruncated) {
      throw new ApiError("bodyTooLarge", textTooLarge(name));
    } else {
      // A field typed application/json arrives parsed; it is read back as the JSON text it was.
      received.texts[textName] = typeof part.value === "string" ? part.value : JSON.stringify(part.value);
    }
  }
  return received;
}

/** curl's default type says nothing; the file name or, later, the bytes say more. */
function declaredContentType(mimetype: string): string | undefined {
  // A media type is printable ASCII; a NUL would reach the database, which refuses it.
  if (/[^\u0020-\u007e]/.test(mimetype)) {
    throw new ApiError(
      "invalidMultipart",
      "The 'media' part's Content-Type has control or non-ASCII characters; send a media type such as audio/mpeg",
    );
  }
  const type = mimetype.split(";")[0]?.trim().toLowerCase();
  return type && type !== UNKNOWN_CONTENT_TYPE ? type : undefined;
}

async function readText(stream: Readable, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_TEXT_PART_BYTES) {
      stream.resume();
      throw new ApiError("bodyTooLarge", textTooLarge(name));
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function textTooLarge(name: string): string {
  return `The part '${name}' is larger than ${MAX_TEXT_PART_BYTES} bytes; nothing was stored`;
}

export function mediaTooLarge(max: number): string {
  return `The media file is larger than the ${max} bytes this server accepts (HARK_MAX_UPLOAD_BYTES)`;
}
