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
import { type JsonValueFault, jsonValueFault } from "../intake/json-values.ts";
import { faultText } from "../intake/schema-faults.ts";

/** `schemas`: the shared schemas routes refer to by `$ref`. */
export function validatorCompiler(schemas: readonly SchemaObject[]): FastifySchemaCompiler<SchemaObject> {
  const options = { allErrors: true, verbose: true, strict: false, addUsedSchema: false } as const;
  const strict = withSchemas(new Ajv({ ...options, coerceTypes: false }), schemas);
  const coercing = withSchemas(new Ajv({ ...options, coerceTypes: "array" }), schemas);
  return ({ schema, httpPart }) => {
    const validate = (httpPart === "body" ? strict : coercing).compile(schema);
    // Checked before the schema: Ajv recurses into what it validates, and a schema accepts any string.
    const checked = (data: unknown) => {
      const fault = jsonValueFault(data);
      if (fault === undefined) {
        const valid = validate(data);
        checked.errors = validate.errors;
        return valid;
      }
      checked.errors = [unkeepable(fault)];
      return false;
    };
    checked.errors = null as ErrorObject[] | null | undefined;
    return checked;
  };
}

/** A fault of json-values.ts as Ajv would report it, so each route's formatter gives it the route's code. */
function unkeepable(fault: JsonValueFault): ErrorObject {
  return {
    keyword: "x-keepable",
    instancePath: fault.instancePath,
    schemaPath: "#",
    params: {},
    message: fault.message,
  };
}

function withSchemas(ajv: Ajv, schemas: readonly SchemaObject[]): Ajv {
  addFormats.default(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

/**
 * A route's `schemaErrorFormatter`: every fault of the part that failed, in the envelope. A path that
 * cannot name anything names nothing that exists (404, unless `params` says otherwise, as for a name a PUT
 * creates); a query fault is a bad request; a body fault has the route's own code (`body`), or the code a
 * function gives it by where it is (VoiceBase has codes for faults in a keyword, a term, a script).
 */
export function faults(
  codes: { body?: ErrorName | ((error: ErrorObject) => ErrorName); params?: ErrorName } = {},
) {
  return (errors: readonly ErrorObject[], part: string): ApiError => {
    const name = (error: ErrorObject): ErrorName => {
      if (part === "params") return codes.params ?? "notFound";
      if (part !== "body") return "invalidRequest";
      return typeof codes.body === "function" ? codes.body(error) : (codes.body ?? "invalidRequest");
    };
    const root = part === "body" ? "" : part;
    const [first, ...rest] = errors.map((error) => errorEntry(name(error), faultText(root, error)));
    return first
      ? ApiError.of(first, ...rest)
      : new ApiError("invalidRequest", `The request's ${part} is invalid`);
  };
}

/** A body that is not there at all: Fastify hands the schema `null` or nothing. */
export function isNoBody(error: ErrorObject): boolean {
  return (
    error.instancePath === "" && error.keyword === "type" && (error.data === null || error.data === undefined)
  );
}
