/**
 * Checks a real response or callback body against the schema the OpenAPI description gives it, so the
 * description cannot drift from what Hark sends. Every section of a media document is checked, down to
 * each keyword's mention.
 */
import assert from "node:assert/strict";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { describeApi } from "../../src/api/app.ts";
import { loadSettings } from "../../src/settings.ts";

let validators: Promise<(schemaName: string) => ValidateFunction> | undefined;

/** The description's component schemas, compiled once per test process. */
function componentValidators(): Promise<(schemaName: string) => ValidateFunction> {
  validators ??= describeApi(loadSettings({ HARK_LOG_LEVEL: "silent" })).then((document) => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const components = "components" in document ? document.components : undefined;
    ajv.addSchema({ $id: "openapi", components }, "openapi");
    const compiled = new Map<string, ValidateFunction>();
    return (schemaName: string) => {
      let validate = compiled.get(schemaName);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: `openapi#/components/schemas/${schemaName}` });
        compiled.set(schemaName, validate);
      }
      return validate;
    };
  });
  return validators;
}

/** Asserts that `value` is what `components.schemas[schemaName]` describes. */
export async function assertDescribedBy(
  schemaName: string,
  value: unknown,
  what = schemaName,
): Promise<void> {
  const validate = (await componentValidators())(schemaName);
  assert.ok(
    validate(value),
    `${what} does not match the ${schemaName} schema: ${JSON.stringify(validate.errors)}`,
  );
}
