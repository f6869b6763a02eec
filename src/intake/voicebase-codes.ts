/**
 * Which error code a schema fault of the configuration gets: VoiceBase's own where its docs have the case
 * (spec/voicebase/errors/errors.rst: a bad priority is 10009, a callback without a url 60001, ...), so a
 * client written against VoiceBase sees the codes it already handles; Hark's 11001 otherwise. Pure.
 */
import type { ErrorObject } from "ajv";
import type { ErrorName } from "../domain/errors.ts";

const CALLBACK = String.raw`/publish/callbacks/\d+`;

/** First match wins: `[instancePath pattern, keywords (any when omitted), code name]`. */
const RULES: [RegExp, readonly string[] | undefined, ErrorName][] = [
  [/.*/, ["additionalProperties"], "configurationPropertyNotAllowed"],
  [/^\/priority$/, undefined, "priorityInvalid"],
  [/^\/ingest\/channels$/, ["minItems"], "ingestChannelsEmpty"],
  [/^\/vocabularies\/\d+\/terms\/\d+\/weight$/, undefined, "vocabularyWeightInvalid"],
  [/^\/prediction\/detectors\/\d+\/redactor\/(audio|transcript)$/, ["required"], "redactorPropertyMissing"],
  [new RegExp(`^${CALLBACK}$`), ["required"], "callbackUrlMissing"],
  [new RegExp(`^${CALLBACK}/url$`), ["minLength"], "callbackUrlMissing"],
  [new RegExp(`^${CALLBACK}/method$`), undefined, "callbackMethodInvalid"],
  [new RegExp(`^${CALLBACK}/type$`), undefined, "callbackTypeUnknown"],
  [new RegExp(`^${CALLBACK}/format$`), undefined, "callbackFormatInvalid"],
  [new RegExp(`^${CALLBACK}/include/\\d+$`), ["enum"], "callbackIncludeUnknown"],
];

export function schemaFaultName(error: ErrorObject): ErrorName {
  const rule = RULES.find(
    ([path, keywords]) =>
      path.test(error.instancePath) && (keywords === undefined || keywords.includes(error.keyword)),
  );
  return rule?.[2] ?? "configurationInvalid";
}
