/**
 * The upload's `configuration` and `metadata` as JSON Schema (TypeBox), after VoiceBase's `VbConfiguration`
 * and `VbMetadata` (spec/voicebase/v3-api.yml) with the callback rules of spec/callbacks.md. The one
 * source of their validation (configuration.ts), of their types (`ConfigurationInput`) and of their
 * OpenAPI description. Every object refuses properties it does not name, as VoiceBase's strict
 * validation does; `x-allowed` says in words what a field accepts (see schema-faults.ts).
 */
import { type Static, type TProperties, Type } from "typebox";
import {
  CALLBACK_TYPES,
  INCLUDE_SECTIONS,
  METRIC_GROUP_NAMES,
  SPEECH_MODEL_EXTENSIONS,
  SPEECH_MODEL_FEATURES,
  STREAM_NAMES,
} from "../domain/configuration.ts";
import { TRANSCRIPT_FORMATS } from "../domain/transcript.ts";
import {
  MAX_SOUNDS_LIKE,
  MAX_TERM_LENGTH,
  MAX_TERM_WEIGHT,
  MIN_TERM_WEIGHT,
} from "../domain/vocabularies.ts";

export const MAX_CALLBACKS = 20;
/** Ten years: a longer time to live is more likely a unit mistake than an intent. */
export const MAX_TTL_SECONDS = 10 * 365 * 86400;
export const MAX_EXTERNAL_ID_LENGTH = 255;

/** An object that refuses properties it does not name. */
function closed<Properties extends TProperties>(properties: Properties, options: object = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

const string = () => Type.String();
const flag = () => Type.Optional(Type.Boolean());

const Channel = closed({
  speakerName: Type.Optional(string()),
  speakerRole: Type.Optional(
    Type.String({ description: "`agent` and `caller` name the parties of conversation metrics." }),
  ),
  ignore: flag(),
});

const Parameter = closed({ parameter: string(), value: string() });

const Callback = closed(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 4096,
      description: "An `https` URL with a public host; called when processing ends.",
    }),
    method: Type.Optional(
      Type.String({
        pattern: "^([Pp][Oo][Ss][Tt]|[Pp][Uu][Tt])$",
        "x-allowed": "POST or PUT (any letter case)",
        description: "`POST` (default) or `PUT`, in any letter case.",
      }),
    ),
    type: Type.Optional(Type.Enum(CALLBACK_TYPES, { description: "What is sent; `analytics` by default." })),
    format: Type.Optional(
      Type.Enum(TRANSCRIPT_FORMATS, { description: "Type `transcript` only; `json` by default." }),
    ),
    include: Type.Optional(
      Type.Array(Type.Enum(INCLUDE_SECTIONS), {
        uniqueItems: true,
        description: "Type `analytics` only: the sections to send; all when omitted.",
      }),
    ),
    stream: Type.Optional(
      Type.Enum(STREAM_NAMES, { description: "Type `media` only; `original` by default." }),
    ),
  },
  { description: "One callback: a call to `url` when processing ends (spec: Callback configuration)." },
);

const SpeechModel = closed({
  language: Type.Optional(Type.String({ description: "English only (`en-US`, `en`)." })),
  model: Type.Optional(
    Type.String({ description: "A VoiceBase engine (`Titan`, ...); Hark has one engine and warns." }),
  ),
  features: Type.Optional(
    Type.Array(string(), { description: `Any of ${SPEECH_MODEL_FEATURES.join(", ")}.` }),
  ),
  extensions: Type.Optional(
    Type.Array(string(), { description: `Any of ${SPEECH_MODEL_EXTENSIONS.join(", ")}.` }),
  ),
});

const VocabularyTerm = closed({
  term: Type.String({ maxLength: MAX_TERM_LENGTH }),
  soundsLike: Type.Optional(
    Type.Array(Type.String({ maxLength: MAX_TERM_LENGTH }), { maxItems: MAX_SOUNDS_LIKE }),
  ),
  weight: Type.Optional(
    Type.Integer({
      minimum: MIN_TERM_WEIGHT,
      maximum: MAX_TERM_WEIGHT,
      "x-allowed": `a whole number from ${MIN_TERM_WEIGHT} to ${MAX_TERM_WEIGHT}`,
    }),
  ),
});

const Vocabulary = closed({
  vocabularyName: Type.Optional(Type.String({ minLength: 1 })),
  terms: Type.Optional(Type.Array(VocabularyTerm)),
  scripts: Type.Optional(
    Type.Array(Type.Union([closed({ script: string() }), string()]), {
      description: "Whole phrases in context: `{script}` objects (the Swagger) or plain strings.",
    }),
  ),
});

const DetectorConfiguration = closed({
  detectorId: Type.Optional(string()),
  detectorName: Type.Optional(Type.String({ description: "`PCI`, `SSN` or `Number`." })),
  version: Type.Optional(string()),
  parameters: Type.Optional(Type.Array(Parameter)),
  redactor: Type.Optional(
    closed({
      transcript: Type.Optional(closed({ replacement: string() })),
      audio: Type.Optional(
        closed({
          tone: Type.Integer({ description: "Hz." }),
          gain: Type.Number({ description: "0..1 of full scale." }),
        }),
      ),
    }),
  ),
});

export const ConfigurationSchema = closed(
  {
    speechModel: Type.Optional(SpeechModel),
    additionalSpeechModels: Type.Optional(
      Type.Array(SpeechModel, {
        description: "Further languages of a multi-language call; Hark warns and uses `speechModel`.",
      }),
    ),
    priority: Type.Optional(
      Type.Enum(["low", "normal", "high"], { description: "Processing order among waiting items." }),
    ),
    ingest: Type.Optional(
      closed({
        allowDeferredProcessing: flag(),
        speakerName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        speakerRole: Type.Optional(string()),
        channels: Type.Optional(Type.Array(Channel, { minItems: 1, maxItems: 2 })),
        stereo: Type.Optional(closed({ left: Channel, right: Channel })),
        tracks: Type.Optional(
          Type.Array(
            closed({
              trackIndex: Type.Optional(Type.Integer()),
              speakerName: Type.Optional(string()),
              speakerRole: Type.Optional(string()),
              channels: Type.Optional(Type.Array(Channel)),
            }),
          ),
        ),
      }),
    ),
    prediction: Type.Optional(
      closed({
        classifiers: Type.Optional(
          Type.Array(
            closed({
              classifierId: Type.Optional(string()),
              classifierName: Type.Optional(string()),
              version: Type.Optional(string()),
              parameters: Type.Optional(Type.Array(Parameter)),
            }),
          ),
        ),
        detectors: Type.Optional(Type.Array(DetectorConfiguration)),
      }),
    ),
    metrics: Type.Optional(
      Type.Array(closed({ metricGroupName: Type.Enum(METRIC_GROUP_NAMES) }), { uniqueItems: true }),
    ),
    spotting: Type.Optional(
      closed({
        groups: Type.Optional(
          Type.Array(closed({ groupName: string() }), { maxItems: 100, uniqueItems: true }),
        ),
      }),
    ),
    knowledge: Type.Optional(
      closed({
        enableDiscovery: flag(),
        enableExternalDataSources: Type.Optional(
          Type.Boolean({ description: "Hark never consults external sources, whatever this says." }),
        ),
      }),
    ),
    transcript: Type.Optional(
      closed({
        formatting: Type.Optional(
          closed({
            enableNumberFormatting: Type.Optional(
              Type.Boolean({ description: "Spoken numbers as digits (VoiceBase's default: true)." }),
            ),
          }),
        ),
        contentFiltering: Type.Optional(
          closed({
            enableProfanityFiltering: Type.Optional(
              Type.Boolean({
                description:
                  'Swear words in the transcript read "..." (VoiceBase\'s swear word filter). Default false: off unless asked.',
              }),
            ),
          }),
        ),
      }),
    ),
    vocabularies: Type.Optional(
      Type.Array(Vocabulary, {
        description:
          "Custom vocabulary: a saved vocabulary by `vocabularyName`, or ad hoc `terms` (or `scripts`).",
      }),
    ),
    categories: Type.Optional(
      Type.Array(
        closed({ allCategories: flag(), categoryName: Type.Optional(Type.String({ minLength: 1 })) }),
        { maxItems: 1000 },
      ),
    ),
    speakerSentiments: flag(),
    conversation: Type.Optional(closed({ verbNounPairsEnabled: flag() })),
    publish: Type.Optional(
      closed({
        callbacks: Type.Optional(Type.Array(Callback, { maxItems: MAX_CALLBACKS })),
        enableAnalyticIndexing: flag(),
      }),
    ),
    searchability: Type.Optional(closed({ searchable: flag() })),
    encryption: Type.Optional(closed({ publicKeyId: Type.String({ minLength: 1 }) })),
    timeToLiveInSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TTL_SECONDS })),
  },
  {
    $id: "Configuration",
    description:
      "VoiceBase's `VbConfiguration`: every section VoiceBase documents is accepted. What Hark does not compute yet (custom vocabulary in recognition, the `voicemail` extension, another engine or language model) is named in the media document's `warnings` (code 12003). Refused: a language other than English (10601), more than one `ingest.tracks`.",
    examples: [
      {
        ingest: {
          stereo: {
            left: { speakerName: "Agent", speakerRole: "agent" },
            right: { speakerName: "Caller", speakerRole: "caller" },
          },
        },
        prediction: {
          detectors: [{ detectorName: "PCI", redactor: { transcript: { replacement: "[redacted]" } } }],
        },
        metrics: [{ metricGroupName: "overtalk" }, { metricGroupName: "talk-time-and-rate" }],
        publish: {
          callbacks: [
            { url: "https://example.com/hark/analytics", include: ["metadata", "transcript", "knowledge"] },
            { url: "https://example.com/hark/captions", type: "transcript", format: "webvtt", method: "PUT" },
          ],
        },
      },
    ],
  },
);
export type ConfigurationInput = Static<typeof ConfigurationSchema>;
export type CallbackInput = Static<typeof Callback>;
export type ChannelInput = Static<typeof Channel>;

export const MetadataSchema = closed(
  {
    title: Type.Optional(Type.String({ maxLength: 1000 })),
    description: Type.Optional(Type.String({ maxLength: 10000 })),
    externalId: Type.Optional(
      Type.String({ description: `Your id for the item, 1 to ${MAX_EXTERNAL_ID_LENGTH} characters.` }),
    ),
    extended: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: "Anything, nested as you like." }),
    ),
  },
  {
    $id: "Metadata",
    description: "VoiceBase's `VbMetadata`: your own description of the upload, shown back with it.",
    examples: [{ title: "Inbound call", externalId: "crm-1234", extended: { queue: "billing" } }],
  },
);
