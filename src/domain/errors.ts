/**
 * The closed set of errors a client can see, each with its HTTP status and a stable numeric code. Codes
 * 10xxx are VoiceBase's own (spec/voicebase/errors/errors.rst) where VoiceBase has one for the case;
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
  configurationUnparseable: { code: 10007, status: 400 },
  configurationPropertyNotAllowed: { code: 10008, status: 400 },
  metadataUnparseable: { code: 10107, status: 400 },
  externalIdEmpty: { code: 10108, status: 400 },
  externalIdTooLong: { code: 10109, status: 400 },
  mediaUndecodable: { code: 10201, status: 400 },
  mediaMissing: { code: 10202, status: 400 },
  mediaUrlUnreachable: { code: 10203, status: 400 },
  mediaUrlMalformed: { code: 10204, status: 400 },
  notFound: { code: 10205, status: 404 },
  tooManyAttachments: { code: 10206, status: 400 },
  mediaUrlDownloadFailed: { code: 10207, status: 400 },
  notFinished: { code: 10301, status: 409 },
  configurationInvalid: { code: 11001, status: 400 },
  urlNotAllowed: { code: 11002, status: 400 },
  uploadTooLarge: { code: 11003, status: 413 },
  adminDisabled: { code: 11004, status: 403 },
  invalidRequest: { code: 11005, status: 400 },
  accountNameTaken: { code: 11006, status: 409 },
  unsupportedMediaType: { code: 11007, status: 415 },
  featureUnsupported: { code: 11009, status: 400 },
  /** A JSON or text body larger than its route takes (64 KiB for a public key, 4 MiB for training, else 1 MiB). */
  bodyTooLarge: { code: 11010, status: 413 },
  recognitionFailed: { code: 11101, status: 500 },
  spottingGroupInvalid: { code: 11201, status: 400 },
  categoryInvalid: { code: 11202, status: 400 },
  categoryQueryInvalid: { code: 11203, status: 400 },
  classifierInvalid: { code: 11204, status: 400 },
  classifierTrainingFailed: { code: 11205, status: 400 },
  definitionNameMismatch: { code: 11206, status: 400 },
  /** An upload names a spotting group, category or classifier the account has not defined. */
  definitionNotFound: { code: 11207, status: 400 },
  /** The account has as many active signing secrets as a callback is signed with. */
  signingSecretLimit: { code: 11301, status: 409 },
  /** The body of `POST /v3/security/signing-secrets/{secretId}/expire` is not `{"afterSeconds": 0..604800}`. */
  signingSecretExpiryInvalid: { code: 11302, status: 400 },
  /** The signing secret has expired already: it cannot be given another expiry. */
  signingSecretExpired: { code: 11303, status: 409 },
  /** A redelivery of a callback that has nothing to send yet, or has a burst running. */
  redeliveryRefused: { code: 11401, status: 409 },
  /** The body of `POST /v3/security/public-keys` is not an OpenPGP public key that can encrypt now. */
  invalidPublicKey: { code: 11501, status: 400 },
  /** `configuration.encryption.publicKeyId` names no public key of the account (or it was deleted). */
  publicKeyNotFound: { code: 11502, status: 400 },
  internal: { code: 11999, status: 500 },
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

/** Codes of the warnings (`messages[]`) a finished media item may carry. */
export const messageCodes = {
  noSpeech: 12001,
  /** A spotting group, category or classifier the configuration named was deleted before processing ran. */
  definitionMissing: 12002,
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
