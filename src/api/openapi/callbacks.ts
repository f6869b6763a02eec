/**
 * The OpenAPI description of the delivery log and redelivery (media-callbacks.ts) and of the `callbacks`
 * section of the media document (callbacks-section.ts): all Hark's own. Pure.
 */
import {
  accountOperation,
  dateTime,
  type JsonObject,
  jsonResponse,
  links,
  mediaIdParameter,
  type Paths,
  pathParameter,
  type Schemas,
  schemaRef,
} from "./shared.ts";
import { CALLBACK_TYPES, INCLUDE_SECTIONS, STREAM_NAMES } from "../../domain/configuration.ts";
import { TRANSCRIPT_FORMATS } from "../../domain/transcript.ts";

const TAG = "Callbacks";

export function callbackPaths(): Paths {
  return {
    "/v3/media/{mediaId}/callbacks": {
      get: accountOperation({
        operationId: "getCallbacksById",
        tag: TAG,
        harkAddition: true,
        summary: "Get the delivery log: each callback, its state and every try",
        parameters: [mediaIdParameter],
        responses: { "200": jsonResponse("The delivery log.", schemaRef("CallbackLog")) },
        errors: ["notFound"],
      }),
    },
    "/v3/media/{mediaId}/callbacks/{deliveryId}/redeliver": {
      post: accountOperation({
        operationId: "redeliverCallback",
        tag: TAG,
        harkAddition: true,
        summary: "Send a callback again, from a fresh schedule",
        description:
          "The same body and `webhook-id` as before, also after the callback succeeded or was exhausted. Refused while processing has not ended, for a skipped callback, and while a burst of tries is running. Takes no body.",
        parameters: [
          mediaIdParameter,
          pathParameter("deliveryId", "The callback's `deliveryId`, as the delivery log gives it.", {
            type: "string",
            format: "uuid",
          }),
        ],
        responses: {
          "202": jsonResponse("Scheduled; the callback's log entry.", schemaRef("CallbackLogEntry")),
        },
        errors: ["notFound", "redeliveryRefused"],
      }),
    },
  };
}

/** A callback's settings, every default applied, and where its delivery stands. */
function callbackProperties(): Record<string, JsonObject> {
  return {
    deliveryId: { type: "string", format: "uuid", description: "Also the `webhook-id` of every try." },
    url: { type: "string", format: "uri", description: "The query string's values are shown as `***`." },
    method: { enum: ["POST", "PUT"] },
    type: { enum: [...CALLBACK_TYPES] },
    include: {
      type: "array",
      items: { enum: [...INCLUDE_SECTIONS] },
      description: "`analytics` callbacks, when configured.",
    },
    format: { enum: [...TRANSCRIPT_FORMATS], description: "`transcript` callbacks." },
    stream: { enum: [...STREAM_NAMES], description: "`media` callbacks." },
    state: { enum: ["waiting", "pending", "trying", "will-retry", "succeeded", "exhausted", "skipped"] },
    nextAttemptDate: { ...dateTime, description: "While `pending` or `will-retry`." },
  };
}

const ERROR_KIND = { enum: ["dns", "connect", "tls", "timeout", "refused-address", "http-status"] };
const CALLBACK_REQUIRED = ["deliveryId", "url", "method", "type", "state", "attempts"];

export function callbackSchemas(): Schemas {
  return {
    CallbackState: {
      type: "object",
      description:
        "A callback as `GET /v3/media/{mediaId}` shows it: its state, how many tries, the last one.",
      properties: {
        ...callbackProperties(),
        attempts: { type: "integer", description: "How many tries it had." },
        lastAttempt: {
          type: "object",
          properties: { date: dateTime, statusCode: { type: "integer" }, errorKind: ERROR_KIND },
          required: ["date"],
        },
      },
      required: CALLBACK_REQUIRED,
    },
    CallbackLogEntry: {
      type: "object",
      description: "A callback with every try.",
      properties: {
        ...callbackProperties(),
        dateEnded: dateTime,
        attempts: {
          type: "array",
          items: {
            type: "object",
            properties: {
              date: dateTime,
              scheduledAttempt: { type: "integer", description: "The point of the retry schedule, from 0." },
              try: { type: "integer", description: "The try within that scheduled attempt's burst, from 0." },
              succeeded: { type: "boolean" },
              durationMs: { type: "integer" },
              statusCode: { type: "integer" },
              errorKind: ERROR_KIND,
              errorMessage: { type: "string" },
              responseSnippet: { type: "string", description: "The start of the receiver's answer." },
            },
            required: ["date", "scheduledAttempt", "try", "succeeded", "durationMs"],
          },
        },
      },
      required: CALLBACK_REQUIRED,
    },
    CallbackLog: {
      type: "object",
      properties: {
        _links: links,
        mediaId: { type: "string", format: "uuid" },
        callbacks: { type: "array", items: schemaRef("CallbackLogEntry") },
      },
      required: ["_links", "mediaId", "callbacks"],
    },
  };
}
