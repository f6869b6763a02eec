/**
 * The closed set of errors a client can see, each with its HTTP status and a stable numeric code. Where
 * VoiceBase has a code for the case (spec/voicebase/errors/errors.rst: 10xxx, 15xxx, 20xxx, 40xxx,
 * 50xxx, 60xxx, 70xxx, 80xxx...) it is that code, so client code written against VoiceBase handles it;
 * 11xxx are Hark's. Every code is listed in docs/errors.md (a test checks it).
 *
 * Routes throw `ApiError`; the error handler in api/app.ts turns it into VoiceBase's envelope
 * `{status, errors: [{code, error}], reference}`.
 */
/** One fault, as VoiceBase's envelope and a failed media item's `errors[]` show it. */
export interface ErrorEntry {
  code: number;
  error: string;
}

export const errorCodes = {
  routeNotFound: { code: 10000, status: 404 },
  invalidMultipart: { code: 10001, status: 400 },
  missingAuthorization: { code: 10002, status: 401 },
  invalidAuthorization: { code: 10003, status: 401 },
  /** An API key's scope (`/v3/profile/keys`) does not cover this method and resource. */
  tokenNotAuthorized: { code: 10006, status: 403 },
  configurationUnparseable: { code: 10007, status: 400 },
  configurationPropertyNotAllowed: { code: 10008, status: 400 },
  priorityInvalid: { code: 10009, status: 400 },
  configurationDuplicateProperty: { code: 10010, status: 400 },
  /** The keys API (`/v3/profile/keys`) takes the account's user token, never an API key. */
  apiKeyNotAllowed: { code: 10012, status: 403 },
  metadataUnparseable: { code: 10107, status: 400 },
  externalIdEmpty: { code: 10108, status: 400 },
  externalIdTooLong: { code: 10109, status: 400 },
  metadataDuplicateProperty: { code: 10110, status: 400 },
  mediaUndecodable: { code: 10201, status: 400 },
  mediaMissing: { code: 10202, status: 400 },
  mediaUrlUnreachable: { code: 10203, status: 400 },
  mediaUrlMalformed: { code: 10204, status: 400 },
  notFound: { code: 10205, status: 404 },
  tooManyAttachments: { code: 10206, status: 400 },
  mediaUrlDownloadFailed: { code: 10207, status: 400 },
  notFinished: { code: 10301, status: 409 },
  /** A language other than English: Hark's recogniser would hear nonsense. */
  languageUnsupported: { code: 10601, status: 400 },
  speechModelExtensionUnknown: { code: 10602, status: 400 },
  speechModelFeatureUnknown: { code: 10603, status: 400 },
  /**
   * A request larger than its route takes: the media file (HARK_MAX_UPLOAD_BYTES), metadata
   * (HARK_MAX_METADATA_BYTES), a text part (1 MiB), a
   * JSON body (64 KiB for a public key, 4 MiB for training, else 1 MiB).
   */
  bodyTooLarge: { code: 10800, status: 413 },
  configurationInvalid: { code: 11001, status: 400 },
  urlNotAllowed: { code: 11002, status: 400 },
  adminDisabled: { code: 11004, status: 403 },
  invalidRequest: { code: 11005, status: 400 },
  accountNameTaken: { code: 11006, status: 409 },
  unsupportedMediaType: { code: 11007, status: 415 },
  featureUnsupported: { code: 11009, status: 400 },
  recognitionFailed: { code: 11101, status: 500 },
  /** A failed item's `errors`: the corrected transcript of a reprocess is too long to align to the recording. */
  alignmentTooLarge: { code: 11102, status: 400 },
  /**
   * The media is longer than HARK_MAX_MEDIA_SECONDS: refused at upload when the container says so (413, as
   * for too many bytes), else in a failed item's `errors`.
   */
  mediaTooLong: { code: 11103, status: 413 },
  spottingGroupInvalid: { code: 11201, status: 400 },
  categoryInvalid: { code: 11202, status: 400 },
  categoryQueryInvalid: { code: 11203, status: 400 },
  classifierInvalid: { code: 11204, status: 400 },
  classifierTrainingFailed: { code: 11205, status: 400 },
  definitionNameMismatch: { code: 11206, status: 400 },
  /** An upload names a category or classifier the account has not defined. */
  definitionNotFound: { code: 11207, status: 400 },
  /** A vocabulary body that is not one: not an object, a bad name, a field of the wrong type, an unknown property. */
  vocabularyInvalid: { code: 11208, status: 400 },
  /** The account has as many active signing secrets as a callback is signed with. */
  signingSecretLimit: { code: 11301, status: 409 },
  /** The body of `POST /v3/security/signing-secrets/{secretId}/expire` is not `{"afterSeconds": 0..604800}`. */
  signingSecretExpiryInvalid: { code: 11302, status: 400 },
  /** The signing secret has expired already: it cannot be given another expiry. */
  signingSecretExpired: { code: 11303, status: 409 },
  /** A redelivery of a callback that has nothing to send yet, is due to be sent, or has a burst running. */
  redeliveryRefused: { code: 11401, status: 409 },
  /** A redelivery sooner than `REDELIVERY_INTERVAL_MS` after the callback's last accepted redelivery. */
  redeliveryTooSoon: { code: 11402, status: 429 },
  /** More uploads and reprocesses in a minute than HARK_ACCOUNT_UPLOADS_PER_MINUTE; `Retry-After` says when. */
  uploadsPerMinuteExceeded: { code: 11403, status: 429 },
  /** More redeliveries in a minute than HARK_ACCOUNT_REDELIVERIES_PER_MINUTE; `Retry-After` says when. */
  redeliveriesPerMinuteExceeded: { code: 11404, status: 429 },
  /** Request headers larger than Node's HTTP parser takes (16 KiB); answered before any route runs. */
  headersTooLarge: { code: 11410, status: 431 },
  /** Too many failed authentications from one client address in a minute; `Retry-After` says how long. */
  authenticationThrottled: { code: 11411, status: 429 },
  /** The body of `POST /v3/security/public-keys` is not an OpenPGP public key that can encrypt now. */
  invalidPublicKey: { code: 11501, status: 400 },
  /** `configuration.encryption.publicKeyId` names no public key of the account (or it was deleted). */
  publicKeyNotFound: { code: 11502, status: 400 },
  /** A reprocess of an item still `accepted` or `running`. */
  stillProcessing: { code: 11601, status: 409 },
  /** A reprocess of an item whose original is gone, or is held only encrypted to the client's key. */
  originalUnavailable: { code: 11602, status: 409 },
  /** A stream link (`streamLocation`) that has expired or was not signed by this installation. */
  streamLinkInvalid: { code: 11701, status: 403 },
  /** A request body that sent nothing for HARK_UPLOAD_IDLE_TIMEOUT_SECONDS, or outlasted HARK_UPLOAD_TIMEOUT_SECONDS. */
  requestTimeout: { code: 11801, status: 408 },
  /**
   * Hark ran out of disk (its temp directory, blob store or database) while storing or processing: the
   * server's fault, not the media's. 507 Insufficient Storage says exactly that, and is a 5xx, so a
   * client's retry logic treats it as the server's and tries again later.
   */
  storageFull: { code: 11994, status: 507 },
  internal: { code: 11999, status: 500 },
  /** `ingest` names more than one of `speakerName`, `stereo`, `channels`, `tracks`. */
  ingestConflict: { code: 15000, status: 400 },
  ingestChannelsEmpty: { code: 15001, status: 400 },
  /** Only in a failed item's `errors`: `ingest` names a channel the media does not have. */
  ingestChannelsMismatch: { code: 15004, status: 400 },
  ingestAllChannelsIgnored: { code: 15005, status: 400 },
  vocabularyNothingGiven: { code: 20006, status: 400 },
  vocabularyNamedAndTerms: { code: 20007, status: 400 },
  vocabularyNotFound: { code: 20008, status: 400 },
  vocabularyEmpty: { code: 20009, status: 400 },
  vocabularyTermsOverLimit: { code: 20010, status: 400 },
  vocabularyTermEmpty: { code: 20014, status: 400 },
  vocabularyWeightInvalid: { code: 20015, status: 400 },
  vocabularyTermsDuplicated: { code: 20017, status: 400 },
  spottingGroupNotFound: { code: 40005, status: 400 },
  classifierUnnamed: { code: 50002, status: 400 },
  detectorUnnamed: { code: 50004, status: 400 },
  /** A detector names an unknown detector or parameter value; VoiceBase's "not available" code. */
  detectorUnavailable: { code: 50006, status: 400 },
  redactorEmpty: { code: 50007, status: 400 },
  redactorPropertyMissing: { code: 50008, status: 400 },
  callbackUrlMissing: { code: 60001, status: 400 },
  callbackProtocolInvalid: { code: 60002, status: 400 },
  callbackIncludeUnknown: { code: 60003, status: 400 },
  callbackUrlInvalid: { code: 60006, status: 400 },
  callbackTypeUnknown: { code: 60007, status: 400 },
  callbackPropertyMisplaced: { code: 60008, status: 400 },
  callbackFormatInvalid: { code: 60010, status: 400 },
  callbackMethodInvalid: { code: 60011, status: 400 },
  /** `POST /v3/profile/keys` with no configuration at all (VoiceBase's 70000–70008 below). */
  apiKeyConfigurationEmpty: { code: 70000, status: 400 },
  apiKeyExpiryAmbiguous: { code: 70001, status: 400 },
  apiKeyExpirationPast: { code: 70002, status: 400 },
  apiKeyExpirationTooLate: { code: 70003, status: 400 },
  apiKeyTtlNotPositive: { code: 70004, status: 400 },
  apiKeyTtlTooLong: { code: 70005, status: 400 },
  apiKeyEphemeralWithoutExpiry: { code: 70006, status: 400 },
  apiKeyNotFound: { code: 70007, status: 404 },
  apiKeyScopeInvalid: { code: 70008, status: 400 },
  /** `PUT /v3/definition/spotting/groups/{groupName}` without a body. */
  keywordGroupMissing: { code: 80100, status: 400 },
  /** A keyword group without keywords. */
  keywordGroupEmpty: { code: 80101, status: 400 },
  keywordGroupNameMismatch: { code: 80102, status: 400 },
  /** A keyword that is not one: not a string, blank, too long, or with no word to spot. */
  keywordInvalid: { code: 80103, status: 400 },
  /** `PUT /v3/definition/vocabularies/{vocabularyName}` without a body, or with `{}`. */
  vocabularyMissing: { code: 80200, status: 400 },
  vocabularyNameMismatch: { code: 80202, status: 400 },
  vocabularyTermInvalid: { code: 80203, status: 400 },
  vocabularyTermsAndScripts: { code: 80204, status: 400 },
  /** Scripts without `vocabularyType: "scripts"`, or a `vocabularyType` that is not what the body holds. */
  vocabularyTypeMismatch: { code: 80205, status: 400 },
  vocabularyWithoutTerms: { code: 80206, status: 400 },
  vocabularyScriptInvalid: { code: 80207, status: 400 },
  vocabularyTooManyTerms: { code: 80208, status: 400 },
  vocabularyDuplicateTerms: { code: 80209, status: 400 },
  /** `PUT /v3/definition/media/search` without a `fields` array. */
  searchableFieldsMissing: { code: 80300, status: 400 },
  /** A searchable field that is not `extended.` and a dotted path. */
  searchableFieldNameInvalid: { code: 80301, status: 400 },
  /** A searchable field written as a path expression (wildcards, filters, indexes). */
  searchableFieldExpressionInvalid: { code: 80302, status: 400 },
  /** A searchable field longer than MAX_SEARCHABLE_FIELD_LENGTH. */
  searchableFieldTooLong: { code: 80303, status: 400 },
} as const satisfies Record<string, { code: number; status: number }>;

export type ErrorName = keyof typeof errorCodes;

/**
 * A warning (VoiceBase's `VbMessage`): something the client asked for or sent that Hark did not do as
 * asked, shown in the document's `warnings` (and the spec's `messages` section). Never a refusal.
 */
export interface Message {
  code: number;
  message: string;
}

/** Codes of the warnings a media item may carry. */
export const messageCodes = {
  noSpeech: 12001,
  /** A spotting group, category, classifier or vocabulary the configuration named was deleted before processing ran. */
  definitionMissing: 12002,
  /**
   * The configuration asks for a VoiceBase feature this version of Hark does not compute yet, or a
   * vocabulary term has no pronunciation, so recognition cannot listen for it.
   */
  featureNotComputed: 12003,
} as const;

export function errorEntry(errorName: ErrorName, message: string): ErrorEntry {
  return { code: errorCodes[errorName].code, error: message };
}

/** A fault the client can fix. Several faults of one request (a configuration's) travel together. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly errors: ErrorEntry[];

  constructor(errorName: ErrorName, message: string) {
    super(message);
    this.status = errorCodes[errorName].status;
    this.errors = [errorEntry(errorName, message)];
  }

  /** One error carrying several faults; its status is the first fault's. */
  static of(first: ErrorEntry, ...rest: ErrorEntry[]): ApiError {
    const name = (Object.keys(errorCodes) as ErrorName[]).find((key) => errorCodes[key].code === first.code);
    const error = new ApiError(name ?? "internal", first.error);
    error.errors.push(...rest);
    return error;
  }
}

export interface ErrorEnvelope {
  status: number;
  errors: ErrorEntry[];
  reference: string;
}
