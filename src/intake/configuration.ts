/**
 * Turns the upload's `configuration` and `metadata` texts into validated, normalised values, or into the
 * list of every fault found, each naming the field and what it accepts. Pure: the only inputs are the
 * texts and the URL policy.
 */
import net from "node:net";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { DETECTOR_NAMES, detectorRequestFault } from "../analytics/detectors.ts";
import type {
  AnalysisPlan,
  Callback,
  Configuration,
  DetectorRequest,
  SpeakerChannel,
} from "../domain/configuration.ts";
import { type ErrorEntry, type ErrorName, errorEntry } from "../domain/errors.ts";
import type { Metadata } from "../domain/media.ts";
import { addressPolicy, isAllowedAddress } from "../net/guard.ts";
import {
  type CallbackInput,
  type ConfigurationInput,
  ConfigurationSchema,
  MAX_EXTERNAL_ID_LENGTH,
  MetadataSchema,
} from "./configuration-schema.ts";
import { duplicateProperty } from "./duplicate-properties.ts";
import { jsonValueFault } from "./json-values.ts";
import { featureFaults, featureWarnings } from "./requested-features.ts";
import { faultText, fieldName } from "./schema-faults.ts";
import { schemaFaultName } from "./voicebase-codes.ts";
import { vocabularyFaults } from "./vocabulary-faults.ts";

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
  /** `HARK_CALLBACK_ALLOW_CIDRS`: private networks a URL may name all the same. */
  allowCidrs?: readonly string[];
}

/**
 * Every code a fault of an upload's configuration or metadata can have, as the upload routes list them
 * in their OpenAPI description; those the account's definitions and keys decide are the routes' own.
 */
export const TEXT_PART_FAULTS = [
  "configurationUnparseable",
  "configurationPropertyNotAllowed",
  "configurationInvalid",
  "configurationDuplicateProperty",
  "priorityInvalid",
  "languageUnsupported",
  "speechModelExtensionUnknown",
  "speechModelFeatureUnknown",
  "featureUnsupported",
  "ingestConflict",
  "ingestChannelsEmpty",
  "ingestAllChannelsIgnored",
  "vocabularyNothingGiven",
  "vocabularyNamedAndTerms",
  "vocabularyTermsOverLimit",
  "vocabularyTermEmpty",
  "vocabularyWeightInvalid",
  "vocabularyTermsDuplicated",
  "classifierUnnamed",
  "detectorUnnamed",
  "detectorUnavailable",
  "redactorEmpty",
  "redactorPropertyMissing",
  "callbackUrlMissing",
  "callbackProtocolInvalid",
  "callbackIncludeUnknown",
  "callbackUrlInvalid",
  "callbackTypeUnknown",
  "callbackPropertyMisplaced",
  "callbackFormatInvalid",
  "callbackMethodInvalid",
  "urlNotAllowed",
  "metadataUnparseable",
  "metadataDuplicateProperty",
  "externalIdEmpty",
  "externalIdTooLong",
] as const satisfies readonly ErrorName[];

/** The policy the settings give (`HARK_CALLBACK_ALLOW_*`); callback URLs and a mediaUrl share it. */
export function urlPolicyOf(settings: {
  callbackAllowHttp: boolean;
  callbackAllowPrivate: boolean;
  callbackAllowCidrs: readonly string[];
}): UrlPolicy {
  return {
    allowHttp: settings.callbackAllowHttp,
    allowPrivate: settings.callbackAllowPrivate,
    allowCidrs: settings.callbackAllowCidrs,
  };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: ErrorEntry[] };

/** The validators, compiled on first use: nothing happens at import. */
let validators:
  { configuration: ValidateFunction<ConfigurationInput>; metadata: ValidateFunction<Metadata> } | undefined;
function validatorsOf() {
  if (validators === undefined) {
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
    validators = {
      configuration: ajv.compile<ConfigurationInput>(ConfigurationSchema),
      metadata: ajv.compile<Metadata>(MetadataSchema),
    };
  }
  return validators;
}

export function parseConfiguration(text: string | undefined, policy: UrlPolicy): Parsed<Configuration> {
  let raw: unknown = {};
  if (text !== undefined && text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return fail(
        errorEntry(
          "configurationUnparseable",
          `configuration is not valid JSON: ${(error as Error).message}`,
        ),
      );
    }
    const hostile = unkeepable("configuration", raw);
    if (hostile) return fail(errorEntry("configurationUnparseable", hostile));
    const duplicate = duplicateProperty(text);
    if (duplicate !== undefined) {
      return fail(
        errorEntry(
          "configurationDuplicateProperty",
          `configuration.${duplicate} is given more than once; remove one of them`,
        ),
      );
    }
  }
  const validateConfiguration = validatorsOf().configuration;
  if (!validateConfiguration(raw)) {
    return {
      ok: false,
      errors: (validateConfiguration.errors ?? []).map((e) => schemaFault("configuration", e)),
    };
  }
  const config = raw;
  const errors = [
    ...featureFaults(config),
    ...ingestFaults(config),
    ...vocabularyFaults(config),
    ...analysisFaults(config),
    ...callbackFaults(config, policy),
  ];
  if (errors.length > 0) return { ok: false, errors };
  const vocabularyNames = (config.vocabularies ?? []).flatMap((vocabulary) =>
    vocabulary.vocabularyName === undefined ? [] : [vocabulary.vocabularyName],
  );
  const adHocTerms = (config.vocabularies ?? []).flatMap((vocabulary) =>
    (vocabulary.terms ?? []).map((term) => term.term),
  );
  const warnings = featureWarnings(config);
  return {
    ok: true,
    value: {
      raw: config as Record<string, unknown>,
      speakers: speakersOf(config),
      priority: config.priority ?? "normal",
      callbacks: (config.publish?.callbacks ?? []).map(normaliseCallback),
      analyses: analysisPlan(config),
      ...(config.encryption && { encryption: { publicKeyId: config.encryption.publicKeyId } }),
      ...(config.timeToLiveInSeconds !== undefined && { timeToLiveInSeconds: config.timeToLiveInSeconds }),
      ...(vocabularyNames.length > 0 && { vocabularyNames }),
      ...(adHocTerms.length > 0 && { adHocTerms }),
      ...(warnings.length > 0 && { warnings }),
    },
  };
}

/**
 * `maxBytes`: the largest metadata kept, counted as compact JSON (what is stored and shown, whatever
 * whitespace the client sent): every listing and callback carries it, so its size is what a page of
 * `GET /v3/media` and a callback body cost.
 */
export function parseMetadata(text: string | undefined, maxBytes: number): Parsed<Metadata | undefined> {
  if (text === undefined || text.trim() === "") return { ok: true, value: undefined };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return fail(errorEntry("metadataUnparseable", `metadata is not valid JSON: ${(error as Error).message}`));
  }
  const hostile = unkeepable("metadata", raw);
  if (hostile) return fail(errorEntry("metadataUnparseable", hostile));
  const bytes = Buffer.byteLength(JSON.stringify(raw));
  if (bytes > maxBytes) {
    return fail(
      errorEntry(
        "bodyTooLarge",
        `metadata is ${bytes} bytes as compact JSON, more than the ${maxBytes} this server keeps (HARK_MAX_METADATA_BYTES); keep large documents elsewhere and put a reference to them in metadata.extended; nothing was stored`,
      ),
    );
  }
  const duplicate = duplicateProperty(text);
  if (duplicate !== undefined) {
    return fail(
      errorEntry("metadataDuplicateProperty", `metadata.${duplicate} is given more than once; give it once`),
    );
  }
  const validateMetadata = validatorsOf().metadata;
  if (!validateMetadata(raw)) {
    return { ok: false, errors: (validateMetadata.errors ?? []).map((e) => schemaFault("metadata", e)) };
  }
  const metadata = raw;
  if (metadata.externalId !== undefined && metadata.externalId.trim() === "") {
    return fail(
      errorEntry("externalIdEmpty", "metadata.externalId is empty: leave it out or give it a value"),
    );
  }
  if (metadata.externalId !== undefined && metadata.externalId.length > MAX_EXTERNAL_ID_LENGTH) {
    return fail(
      errorEntry(
        "externalIdTooLong",
        `metadata.externalId must be at most ${MAX_EXTERNAL_ID_LENGTH} characters long`,
      ),
    );
  }
  return { ok: true, value: metadata };
}

/** Valid JSON that cannot be kept (json-values.ts): VoiceBase's "could not parse", naming the field. */
function unkeepable(root: string, raw: unknown): string | undefined {
  const fault = jsonValueFault(raw);
  return fault && `${fieldName(root, fault.instancePath)} ${fault.message}`;
}

function fail<T>(entry: ErrorEntry): Parsed<T> {
  return { ok: false, errors: [entry] };
}

/** A schema fault of the configuration or the metadata, with the code VoiceBase gives it. */
function schemaFault(root: string, error: ErrorObject): ErrorEntry {
  return errorEntry(schemaFaultName(error), faultText(root, error));
}

function ingestFaults(config: ConfigurationInput): ErrorEntry[] {
  const given = (["speakerName", "channels", "stereo", "tracks"] as const).filter(
    (k) => config.ingest?.[k] !== undefined,
  );
  if (given.length > 1) {
    return [
      errorEntry(
        "ingestConflict",
        `configuration.ingest.${given.join(" and configuration.ingest.")} exclude each other; give one`,
      ),
    ];
  }
  if (speakersOf(config).length === 0) {
    return [
      errorEntry("ingestAllChannelsIgnored", "configuration.ingest ignores every channel; keep at least one"),
    ];
  }
  return [];
}

function speakersOf(config: ConfigurationInput): SpeakerChannel[] {
  const ingest = config.ingest;
  // One track (the only kind Hark takes, see requested-features.ts) says what `ingest` itself would.
  const track = ingest?.tracks?.[0];
  const channels = track
    ? track.channels
    : ingest?.stereo
      ? [ingest.stereo.left, ingest.stereo.right]
      : ingest?.channels;
  const speakerName = track ? track.speakerName : ingest?.speakerName;
  if (!channels) return [{ speakerName: speakerName ?? "Speaker", channel: "mix" }];
  return channels.flatMap((channel, index) =>
    channel.ignore
      ? []
      : [
          {
            speakerName: channel.speakerName ?? `Speaker ${index + 1}`,
            channel: index,
            ...(channel.speakerRole !== undefined && { speakerRole: channel.speakerRole }),
          },
        ],
  );
}

/**
 * What to analyse. Knowledge, sentiment by turn and verb-noun pairs are computed unless turned off (they
 * need nothing but the transcript); spotting, prediction, metrics and categories when asked for, as
 * VoiceBase does.
 */
function analysisPlan(config: ConfigurationInput): AnalysisPlan {
  const categories = config.categories ?? [];
  return {
    advancedPunctuation: config.speechModel?.features?.includes("advancedPunctuation") ?? false,
    knowledge: config.knowledge?.enableDiscovery ?? true,
    speakerSentiments: config.speakerSentiments ?? true,
    verbNounPairs: config.conversation?.verbNounPairsEnabled ?? true,
    voiceFeatures: config.speechModel?.features?.includes("voiceFeatures") ?? false,
    metricGroups: (config.metrics ?? []).map((metric) => metric.metricGroupName),
    spottingGroups: (config.spotting?.groups ?? []).map((group) => group.groupName),
    categories: categories.some((category) => category.allCategories)
      ? "all"
      : categories.flatMap((category) =>
          category.categoryName === undefined ? [] : [category.categoryName],
        ),
    detectors: detectorsOf(config),
    numberFormatting: config.transcript?.formatting?.enableNumberFormatting ?? true,
    classifiers: (config.prediction?.classifiers ?? []).flatMap((classifier) => {
      const ref = classifier.classifierId ?? classifier.classifierName;
      return ref === undefined ? [] : [ref];
    }),
    ...(config.transcript?.contentFiltering?.enableProfanityFiltering === true && {
      profanityFiltering: true,
    }),
  };
}

/**
 * The detectors asked for. A built-in detector's id is its name (`GET /v3/definition/prediction/detectors`),
 * so one named by id alone is named.
 */
function detectorsOf(config: ConfigurationInput): DetectorRequest[] {
  return (config.prediction?.detectors ?? []).map((detector) =>
    detector.detectorName === undefined && detector.detectorId !== undefined
      ? { ...detector, detectorName: detector.detectorId }
      : detector,
  );
}

function analysisFaults(config: ConfigurationInput): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  detectorsOf(config).forEach((detector, index) => {
    const field = `configuration.prediction.detectors[${index}]`;
    if (detector.detectorName === undefined) {
      errors.push(
        errorEntry("detectorUnnamed", `${field} names no detector; give detectorName or detectorId`),
      );
      return;
    }
    if (detector.redactor && !detector.redactor.audio && !detector.redactor.transcript) {
      errors.push(errorEntry("redactorEmpty", `${field}.redactor redacts nothing; give audio or transcript`));
    }
    const fault = detectorRequestFault(detector);
    if (fault) {
      const known = (DETECTOR_NAMES as readonly string[]).includes(detector.detectorName);
      errors.push(errorEntry(known ? "configurationInvalid" : "detectorUnavailable", `${field}: ${fault}`));
    }
  });
  (config.prediction?.classifiers ?? []).forEach((classifier, index) => {
    if (classifier.classifierId === undefined && classifier.classifierName === undefined) {
      errors.push(
        errorEntry(
          "classifierUnnamed",
          `configuration.prediction.classifiers[${index}] names no classifier; give classifierId or classifierName`,
        ),
      );
    }
  });
  (config.categories ?? []).forEach((category, index) => {
    if ((category.allCategories === true) === (category.categoryName !== undefined)) {
      errors.push(
        errorEntry(
          "configurationInvalid",
          `configuration.categories[${index}] must have either categoryName or allCategories: true`,
        ),
      );
    }
  });
  const redactsAudio = (config.prediction?.detectors ?? []).some((detector) => detector.redactor?.audio);
  (config.publish?.callbacks ?? []).forEach((callback, index) => {
    if (callback.stream === "redacted-audio" && !redactsAudio) {
      errors.push(
        errorEntry(
          "configurationInvalid",
          `configuration.publish.callbacks[${index}].stream redacted-audio needs a detector with redactor.audio in configuration.prediction.detectors`,
        ),
      );
    }
  });
  return errors;
}

const CALLBACK_URL_FAULTS = {
  malformed: "callbackUrlInvalid",
  protocol: "callbackProtocolInvalid",
  refused: "urlNotAllowed",
} as const satisfies Record<OutboundUrlFault["kind"], ErrorName>;

function callbackFaults(config: ConfigurationInput, policy: UrlPolicy): ErrorEntry[] {
  return (config.publish?.callbacks ?? []).flatMap((callback, index) => {
    const field = `configuration.publish.callbacks[${index}]`;
    const type = callback.type ?? "analytics";
    const errors: ErrorEntry[] = [];
    const misplaced = { format: "transcript", include: "analytics", stream: "media" } as const;
    for (const [property, owner] of Object.entries(misplaced)) {
      if (callback[property as keyof typeof misplaced] !== undefined && type !== owner) {
        errors.push(
          errorEntry(
            "callbackPropertyMisplaced",
            `${field}.${property} applies only to type ${owner}; this callback is of type ${type}`,
          ),
        );
      }
    }
    const urlFault = checkOutboundUrl(callback.url, policy);
    if (urlFault) {
      const name = CALLBACK_URL_FAULTS[urlFault.kind];
      errors.push(errorEntry(name, `${field}.url ${urlFault.message}`));
    }
    return errors;
  });
}

export function normaliseCallback(callback: CallbackInput): Callback {
  const method = (callback.method ?? "POST").toUpperCase() as "POST" | "PUT";
  switch (callback.type ?? "analytics") {
    case "transcript":
      return { url: callback.url, method, type: "transcript", format: callback.format ?? "json" };
    case "media":
      return { url: callback.url, method, type: "media", stream: callback.stream ?? "original" };
    default:
      return {
        url: callback.url,
        method,
        type: "analytics",
        ...(callback.include && { include: callback.include }),
      };
  }
}

/**
 * Checks a URL that Hark will call on a client's behalf, as far as the URL alone tells: absolute,
 * https (http only when allowed), and not naming a loopback or private address literally. WHATWG URL
 * parsing already turns odd IPv4 spellings (`127.1`, `2130706433`, `0x7f.1`) into dotted form.
 */
export interface OutboundUrlFault {
  kind: "malformed" | "protocol" | "refused";
  message: string;
}

export function checkOutboundUrl(text: string, policy: UrlPolicy): OutboundUrlFault | undefined {
  // WHATWG URL parsing would strip or percent-encode them, but the text as given is what is stored.
  if (Array.from(text).some((char) => char < " " || char === "\u007f")) {
    return {
      kind: "malformed",
      message: "must not contain control characters (such as NUL or a line break)",
    };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { kind: "malformed", message: `must be an absolute URL; got ${JSON.stringify(text)}` };
  }
  if (url.protocol !== "https:" && !(policy.allowHttp && url.protocol === "http:")) {
    const allowed = policy.allowHttp ? "https or http" : "https";
    return { kind: "protocol", message: `must use ${allowed}; got ${url.protocol.slice(0, -1)}` };
  }
  if (url.username || url.password) {
    return { kind: "refused", message: "must not carry a user name or password" };
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  // Names are checked when connecting (src/net/guard.ts); literals and localhost can be judged now.
  const address = host === "localhost" || host.endsWith(".localhost") ? "127.0.0.1" : host;
  const addresses = addressPolicy({ allowPrivate: policy.allowPrivate, allowCidrs: policy.allowCidrs ?? [] });
  if (net.isIP(address) !== 0 && !isAllowedAddress(address, addresses)) {
    return { kind: "refused", message: `must name a public host; ${url.hostname} is loopback or private` };
  }
  return undefined;
}
