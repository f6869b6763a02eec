/** Bearer-token authentication of `/v3` requests: the account a token belongs to, or 401. */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Account } from "../domain/account.ts";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { accountByToken } from "../store/accounts.ts";

declare module "fastify" {
  interface FastifyRequest {
    account: Account;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}

export function requireAccount(services: Services) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const token = bearerToken(request);
    if (token === undefined) {
      throw new ApiError(
        "missingAuthorization",
        "Send your account token as 'Authorization: Bearer <token>'",
      );
    }
    const account = token === "" ? undefined : await accountByToken(services.db, token);
    if (!account) throw new ApiError("invalidAuthorization", "The bearer token is not a valid account token");
    request.account = account;
  };
}
