/**
 * How route schemas validate requests. Two Ajv instances: bodies are taken as sent (no type coercion, an
 * unknown property is a fault rather than removed, as VoiceBase's strict validation does); path and query
 * parameters arrive as text, so they are coerced to the types their schemas give. Both report every
 * fault, and `faults()` turns them into the error envelope, each with a message that names the field.
 */
import { Ajv, type ErrorObject, type SchemaObject } from "ajv";
import addFormats from "ajv-formats";
import type { FastifySchemaCompiler } from "fastify";
import { ApiError, type ErrorName, errorEntry } from "../domain/errors.ts";
import { faultText } from "../intake/schema-faults.ts";

/** `schemas`: the shared schemas routes refer to by `$ref`. */
export function validatorCompiler(schemas: readonly SchemaObject[]): FastifySchemaCompiler<SchemaObject> {
  const options = { allErrors: true, verbose: true, strict: false, addUsedSchema: false } as const;
  const strict = withSchemas(new Ajv({ ...options, coerceTypes: false }), schemas);
  const coercing = withSchemas(new Ajv({ ...options, coerceTypes: "array" }), schemas);
  return ({ schema, httpPart }) => (httpPart === "body" ? strict : coercing).compile(schema);
}

function withSchemas(ajv: Ajv, schemas: readonly SchemaObject[]): Ajv {
  addFormats.default(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

/**
 * A route's `schemaErrorFormatter`: every fault of the part that failed, in the envelope. A path that
 * cannot name anything names nothing that exists (404, unless `params` says otherwise, as for a name a PUT
 * creates); a query fault is a bad request; a body fault has the route's own code (`body`).
 */
export function faults(codes: { body?: ErrorName; params?: ErrorName } = {}) {
  return (errors: readonly ErrorObject[], part: string): ApiError => {
    const name: ErrorName =
      part === "body"
        ? (codes.body ?? "invalidRequest")
        : part === "params"
          ? (codes.params ?? "notFound")
          : "invalidRequest";
    const root = part === "body" ? "" : part;
    const [first, ...rest] = errors.map((error) => errorEntry(name, faultText(root, error)));
    return first ? ApiError.of(first, ...rest) : new ApiError(name, `The request's ${part} is invalid`);
  };
}
