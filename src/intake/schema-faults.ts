/**
 * A JSON Schema fault (as Ajv reports it) in words a client can act on: which field, and what it accepts.
 * One wording for the upload's configuration and for every route's params, query and body. A schema
 * says in words what a field accepts with `x-allowed`, where the keyword alone would read poorly (a
 * case-insensitive enum is a pattern; "minItems 1" is "a non-empty array"). Pure.
 */
import type { ErrorObject } from "ajv";

/** `/publish/callbacks/0/url` under `configuration` → `configuration.publish.callbacks[0].url` */
export function fieldName(root: string, instancePath: string): string {
  return instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce(
      (name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part),
      root,
    );
}

/** The schema keyword a fault is of, for callers that pick an error code by it. */
export type FaultKeyword = ErrorObject["keyword"];

/**
 * `root` names the whole value (`configuration`, or empty for a request body, whose fields are named
 * alone). Ajv must run with `verbose: true`, so that a fault carries its schema and data.
 */
export function faultText(root: string, error: ErrorObject): string {
  const field = fieldName(root, error.instancePath);
  const shown = field === "" ? "The body" : field;
  const schema = (error.parentSchema ?? {}) as { "x-allowed"?: string; properties?: object };
  const allowed = schema["x-allowed"];
  const got = error.data === undefined ? "" : `; got ${brief(error.data)}`;
  switch (error.keyword) {
    case "additionalProperties": {
      const property = (error.params as { additionalProperty: string }).additionalProperty;
      const known = Object.keys(schema.properties ?? {});
      const where = field === "" ? "the body" : field === root ? root : `the ${field} object`;
      return `The property (${property}) is not part of ${where} and extra properties are not allowed; allowed: ${known.join(", ")}`;
    }
    case "required": {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      const property = (schema.properties as Record<string, { "x-allowed"?: string }> | undefined)?.[missing];
      const name = fieldName(root, `${error.instancePath}/${missing}`);
      return `${name} is required${property?.["x-allowed"] ? `: ${property["x-allowed"]}` : ""}`;
    }
  }
  if (allowed !== undefined) return `${shown} must be ${allowed}${got}`;
  switch (error.keyword) {
    case "enum":
    case "const": {
      const values = (error.params as { allowedValues?: unknown[]; allowedValue?: unknown })
        .allowedValues ?? [(error.params as { allowedValue?: unknown }).allowedValue];
      return `${shown} must be one of ${values.join(", ")}${got}`;
    }
    case "type": {
      const type = (error.params as { type: string }).type;
      return field === "" && type === "object"
        ? "The body must be a JSON object"
        : `${shown} must be ${article(type)}${got}`;
    }
    case "pattern":
      return `${shown} must be like ${String(error.schema)}${got}`;
    case "format":
      return `${shown} must be ${article((error.params as { format: string }).format)}${got}`;
    case "maxLength":
    case "minLength":
    case "maxItems":
    case "minItems":
    case "maximum":
    case "minimum":
    case "uniqueItems":
    case "multipleOf":
      return `${shown} ${error.message ?? "is invalid"}${got}`;
    default:
      return `${shown} ${error.message ?? "is invalid"}`;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A value as a message shows it: JSON, cut short. */
function brief(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
