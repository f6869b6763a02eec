/**
 * The pieces every route's schema uses: references to shared schemas, links, dates, list documents and
 * the error responses. Error responses are made from domain/errors.ts, so the status a code is documented under
 * is always the status it is sent with.
 */
import type { Readable } from "node:stream";
import { type Static, type TProperties, type TSchema, Type } from "typebox";
import { errorCodes, type ErrorName } from "../../domain/errors.ts";
import { UUID_PATTERN } from "../../domain/ids.ts";

/**
 * A reference to a shared schema (one with `$id`, registered in components.ts), typed as that schema:
 * the OpenAPI description names it once under `components.schemas`.
 */
export function ref<Schema extends TSchema & { $id?: string }>(schema: Schema, description?: string) {
  if (schema.$id === undefined) throw new Error("ref() needs a schema with an $id");
  return Type.Unsafe<Static<Schema>>(Type.Ref(schema.$id, description === undefined ? {} : { description }));
}

/**
 * A response, described by a shared schema. Replies are not typed by it: documents are made in
 * src/documents/ from loosely typed sections, and a test checks real responses against these schemas.
 */
export function response<Schema extends TSchema & { $id?: string }>(schema: Schema, description: string) {
  return Type.Unsafe<unknown>(ref(schema, description));
}

/** An operation VoiceBase's v3 API does not have: said in its description and as `x-hark-addition`. */
export function harkAddition(description?: string) {
  return {
    description: ["Hark's own addition: VoiceBase's v3 API has no such operation.", description]
      .filter(Boolean)
      .join(" "),
    "x-hark-addition": true,
  } as const;
}

/** An object that refuses properties it does not name: every request body. */
export function closed<Properties extends TProperties>(properties: Properties, options: object = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

export const DateTime = (description?: string) =>
  Type.String({ format: "date-time", ...(description !== undefined && { description }) });

export const Uuid = (description?: string) =>
  Type.String({ format: "uuid", ...(description !== undefined && { description }) });

/** A UUID in a path: Ajv's `uuid` format would also take `urn:uuid:...`, which PostgreSQL does not. */
export const UuidParameter = (description: string, allowed = "a UUID") =>
  Type.String({ format: "uuid", pattern: UUID_PATTERN, "x-allowed": allowed, description });

/** `_links.self.href`: the absolute URL of what is shown, under the server's public URL. */
export const Links = Type.Object(
  { self: Type.Object({ href: Type.String({ format: "uri" }) }) },
  { $id: "Links", description: "Hypermedia links; `self.href` is this document's URL." },
);

export const ErrorSchema = Type.Object(
  { code: Type.Integer(), error: Type.String({ description: "What is wrong and what to change." }) },
  { $id: "Error", description: "One fault; the codes are listed in docs/errors.md." },
);

export const ErrorEnvelope = Type.Object(
  {
    status: Type.Integer({ description: "The HTTP status." }),
    errors: Type.Array(ref(ErrorSchema), { minItems: 1 }),
    reference: Type.String({ description: "The request id; Hark's log carries it too." }),
  },
  {
    $id: "ErrorEnvelope",
    description: "VoiceBase's error envelope. A request with several faults lists them all.",
  },
);

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "The request is invalid",
  401: "No valid bearer token",
  403: "Forbidden",
  404: "Not found",
  409: "Refused in the current state",
  413: "Too large",
  415: "Content-Type not accepted",
  429: "Too many requests; wait Retry-After seconds",
};

/** One error response per HTTP status of `names`, each naming the `errors[].code` values it may carry. */
export function refusals(...names: readonly ErrorName[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorName[]>();
  for (const name of new Set(names)) {
    const { status } = errorCodes[name];
    byStatus.set(status, [...(byStatus.get(status) ?? []), name]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => [
      status,
      response(
        ErrorEnvelope,
        `${STATUS_TEXT[status] ?? "Refused"}. Error codes: ${group
          .sort((a, b) => errorCodes[a].code - errorCodes[b].code)
          .map((name) => `${errorCodes[name].code} (${name})`)
          .join(", ")}; see docs/errors.md.`,
      ),
    ]),
  );
}

/**
 * Refusals of a `/v3` route: it takes the account token, so it may answer 401, and 429 to an address
 * that sent too many wrong ones.
 */
export function accountRefusals(...names: readonly ErrorName[]): Record<number, TSchema> {
  return refusals("missingAuthorization", "invalidAuthorization", "authenticationThrottled", ...names);
}

/**
 * Errors of a route whose body Fastify parses as JSON: a malformed body, another Content-Type, too large,
 * too slow to arrive.
 */
export const JSON_BODY_ERRORS: readonly ErrorName[] = [
  "invalidRequest",
  "unsupportedMediaType",
  "bodyTooLarge",
  "requestTimeout",
];

/** Bytes, streamed (OpenAPI 3.1 spells binary content as `contentMediaType`). */
export const Binary = (contentMediaType = "application/octet-stream") =>
  Type.Unsafe<Readable | Buffer>(Type.String({ contentMediaType }));

/** A response without a body (204). */
export const NoContent = (description: string) => Type.Unsafe<void>(Type.Null({ description }));
