/**
 * API keys, as VoiceBase's key management (`/v3/profile/keys`) has them.
 *
 * - **user token**: the bearer token made with the account (`POST /admin/accounts`). It may do everything,
 *   managing the account's API keys included.
 * - **API key**: a bearer token the account makes for itself with the user token. It works like the user
 *   token until it expires or is deleted, within its scope, and never for the keys API itself (VoiceBase
 *   refuses a key there with 10012: a key that could make keys could outlive its own expiry).
 * - **expiry**: `expirationDate` or `ttlMillis`, at most 2 hours ahead (VoiceBase's 70002–70005); a key
 *   given neither works until deleted, unless it is `ephemeral`, which needs one (70006).
 * - **scope**: VoiceBase's `resource:method` text (`media:get`); several, separated by spaces, add up.
 *
 * The checks are pure: the caller passes the time.
 */
import { ApiError } from "./errors.ts";

/** VoiceBase's limit on a key's life: its expiry at most 2 hours ahead. */
export const MAX_KEY_LIFE_MS = 2 * 60 * 60 * 1000;

/** VoiceBase's `VbKeyConfiguration`, the body of `POST /v3/profile/keys`. */
export interface KeyConfiguration {
  ttlMillis?: number;
  expirationDate?: string;
  ephemeral?: boolean;
  scope?: string;
}

/** What the resources of a scope are called: the first segment of a `/v3` path. */
export const SCOPE_RESOURCES = ["media", "definition", "security", "usage"] as const;
export const SCOPE_METHODS = ["get", "post", "put", "delete"] as const;

export interface ScopeGrant {
  resource: (typeof SCOPE_RESOURCES)[number];
  method: (typeof SCOPE_METHODS)[number];
}

/**
 * When a key made with `configuration` at `now` stops working: undefined for never. Throws the VoiceBase
 * error (70000–70006) for a configuration it would refuse.
 */
export function keyExpiry(configuration: KeyConfiguration | null, now: Date): Date | undefined {
  if (configuration === null || Object.keys(configuration).length === 0) {
    throw new ApiError(
      "apiKeyConfigurationEmpty",
      'The key configuration is empty; send at least one of ephemeral, expirationDate, ttlMillis or scope (e.g. {"ephemeral": false} for a key that works until deleted)',
    );
  }
  const { ttlMillis, expirationDate, ephemeral } = configuration;
  if (ttlMillis !== undefined && expirationDate !== undefined) {
    throw new ApiError("apiKeyExpiryAmbiguous", "Send either expirationDate or ttlMillis, not both");
  }
  const latest = now.getTime() + MAX_KEY_LIFE_MS;
  if (expirationDate !== undefined) {
    const expiresAt = new Date(expirationDate);
    if (expiresAt.getTime() <= now.getTime()) {
      throw new ApiError(
        "apiKeyExpirationPast",
        `expirationDate ${expirationDate} is not after now (${now.toISOString()}); send a time in the next 2 hours`,
      );
    }
    if (expiresAt.getTime() > latest) {
      throw new ApiError(
        "apiKeyExpirationTooLate",
        `expirationDate ${expirationDate} is more than 2 hours from now; send a time before ${new Date(latest).toISOString()}`,
      );
    }
    return expiresAt;
  }
  if (ttlMillis !== undefined) {
    if (ttlMillis <= 0) {
      throw new ApiError(
        "apiKeyTtlNotPositive",
        `ttlMillis is ${ttlMillis}; send a number of milliseconds above 0`,
      );
    }
    if (ttlMillis > MAX_KEY_LIFE_MS) {
      throw new ApiError(
        "apiKeyTtlTooLong",
        `ttlMillis is ${ttlMillis}; send at most ${MAX_KEY_LIFE_MS} (2 hours)`,
      );
    }
    return new Date(now.getTime() + ttlMillis);
  }
  if (ephemeral === true) {
    throw new ApiError(
      "apiKeyEphemeralWithoutExpiry",
      "An ephemeral key needs an end: send expirationDate or ttlMillis (at most 2 hours ahead)",
    );
  }
  return undefined;
}

/**
 * The grants of a scope text, or the VoiceBase error 70008 saying what is wrong with it. VoiceBase's form
 * `media:get?extendedFilter=...` narrows a key to some media; Hark cannot enforce such a filter, and a key
 * that silently did more than it says would be worse than a refusal.
 */
export function parseScope(scope: string): ScopeGrant[] {
  const items = scope.trim().split(/\s+/).filter(Boolean);
  if (items.length === 0) throw scopeError("it is empty; leave scope out for a key without limits");
  return items.map((item) => {
    const [grant = "", query] = splitOnce(item, "?");
    if (query !== undefined) {
      throw scopeError(
        `${JSON.stringify(item)} has a filter (?${query}); Hark cannot limit a key to some media, so send ${JSON.stringify(grant)} alone`,
      );
    }
    const [resource = "", method] = splitOnce(grant, ":");
    const known = SCOPE_RESOURCES.find((name) => name === resource);
    if (known === undefined) {
      throw scopeError(`${JSON.stringify(item)} names no resource; use one of ${SCOPE_RESOURCES.join(", ")}`);
    }
    const verb = SCOPE_METHODS.find((name) => name === method);
    if (verb === undefined) {
      throw scopeError(
        `${JSON.stringify(item)} names no method; write ${resource}:<method> with one of ${SCOPE_METHODS.join(", ")}`,
      );
    }
    return { resource: known, method: verb };
  });
}

/** Whether `grants` let a key send `method` to `path` (a `/v3/...` URL, query allowed). */
export function scopePermits(grants: readonly ScopeGrant[], method: string, path: string): boolean {
  const resource = (path.split("?")[0] ?? "").split("/")[2];
  const verb = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  return grants.some((grant) => grant.resource === resource && grant.method === verb);
}

function scopeError(fault: string): ApiError {
  return new ApiError("apiKeyScopeInvalid", `The key's scope cannot be used: ${fault}`);
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
