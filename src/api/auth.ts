/**
 * Bearer-token authentication of `/v3` requests: the account a token belongs to, or 401. A token is the
 * account's user token (made with the account) or one of its API keys (`/v3/profile/keys`) in force; a
 * key's scope, when it has one, limits what it may send (10006).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Account } from "../domain/account.ts";
import { parseScope, scopePermits } from "../domain/api-key.ts";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { credentialByToken } from "../store/accounts.ts";
import { type FailedAuthentications, refuseWhileThrottled } from "./auth-throttle.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Failed authentications per client address, one count for the whole app (`buildApp`). */
    failedAuthentications: FailedAuthentications;
  }
  interface FastifyRequest {
    account: Account;
    /** Set when the token is an API key rather than the account's user token. */
    apiKey?: { keyId: string; scope: string | undefined };
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}

export function requireAccount(services: Services) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request);
    if (token === undefined) {
      throw new ApiError(
        "missingAuthorization",
        "Send your account token as 'Authorization: Bearer <token>'",
      );
    }
    const failed = request.server.failedAuthentications;
    const now = services.clock.now();
    refuseWhileThrottled(failed, request, reply, now.getTime());
    const credential = token === "" ? undefined : await credentialByToken(services.db, token, now);
    if (!credential) {
      failed.record(request.ip, now.getTime());
      throw new ApiError(
        "invalidAuthorization",
        "The bearer token is not a valid account token or API key (an API key stops working when it expires or is deleted)",
      );
    }
    request.account = credential.account;
    if (credential.apiKey) request.apiKey = credential.apiKey;
    const scope = credential.apiKey?.scope;
    // The keys API refuses every key on its own (requireUserToken), whatever its scope.
    if (
      scope !== undefined &&
      !isKeysApi(request) &&
      !scopePermits(parseScope(scope), request.method, request.url)
    ) {
      throw new ApiError(
        "tokenNotAuthorized",
        `This API key's scope (${scope}) does not allow ${request.method} ${request.url.split("?")[0]}; use a key whose scope does, or the user token`,
      );
    }
  };
}

/** For the keys API: VoiceBase lets only the user token manage keys, so that no key outlives its own limits. */
export async function requireUserToken(request: FastifyRequest): Promise<void> {
  if (request.apiKey) {
    throw new ApiError(
      "apiKeyNotAllowed",
      "The keys API takes the account's user token (the one POST /admin/accounts gave), not an API key",
    );
  }
}

function isKeysApi(request: FastifyRequest): boolean {
  return request.url.startsWith("/v3/profile/");
}
