/**
 * The OpenAPI description of the media routes: upload, list, read, delete, progress, transcript, streams
 * and encrypted results (media-upload.ts, media-read.ts, media-transcript.ts, media-streams.ts). Pure.
 */
import { CONTENT_TYPES, RENDERED_FORMATS } from "../../formats/index.ts";
import { configurationSchema, metadataSchema } from "../../intake/configuration-schema.ts";
import { FORMAT_VERSION } from "../../documents/media-document.ts";
import { DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from "../media-read.ts";
import { TASKS } from "../../domain/media.ts";
import {
  accountOperation,
  binary,
  dateTime,
  type JsonObject,
  jsonResponse,
  links,
  listOf,
  mediaIdParameter,
  type Paths,
  pathParameter,
  queryParameter,
  type Schemas,
  schemaRef,
} from "./shared.ts";

const TAG = "Media";

export function mediaPaths(): Paths {
  return {
    "/v3/media": {
      post: accountOperation({
        operationId: "postMedia",
        tag: TAG,
        summary: "Upload media for transcription and analysis",
        description:
          "Multipart: a `media` file (streamed to storage) or a `mediaUrl` Hark downloads, with an optional `configuration` and `metadata`, each JSON. Parts may come in any order; an unknown or repeated part is refused. The configuration is checked strictly and every fault is listed; nothing is stored when any is found. VoiceBase's `transcript` part (aligning a given transcript) is not supported.",
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: {
                  media: { ...binary, description: "The media file. Give this or `mediaUrl`, not both." },
                  mediaUrl: {
                    type: "string",
                    format: "uri",
                    description:
                      "A public `https` URL Hark downloads the media from. Give this or `media`, not both.",
                  },
                  configuration: schemaRef("Configuration"),
                  metadata: schemaRef("Metadata"),
                },
              },
              encoding: {
                configuration: { contentType: "application/json" },
                metadata: { contentType: "application/json" },
              },
            },
          },
        },
        responses: {
          "200": jsonResponse("The media document, `status: accepted`.", schemaRef("MediaDocument")),
        },
        errors: [
          "invalidMultipart",
          "configurationUnparseable",
          "configurationPropertyNotAllowed",
          "configurationInvalid",
          "featureUnsupported",
          "urlNotAllowed",
          "definitionNotFound",
          "publicKeyNotFound",
          "metadataUnparseable",
          "externalIdEmpty",
          "externalIdTooLong",
          "mediaMissing",
          "mediaUrlMalformed",
          "tooManyAttachments",
          "invalidRequest",
          "uploadTooLarge",
          "unsupportedMediaType",
        ],
      }),
      get: accountOperation({
        operationId: "mediaQuery",
        tag: TAG,
        summary: "List media, newest first",
        description:
          "Each item's envelope and metadata, no results. Query parameters other than `limit` and `externalId` are refused, as is either given twice.",
        parameters: [
          queryParameter("limit", "How many items to list at most.", {
            type: "integer",
            minimum: 1,
            maximum: MAX_LIST_LIMIT,
            default: DEFAULT_LIST_LIMIT,
          }),
          queryParameter("externalId", "Only media whose `metadata.externalId` is this.", { type: "string" }),
        ],
        responses: { "200": jsonResponse("The media list.", schemaRef("MediaList")) },
        errors: ["invalidRequest"],
      }),
    },
    "/v3/media/{mediaId}": {
      get: accountOperation({
        operationId: "getMediaById",
        tag: TAG,
        summary: "Get the media document: status and every section computed so far",
        description:
          "An encrypted item shows its envelope with `encryption`, its encrypted streams, and no results or metadata (they are at `/encrypted`). `callbacks` is Hark's addition.",
        parameters: [mediaIdParameter],
        responses: { "200": jsonResponse("The media document.", schemaRef("MediaDocument")) },
        errors: ["notFound"],
      }),
      delete: accountOperation({
        operationId: "deleteMediaById",
        tag: TAG,
        summary: "Delete a media item and its bytes",
        parameters: [mediaIdParameter],
        responses: { "204": { description: "Deleted." } },
        errors: ["notFound"],
      }),
    },
    "/v3/media/{mediaId}/progress": {
      get: accountOperation({
        operationId: "getProgressById",
        tag: TAG,
        summary: "Get how far processing is",
        parameters: [mediaIdParameter],
        responses: { "200": jsonResponse("The processing tasks.", schemaRef("Progress")) },
        errors: ["notFound"],
      }),
    },
    "/v3/media/{mediaId}/transcript": {
      get: accountOperation({
        operationId: "getTranscript",
        tag: TAG,
        summary: "Get the JSON transcript",
        description:
          "The envelope and the transcript of a finished item. An encrypted item's transcript is only inside its encrypted results (404 here).",
        parameters: [
          mediaIdParameter,
          {
            ...queryParameter(
              "includeAlternateFormat",
              "Renderings to add to `transcript.alternateFormats` (base64), comma-separated or repeated.",
              { type: "array", items: { enum: [...RENDERED_FORMATS] } },
            ),
            style: "form",
            explode: true,
          },
        ],
        responses: { "200": jsonResponse("The transcript document.", schemaRef("TranscriptDocument")) },
        errors: ["invalidRequest", "notFound", "notFinished"],
      }),
    },
    "/v3/media/{mediaId}/transcript/{format}": {
      get: accountOperation({
        operationId: "getTranscriptInFormat",
        tag: TAG,
        summary: "Get the transcript rendered as text, SRT, WebVTT or DFXP",
        description:
          "VoiceBase lists one path per format (`getTextById`, `getSubtitlesById`, `getSubtitleWebVttById`, `getSubtitleDfxpById`); the Content-Type is the format's.",
        parameters: [
          mediaIdParameter,
          pathParameter("format", "The rendering.", { enum: [...RENDERED_FORMATS] }),
        ],
        responses: {
          "200": {
            description: "The rendering.",
            content: Object.fromEntries(
              RENDERED_FORMATS.map((format) => [CONTENT_TYPES[format], { schema: { type: "string" } }]),
            ),
          },
        },
        errors: ["notFound", "notFinished"],
      }),
    },
    "/v3/media/{mediaId}/streams": {
      get: accountOperation({
        operationId: "getStreamsById",
        tag: TAG,
        summary: "List the media streams",
        parameters: [mediaIdParameter],
        responses: { "200": jsonResponse("The streams the item has now.", schemaRef("StreamList")) },
        errors: ["notFound"],
      }),
    },
    "/v3/media/{mediaId}/streams/{streamName}": {
      get: accountOperation({
        operationId: "getStreamByMediaIdAndName",
        tag: TAG,
        summary: "Get the bytes of a stream",
        description:
          "The Content-Type is the uploaded media's (`application/octet-stream` when unknown, and for an encrypted item's streams, binary OpenPGP messages).",
        parameters: [
          mediaIdParameter,
          pathParameter("streamName", "A `streamName` the stream list gives.", {
            enum: ["original", "redacted-audio", "original-encrypted", "redacted-encrypted"],
          }),
        ],
        responses: { "200": { description: "The stream's bytes.", content: { "*/*": { schema: binary } } } },
        errors: ["notFound"],
      }),
    },
    "/v3/media/{mediaId}/encrypted": {
      get: accountOperation({
        operationId: "getEncryptedMediaById",
        tag: TAG,
        summary: "Get an encrypted item's results",
        description:
          "The whole media document (metadata included), as a binary OpenPGP message encrypted to the public key `configuration.encryption` named; once processing has finished.",
        parameters: [mediaIdParameter],
        responses: {
          "200": {
            description: "The encrypted media document.",
            content: { "application/octet-stream": { schema: binary } },
          },
        },
        errors: ["notFound"],
      }),
    },
  };
}

/** The fields every media document carries (VoiceBase `VbMedia`), whatever `include` says. */
function envelopeProperties(): Record<string, JsonObject> {
  return {
    _links: links,
    formatVersion: { const: FORMAT_VERSION, description: "The VoiceBase media format followed." },
    mediaId: { type: "string", format: "uuid" },
    accountId: { type: "string", format: "uuid" },
    accountName: { type: "string" },
    status: { enum: ["accepted", "running", "finished", "failed"] },
    dateCreated: dateTime,
    dateFinished: dateTime,
    timeToLiveInSeconds: { type: "integer" },
    expiresOn: dateTime,
    mediaContentType: { type: "string" },
    length: { type: "integer", description: "Duration, milliseconds." },
    errors: {
      type: "array",
      description: "Why processing failed (`status: failed`).",
      items: schemaRef("Error"),
    },
    encryption: {
      type: "object",
      description: "An encrypted item: the key its results are encrypted to (VoiceBase's spelling).",
      properties: { publishKeyId: { type: "string" }, publicKeyHash: { type: "string" } },
    },
  };
}

const ENVELOPE_REQUIRED = [
  "_links",
  "formatVersion",
  "mediaId",
  "accountId",
  "accountName",
  "status",
  "dateCreated",
  "timeToLiveInSeconds",
  "expiresOn",
];

/** A computed section, as VoiceBase names and shapes it. */
function section(type: "object" | "array", description: string): JsonObject {
  return { type, description };
}

export function mediaSchemas(): Schemas {
  return {
    Configuration: {
      ...structuredClone(configurationSchema),
      description:
        "VoiceBase's `VbConfiguration`, as Hark takes it. Accepted by the schema but refused (11009): `transcript`, `searchability`, `vocabularies`, `ingest.tracks`, `speechModel.features` and `extensions`, a language other than English, the `talk-style-tone-and-volume` metrics.",
    },
    Metadata: {
      ...structuredClone(metadataSchema),
      description: "VoiceBase's `VbMetadata`; `externalId` is 1 to 255 characters.",
    },
    MediaDocument: {
      type: "object",
      description:
        "VoiceBase's `VbMedia`: the envelope, and each section once computed (sections not computed are left out).",
      properties: {
        ...envelopeProperties(),
        metadata: schemaRef("Metadata"),
        transcript: schemaRef("Transcript"),
        knowledge: section("object", "VoiceBase `VbKnowledge`: `keywords`, `topics`."),
        spotting: section("object", "VoiceBase `VbSpotting`: `groups`."),
        prediction: section("object", "VoiceBase `VbPrediction`: `detectors`, `classifiers`."),
        speakerSentiments: section("array", "Per speaker: `speakerName`, `sentimentValues`."),
        conversation: section("object", "`speakerVerbNounPairs`."),
        metrics: section("array", "Per metric group: `metricGroupName`, `metricValues`."),
        categories: section("array", "Per category: `categoryName`, `categoryValue`, `categoryMatches`."),
        streams: { type: "array", items: schemaRef("Stream") },
        messages: {
          type: "array",
          description: "Warnings of a finished item (12001, 12002).",
          items: {
            type: "object",
            properties: { code: { type: "integer" }, message: { type: "string" } },
            required: ["code", "message"],
          },
        },
        callbacks: {
          type: "array",
          description:
            "Hark's addition, in `GET /v3/media/{mediaId}` when the item has callbacks: each callback and how its delivery stands.",
          items: schemaRef("CallbackState"),
        },
      },
      required: ENVELOPE_REQUIRED,
    },
    MediaSummary: {
      type: "object",
      description: "VoiceBase's `VbMediaSummary`: the envelope and the metadata.",
      properties: { ...envelopeProperties(), metadata: schemaRef("Metadata") },
      required: ENVELOPE_REQUIRED,
    },
    MediaList: listOf("media", "MediaSummary", "VoiceBase's `VbMediaQueryResponse`, without pagination."),
    TranscriptDocument: {
      type: "object",
      description: "The envelope and the transcript.",
      properties: { ...envelopeProperties(), transcript: schemaRef("Transcript") },
      required: [...ENVELOPE_REQUIRED, "transcript"],
    },
    Transcript: {
      type: "object",
      description: "VoiceBase's `VbTranscript`.",
      properties: {
        confidence: { type: "number" },
        words: {
          type: "array",
          items: {
            type: "object",
            description:
              "`p` position from 0, `c` confidence 0..1, `s` and `e` milliseconds, `w` the word; `m: turn` where the speaker changes (`w` is the speaker's name), `m: punc` punctuation; `v` the channel.",
            properties: {
              p: { type: "integer" },
              c: { type: "number" },
              s: { type: "integer" },
              e: { type: "integer" },
              w: { type: "string" },
              m: { enum: ["punc", "turn"] },
              v: { type: "integer" },
            },
            required: ["p", "c", "s", "e", "w"],
          },
        },
        voiceActivity: {
          type: "array",
          description: "Per speaker: `speakerName`, `occurrences` (`s`, `e`).",
        },
        alternateFormats: {
          type: "array",
          items: {
            type: "object",
            properties: {
              format: { enum: [...RENDERED_FORMATS] },
              contentType: { type: "string" },
              contentEncoding: { const: "base64" },
              charset: { const: "utf-8" },
              data: { type: "string" },
            },
          },
        },
      },
    },
    Progress: {
      type: "object",
      properties: {
        _links: links,
        mediaId: { type: "string", format: "uuid" },
        status: { enum: ["accepted", "running", "finished", "failed"] },
        progress: {
          type: "object",
          properties: {
            tasks: {
              type: "array",
              items: {
                type: "object",
                properties: {
                  taskId: { enum: [...TASKS] },
                  status: { enum: ["pending", "started", "finished", "failed"] },
                  fraction: { type: "number", minimum: 0, maximum: 1 },
                },
                required: ["taskId", "status"],
              },
            },
          },
        },
      },
    },
    Stream: {
      type: "object",
      description: "VoiceBase's `VbStream`.",
      properties: {
        status: { const: "available" },
        streamName: { type: "string" },
        streamLocation: { type: "string", format: "uri" },
      },
      required: ["status", "streamName", "streamLocation"],
    },
    StreamList: listOf("streams", "Stream", "VoiceBase's `VbStreams`."),
  };
}
