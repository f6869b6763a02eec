/**
 * The callbacks Hark sends, as OpenAPI 3.1 `webhooks`: one per callback type, each with the method the
 * callback names (`POST` or `PUT`), the Content-Type of spec/callbacks.md for each format, and the
 * Standard Webhooks headers every try carries. The bodies refer to the same schemas as the API's own
 * responses, so an analytics callback reads as `GET /v3/media/{mediaId}` does.
 */
import type { OpenAPIV3_2 } from "@fastify/swagger";
import { CONTENT_TYPES, RENDERED_FORMATS } from "../formats/index.ts";

type PathItem = OpenAPIV3_2.PathItemObject;
type Operation = NonNullable<PathItem["post"]>;

const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const binary = { type: "string" as const, contentMediaType: "application/octet-stream" };

const HEADERS = [
  {
    name: "webhook-id",
    in: "header" as const,
    required: true,
    description:
      "The delivery's id: the same on every try of this callback. Drop a body whose id you have seen.",
    schema: { type: "string" as const, format: "uuid" },
  },
  {
    name: "webhook-timestamp",
    in: "header" as const,
    required: true,
    description: "When this try was sent, in seconds since the epoch.",
    schema: { type: "string" as const, pattern: "^[0-9]+$" },
  },
  {
    name: "webhook-signature",
    in: "header" as const,
    required: false,
    description:
      "While the account has signing secrets: `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` per active secret, space-separated (Standard Webhooks).",
    schema: { type: "string" as const },
  },
  {
    name: "User-Agent",
    in: "header" as const,
    required: true,
    description: "`Hark/<version>`.",
    schema: { type: "string" as const },
  },
];

const RESPONSES = {
  "200": {
    description:
      "Acknowledged. Any 2xx ends the callback's delivery; anything else (a 3xx too: redirects are not followed), or no answer within `HARK_CALLBACK_TIMEOUT`, is a failed try, retried on the schedule.",
  },
  "410": { description: "Gone: the callback is given up at once (`exhausted`), no more tries." },
  "429": {
    description:
      "With `Retry-After`: the burst ends, and the next try is the first scheduled attempt at or after the wait.",
  },
};

/** One webhook: the same operation under `post` and `put`, for the method the callback names. */
function webhook(
  name: string,
  summary: string,
  description: string,
  content: Record<string, { schema: { $ref: string } | { type: "string"; contentMediaType?: string } }>,
): PathItem {
  const operation = (method: "post" | "put"): Operation => ({
    operationId: `${name}${method === "post" ? "Post" : "Put"}`,
    tags: ["Webhooks"],
    summary: `${summary} (${method.toUpperCase()})`,
    description,
    security: [],
    parameters: HEADERS,
    requestBody: { required: true, content },
    responses: RESPONSES,
  });
  return { post: operation("post"), put: operation("put") };
}

export function webhooks(): Record<string, PathItem> {
  return {
    analyticsCallback: webhook(
      "analyticsCallback",
      "Processing ended: the media document",
      "A callback of type `analytics` (the default): the media document as `GET /v3/media/{mediaId}` shows it, with the sections its `include` names (all when omitted) and without `callbacks`. After failed processing it has `status: failed` and `errors`. For an item encrypted to your key it is an `EncryptedMediaDocument` instead.",
      { "application/json": { schema: schema("MediaDocument") } },
    ),
    encryptedAnalyticsCallback: webhook(
      "encryptedAnalyticsCallback",
      "Processing ended: the media document, encrypted",
      "A callback of type `analytics` for an item whose configuration names `encryption.publicKeyId`: the envelope in the clear, and the document encrypted to that key.",
      { "application/json": { schema: schema("EncryptedMediaDocument") } },
    ),
    transcriptCallback: webhook(
      "transcriptCallback",
      "Processing finished: the transcript",
      "A callback of type `transcript`, in its `format`: `json` (the default) is the transcript document, the others the rendering as `GET /v3/media/{mediaId}/transcript/{format}` gives it. Never sent after failed processing. For an item encrypted to your key: `application/octet-stream`, a binary OpenPGP message of the same.",
      {
        [CONTENT_TYPES.json]: { schema: schema("TranscriptDocument") },
        ...Object.fromEntries(
          RENDERED_FORMATS.map((format) => [CONTENT_TYPES[format], { schema: { type: "string" as const } }]),
        ),
        "application/octet-stream": { schema: binary },
      },
    ),
    mediaCallback: webhook(
      "mediaCallback",
      "Processing finished: the media",
      "A callback of type `media`: the bytes of its `stream` (`original` or `redacted-audio`), streamed; encrypted to your key when the configuration names one. Never sent after failed processing, nor for a stream the item does not have.",
      { "application/octet-stream": { schema: binary } },
    ),
  };
}
