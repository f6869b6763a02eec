/**
 * JSON Schema of the upload `configuration`, after VoiceBase's `VbConfiguration` (spec/voicebase/v3-api.yml)
 * with the callback rules of spec/callbacks.md. Every object refuses properties it does not name, as
 * VoiceBase's strict validation does. `x-allowed` says in words what a field accepts, for error messages
 * where the schema keyword alone would read poorly (a case-insensitive enum is a pattern).
 */

import {
  CALLBACK_TYPES,
  INCLUDE_SECTIONS,
  METRIC_GROUP_NAMES,
  STREAM_NAMES,
} from "../domain/configuration.ts";
import { TRANSCRIPT_FORMATS } from "../domain/transcript.ts";

const string = { type: "string" } as const;
const boolean = { type: "boolean" } as const;

function object(properties: Record<string, unknown>, required: string[] = []) {
  return { type: "object", properties, required, additionalProperties: false } as const;
}

export const MAX_CALLBACKS = 20;
/** Ten years: a longer time to live is more likely a unit mistake than an intent. */
export const MAX_TTL_SECONDS = 10 * 365 * 86400;

const channel = object({ speakerName: string, speakerRole: string, ignore: boolean });
const parameter = object({ parameter: string, value: string });

const callback = object(
  {
    url: { type: "string", minLength: 1, maxLength: 4096 },
    method: {
      type: "string",
      pattern: "^([Pp][Oo][Ss][Tt]|[Pp][Uu][Tt])$",
      "x-allowed": "POST or PUT (any letter case)",
    },
    type: { enum: CALLBACK_TYPES },
    format: { enum: TRANSCRIPT_FORMATS },
    include: { type: "array", items: { enum: INCLUDE_SECTIONS }, uniqueItems: true },
    stream: { enum: STREAM_NAMES },
  },
  ["url"],
);

export const configurationSchema = object({
  speechModel: object({
    language: string,
    features: { type: "array", items: string },
    extensions: { type: "array", items: string },
  }),
  priority: { enum: ["low", "normal", "high"] },
  ingest: object({
    allowDeferredProcessing: boolean,
    speakerName: { type: "string", minLength: 1, maxLength: 200 },
    speakerRole: string,
    channels: { type: "array", items: channel, minItems: 1, maxItems: 2 },
    stereo: object({ left: channel, right: channel }, ["left", "right"]),
    tracks: {
      type: "array",
      items: object({
        trackIndex: { type: "integer" },
        speakerName: string,
        speakerRole: string,
        channels: { type: "array", items: channel },
      }),
    },
  }),
  prediction: object({
    classifiers: {
      type: "array",
      items: object({
        classifierId: string,
        classifierName: string,
        version: string,
        parameters: { type: "array", items: parameter },
      }),
    },
    detectors: {
      type: "array",
      items: object({
        detectorId: string,
        detectorName: string,
        version: string,
        parameters: { type: "array", items: parameter },
        redactor: object({
          transcript: object({ replacement: string }),
          audio: object({ tone: { type: "integer" }, gain: { type: "number" } }),
        }),
      }),
    },
  }),
  metrics: {
    type: "array",
    uniqueItems: true,
    items: object({ metricGroupName: { enum: METRIC_GROUP_NAMES } }, ["metricGroupName"]),
  },
  spotting: object({
    groups: {
      type: "array",
      maxItems: 100,
      uniqueItems: true,
      items: object({ groupName: string }, ["groupName"]),
    },
  }),
  knowledge: object({ enableDiscovery: boolean, enableExternalDataSources: boolean }),
  transcript: object({
    formatting: object({ enableNumberFormatting: boolean }),
    contentFiltering: object({ enableProfanityFiltering: boolean }),
  }),
  vocabularies: { type: "array", items: { type: "object" } },
  categories: {
    type: "array",
    maxItems: 1000,
    items: object({ allCategories: boolean, categoryName: { type: "string", minLength: 1 } }),
  },
  speakerSentiments: boolean,
  conversation: object({ verbNounPairsEnabled: boolean }),
  publish: object(
    {
      callbacks: { type: "array", items: callback, maxItems: MAX_CALLBACKS },
      enableAnalyticIndexing: boolean,
    },
    ["callbacks"],
  ),
  searchability: object({ searchable: boolean }),
  encryption: object({ publicKeyId: { type: "string", minLength: 1 } }, ["publicKeyId"]),
  timeToLiveInSeconds: { type: "integer", minimum: 1, maximum: MAX_TTL_SECONDS },
});

export const metadataSchema = object({
  title: { type: "string", maxLength: 1000 },
  description: { type: "string", maxLength: 10000 },
  externalId: string,
  extended: { type: "object" },
});
