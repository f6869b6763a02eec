/**
 * The pieces the OpenAPI description repeats. Error responses are made from errors.ts, so the status a
 * code is documented under is always the status the code is sent with. Pure.
 */
import { errorCodes, type ErrorName } from "../../domain/errors.ts";

export type JsonObject = { [key: string]: unknown };
/** Operations by lower-case method, by OpenAPI path (`{param}` templates). */
export type Paths = Record<string, Record<string, JsonObject>>;
export type Schemas = Record<string, JsonObject>;

export function schemaRef(name: string): JsonObject {
  return { $ref: `#/components/schemas/${name}` };
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "The request is invalid",
  401: "No valid bearer token",
  403: "Forbidden",
  404: "Not found",
  409: "Refused in the current state",
  413: "Too large",
  415: "Content-Type not accepted",
};

/** One response per HTTP status of `names`, each naming the `errors[].code` values it may carry. */
export function errorResponses(names: readonly ErrorName[]): Record<string, JsonObject> {
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of new Set(names)) {
    const { status } = errorCodes[name];
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, group]) => [
        String(status),
        {
          description: `${STATUS_TEXT[status] ?? "Refused"}. Error codes: ${group
            .sort((a, b) => errorCodes[a].code - errorCodes[b].code)
            .map((name) => `${errorCodes[name].code} (${name})`)
            .join(", ")}; see docs/errors.md.`,
          content: { "application/json": { schema: schemaRef("ErrorEnvelope") } },
        },
      ]),
  );
}

export function jsonResponse(description: string, schema: JsonObject): JsonObject {
  return { description, content: { "application/json": { schema } } };
}

export function jsonBody(schema: JsonObject, required = true): JsonObject {
  return { required, content: { "application/json": { schema } } };
}

export const binary: JsonObject = { type: "string", format: "binary" };

export function pathParameter(name: string, description: string, schema: JsonObject = { type: "string" }) {
  return { name, in: "path", required: true, description, schema };
}

export function queryParameter(name: string, description: string, schema: JsonObject): JsonObject {
  return { name, in: "query", required: false, description, schema };
}

export const mediaIdParameter = pathParameter(
  "mediaId",
  "The media item's id, as the upload answered it. Another account's media is not found, as missing media is.",
  { type: "string", format: "uuid" },
);

export const links = schemaRef("Links");

/** `_links.self.href`: the absolute URL of what is shown, under the server's public URL. */
export const LINKS_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    self: { type: "object", properties: { href: { type: "string", format: "uri" } }, required: ["href"] },
  },
  required: ["self"],
};

/** A JSON list document: `_links` and the items under `key`. */
export function listOf(key: string, item: string, description: string): JsonObject {
  return {
    type: "object",
    description,
    properties: { _links: links, [key]: { type: "array", items: schemaRef(item) } },
    required: ["_links", key],
  };
}

export const dateTime: JsonObject = { type: "string", format: "date-time" };

export interface OperationSpec {
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** An operation VoiceBase's v3 API does not have. */
  harkAddition?: boolean;
  parameters?: readonly JsonObject[];
  requestBody?: JsonObject;
  /** The success responses, by status. */
  responses: Record<string, JsonObject>;
  /** The errors the handler may answer with, beyond authentication. */
  errors?: readonly ErrorName[];
  /** Overrides the document's default, the account token. */
  security?: readonly JsonObject[];
}

const HARK_ADDITION = "Hark's own addition: VoiceBase's v3 API has no such operation.";

export function operation(spec: OperationSpec): JsonObject {
  const description = [spec.harkAddition && HARK_ADDITION, spec.description].filter(Boolean).join(" ");
  return {
    operationId: spec.operationId,
    tags: [spec.tag],
    summary: spec.summary,
    ...(description && { description }),
    ...(spec.harkAddition && { "x-hark-addition": true }),
    ...(spec.parameters && { parameters: spec.parameters }),
    ...(spec.requestBody && { requestBody: spec.requestBody }),
    responses: { ...spec.responses, ...errorResponses(spec.errors ?? []) },
    ...(spec.security && { security: spec.security }),
  };
}

/** An operation of the `/v3` API: it takes the account token, so it may answer 401. */
export function accountOperation(spec: OperationSpec): JsonObject {
  return operation({
    ...spec,
    errors: ["missingAuthorization", "invalidAuthorization", ...(spec.errors ?? [])],
  });
}

/** Errors of a route whose body Fastify parses as JSON: a malformed body, another Content-Type, too large. */
export const JSON_BODY_ERRORS: readonly ErrorName[] = [
  "invalidRequest",
  "unsupportedMediaType",
  "bodyTooLarge",
];
