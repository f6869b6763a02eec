/**
 * The per-account request limits as routes apply them: a request over its account's limit is refused
 * with 429, `Retry-After` (whole seconds) and the error envelope. The counting is in
 * store/account-limits.ts.
 */
import type { FastifyReply } from "fastify";
import { ApiError } from "../domain/errors.ts";
import type { Allowance, LimitedRequest } from "../store/account-limits.ts";

const REFUSALS = {
  upload: {
    name: "uploadsPerMinuteExceeded",
    what: "uploads per minute (reprocesses count as uploads)",
    setting: "HARK_ACCOUNT_UPLOADS_PER_MINUTE",
    again: "upload",
  },
  redelivery: {
    name: "redeliveriesPerMinuteExceeded",
    what: "redeliveries per minute, over all its callbacks",
    setting: "HARK_ACCOUNT_REDELIVERIES_PER_MINUTE",
    again: "redeliver",
  },
} as const;

/** Throws the 429 for `kind` when `allowance` refuses, having set `Retry-After` on `reply`. */
export function requireAllowance(
  reply: FastifyReply,
  kind: LimitedRequest,
  perMinute: number,
  allowance: Allowance,
): void {
  if (allowance.allowed) return;
  const seconds = Math.ceil(allowance.retryAfterMs / 1000);
  const refusal = REFUSALS[kind];
  reply.header("retry-after", String(seconds));
  throw new ApiError(
    refusal.name,
    `This account may make ${perMinute} ${refusal.what} (${refusal.setting}); nothing was done. ${capitalised(refusal.again)} again in ${seconds} s`,
  );
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
