/**
 * `GET` and `PUT /v3/definition/media/search`: the account's searchable fields (VoiceBase's
 * `VbSearchableFields`), the fields of `metadata.extended` that media search (`GET /v3/media?query=`)
 * looks in. What a field name may be is domain/searchable-fields.ts.
 */
import { validateSearchableFields } from "../domain/searchable-fields.ts";
import type { Services } from "../services.ts";
import { getSearchableFields, putSearchableFields } from "../store/searchable-fields.ts";
import type { HarkApp } from "./hark-app.ts";
import { accountRefusals, JSON_BODY_ERRORS, ref, response } from "./schemas/common.ts";
import { SearchableFields } from "./schemas/definitions.ts";
import { faults } from "./validation.ts";

const PATH = "/v3/definition/media/search";
const TAGS = ["Definitions"];

export function registerSearchableFieldRoutes(app: HarkApp, services: Services): void {
  const { db, clock } = services;

  app.get(
    PATH,
    {
      schema: {
        operationId: "getSearchableFields",
        tags: TAGS,
        summary: "Get the searchable extended metadata fields",
        description: '`{"fields": []}` until the account defines some.',
        response: { 200: response(SearchableFields, "The searchable fields."), ...accountRefusals() },
      },
    },
    async (request) => ({ fields: await getSearchableFields(db, request.account.accountId) }),
  );

  app.put(
    PATH,
    {
      schema: {
        operationId: "setSearchableFields",
        tags: TAGS,
        summary: "Replace the searchable extended metadata fields",
        description:
          "The list replaces the account's searchable fields (`[]` for none; repeats are dropped). Unlike VoiceBase, which indexes only media processed afterwards, every media item of the account is searchable by the new fields at once. `extendedFilter` needs no definition.",
        body: ref(SearchableFields),
        response: {
          200: response(SearchableFields, "The fields as stored."),
          ...accountRefusals(
            "searchableFieldsMissing",
            "searchableFieldNameInvalid",
            "searchableFieldExpressionInvalid",
            "searchableFieldTooLong",
            ...JSON_BODY_ERRORS,
          ),
        },
      },
      schemaErrorFormatter: faults({ body: "searchableFieldsMissing" }),
    },
    async (request) => {
      const fields = validateSearchableFields(request.body.fields);
      await putSearchableFields(db, request.account.accountId, fields, clock.now());
      return { fields };
    },
  );
}
