/**
 * Custom vocabularies, per account (`/v3/definition/vocabularies`), as VoiceBase's custom-vocabulary guide
 * and Swagger have them: the path's `vocabularyId` is the vocabulary's name, a PUT creates or replaces,
 * and faults carry VoiceBase's 802xx codes. Hark stores and shows vocabularies, and uploads check the
 * names they give (store/vocabularies.ts, `vocabulariesFor`); recognition does not use them yet.
 *
 * The schema (schemas/vocabularies.ts) checks each field; its faults are sorted into VoiceBase's codes by
 * where they are (`vocabularyFaults`). The handler checks what no schema can say: which kind the body
 * is, and terms given twice.
 */
import type { ErrorObject } from "ajv";
import { Type } from "typebox";
import { ApiError, type ErrorName } from "../domain/errors.ts";
import {
  cleanTerm,
  cleanText,
  repeatedValues,
  type Vocabulary,
  type VocabularyTerm,
  type VocabularyType,
} from "../domain/vocabularies.ts";
import type { Services } from "../services.ts";
import { deleteVocabulary, getVocabulary, listVocabularies, putVocabulary } from "../store/vocabularies.ts";
import { notFound } from "./definitions.ts";
import { faults, isNoBody } from "./validation.ts";
import type { HarkApp } from "./hark-app.ts";
import { accountRefusals, JSON_BODY_ERRORS, NoContent, ref, response } from "./schemas/common.ts";
import { DefinitionName } from "./schemas/definitions.ts";
import { Vocabulary as VocabularySchema, VocabularyInput, VocabularyList } from "./schemas/vocabularies.ts";

const VOCABULARIES = "/v3/definition/vocabularies";
const TAGS = ["Definitions"];

/** VoiceBase names the parameter `vocabularyId`; its value is the vocabulary's name. */
const VocabularyParams = Type.Object({
  vocabularyId: DefinitionName(
    "The vocabulary's name (VoiceBase calls it the identifier); compared exactly.",
  ),
});

export function registerVocabularyRoutes(app: HarkApp, services: Services): void {
  const { db, clock, settings } = services;
  const document = (vocabulary: Vocabulary) => vocabularyDocument(settings.publicUrl, vocabulary);

  app.get(
    VOCABULARIES,
    {
      schema: {
        operationId: "getVocabularies",
        tags: TAGS,
        summary: "List the custom vocabularies, by name",
        response: { 200: response(VocabularyList, "The vocabularies."), ...accountRefusals() },
      },
    },
    async (request) => ({
      _links: { self: { href: `${settings.publicUrl}${VOCABULARIES}` } },
      vocabularies: (await listVocabularies(db, request.account.accountId)).map(document),
    }),
  );

  app.get(
    `${VOCABULARIES}/:vocabularyId`,
    {
      schema: {
        operationId: "getVocabularyById",
        tags: TAGS,
        summary: "Get a custom vocabulary",
        params: VocabularyParams,
        response: { 200: response(VocabularySchema, "The vocabulary."), ...accountRefusals("notFound") },
      },
    },
    async (request) => {
      const { vocabularyId } = request.params;
      const vocabulary = await getVocabulary(db, request.account.accountId, vocabularyId);
      if (vocabulary === undefined) throw notFound("vocabulary", vocabularyId, VOCABULARIES);
      return document(vocabulary);
    },
  );

  app.put(
    `${VOCABULARIES}/:vocabularyId`,
    {
      schema: {
        operationId: "createVocabulary",
        tags: TAGS,
        summary: "Create or replace a custom vocabulary",
        description:
          'Terms or scripts, never both; scripts need `"vocabularyType": "scripts"`. A `vocabularyName` in the body must be the path\'s (80202); it may be left out. Recognition does not use vocabularies yet: Hark keeps them, and uploads may name them.',
        params: VocabularyParams,
        body: ref(VocabularyInput),
        response: {
          200: response(VocabularySchema, "The vocabulary as stored."),
          ...accountRefusals(
            "vocabularyInvalid",
            "vocabularyMissing",
            "vocabularyNameMismatch",
            "vocabularyTermInvalid",
            "vocabularyTermsAndScripts",
            "vocabularyTypeMismatch",
            "vocabularyWithoutTerms",
            "vocabularyScriptInvalid",
            "vocabularyTooManyTerms",
            "vocabularyDuplicateTerms",
            ...JSON_BODY_ERRORS,
          ),
        },
      },
      schemaErrorFormatter: vocabularyFaults,
      // A body of no bytes is VoiceBase's empty vocabulary element, not a malformed request.
      errorHandler: (error) => {
        if ((error as { code?: string }).code === "FST_ERR_CTP_EMPTY_JSON_BODY") throw missing();
        throw error;
      },
    },
    async (request) => {
      const { vocabularyId } = request.params;
      const vocabulary = vocabularyOf(vocabularyId, request.body ?? {});
      await putVocabulary(db, request.account.accountId, vocabulary, clock.now());
      return document(vocabulary);
    },
  );

  app.delete(
    `${VOCABULARIES}/:vocabularyId`,
    {
      schema: {
        operationId: "deleteVocabularyById",
        tags: TAGS,
        summary: "Delete a custom vocabulary",
        params: VocabularyParams,
        response: { 204: NoContent("Deleted."), ...accountRefusals("notFound") },
      },
    },
    async (request, reply) => {
      const { vocabularyId } = request.params;
      if (!(await deleteVocabulary(db, request.account.accountId, vocabularyId)))
        throw notFound("vocabulary", vocabularyId, VOCABULARIES);
      return reply.status(204).send();
    },
  );
}

/** What the schema has passed, as a vocabulary to store: checked for what only code can judge, cleaned. */
interface VocabularyBody {
  vocabularyName?: string;
  vocabularyType?: VocabularyType;
  terms?: VocabularyTerm[];
  scripts?: { script: string }[];
}

/** The body of `PUT .../{vocabularyName}` as the vocabulary to store, or the fault VoiceBase names. */
function vocabularyOf(vocabularyName: string, body: VocabularyBody): Vocabulary {
  const { vocabularyName: nameInBody, vocabularyType, terms, scripts } = body;
  if (Object.keys(body).length === 0) throw missing();
  if (nameInBody !== undefined && nameInBody !== vocabularyName) {
    throw new ApiError(
      "vocabularyNameMismatch",
      `"vocabularyName" in the body (${JSON.stringify(nameInBody)}) is not the name in the path (${JSON.stringify(vocabularyName)}); leave it out or make them the same`,
    );
  }
  if (terms !== undefined && scripts !== undefined) {
    throw new ApiError(
      "vocabularyTermsAndScripts",
      'The vocabulary has both "terms" and "scripts"; give one or the other, and put the rest in another vocabulary',
    );
  }
  if (terms === undefined && scripts === undefined) {
    throw new ApiError(
      "vocabularyWithoutTerms",
      'The vocabulary has neither "terms" nor "scripts"; give one of them (an empty array keeps an empty vocabulary)',
    );
  }
  if (scripts !== undefined) {
    if (vocabularyType !== "scripts") {
      throw new ApiError(
        "vocabularyTypeMismatch",
        `A vocabulary of scripts needs "vocabularyType": "scripts"${vocabularyType === undefined ? "" : `, not ${JSON.stringify(vocabularyType)}`}; add it to the body`,
      );
    }
    const cleaned = scripts.map(({ script }) => cleanText(script));
    refuseRepeats("scripts", cleaned);
    return { vocabularyName, vocabularyType: "scripts", scripts: cleaned };
  }
  if (vocabularyType === "scripts") {
    throw new ApiError(
      "vocabularyTypeMismatch",
      '"vocabularyType" is "scripts" but the body has "terms"; leave "vocabularyType" out, or make it "terms"',
    );
  }
  const cleaned = (terms ?? []).map(cleanTerm);
  refuseRepeats(
    "terms",
    cleaned.map(({ term }) => term),
  );
  return { vocabularyName, vocabularyType: "terms", terms: cleaned };
}

function refuseRepeats(field: "terms" | "scripts", values: readonly string[]): void {
  const repeated = repeatedValues(values);
  if (repeated.length === 0) return;
  throw new ApiError(
    "vocabularyDuplicateTerms",
    `"${field}" has ${repeated.map((value) => JSON.stringify(value)).join(", ")} more than once (letter case and spacing aside); keep one of each`,
  );
}

function missing(): ApiError {
  return new ApiError(
    "vocabularyMissing",
    'The request has no vocabulary; send one as the body, such as {"terms": [{"term": "VoiceBase"}]}',
  );
}

/**
 * The schema's faults in VoiceBase's codes, by where each is: in a term (80203), in a script (80207), too
 * many of them (80208), no body at all (80200); anything else (a bad name, a wrong type, an unknown
 * property) has Hark's 11208, as VoiceBase has no code for it.
 */
function vocabularyFaults(errors: readonly ErrorObject[], part: string): ApiError {
  if (part === "body" && errors.some(isNoBody)) return missing();
  return faults({ body: bodyFaultName, params: "vocabularyInvalid" })(errors, part);
}

function bodyFaultName(error: ErrorObject): ErrorName {
  const path = error.instancePath;
  if ((path === "/terms" || path === "/scripts") && error.keyword === "maxItems")
    return "vocabularyTooManyTerms";
  if (path.startsWith("/terms/")) return "vocabularyTermInvalid";
  if (path.startsWith("/scripts/")) return "vocabularyScriptInvalid";
  return "vocabularyInvalid";
}

/** VoiceBase's `VbVocabulary`, with `_links.self` as its guide shows after a PUT. */
function vocabularyDocument(publicUrl: string, vocabulary: Vocabulary) {
  const self = {
    self: { href: `${publicUrl}${VOCABULARIES}/${encodeURIComponent(vocabulary.vocabularyName)}` },
  };
  return vocabulary.vocabularyType === "terms"
    ? {
        _links: self,
        vocabularyName: vocabulary.vocabularyName,
        vocabularyType: "terms",
        terms: vocabulary.terms,
      }
    : {
        _links: self,
        vocabularyName: vocabulary.vocabularyName,
        vocabularyType: "scripts",
        scripts: vocabulary.scripts.map((script) => ({ script })),
      };
}
