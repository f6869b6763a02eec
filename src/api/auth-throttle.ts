/**
 * A brake on token guessing: failed authentications (a wrong account token, API key or admin token) are
 * counted per client address, and an address that failed `AUTH_FAILURE_LIMIT` times within a minute has
 * every token refused (429, `Retry-After`) until its minute is over. A right token from that address is
 * refused too: answering it would tell a guesser which guess was right. A right token is never counted
 * and costs nothing, and one does not clear the count (a guesser with an account of its own would send
 * it between guesses).
 *
 * The counts live in this process's memory, bounded: several API processes each count on their own, so
 * the limit an address meets is this one times the number of processes. The address is the connection's
 * unless it is a proxy named in `HARK_TRUST_PROXY`: behind an untrusted proxy every client shares the
 * proxy's, and one guesser locks out the others' wrong tokens and right ones alike for its minute.
 */
import net from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import ipaddr from "ipaddr.js";
import { ApiError } from "../domain/errors.ts";

export const AUTH_FAILURE_LIMIT = 10;

export interface FailureLimits {
  /** Failures one address may have in a window; the next request is refused. 0: no limit. */
  readonly failures: number;
  readonly windowMs: number;
  /** Addresses remembered at most; past it the oldest window is forgotten. */
  readonly maxAddresses: number;
}

export const AUTH_FAILURE_LIMITS: FailureLimits = {
  failures: AUTH_FAILURE_LIMIT,
  windowMs: 60_000,
  // About 1 MB of memory at most.
  maxAddresses: 10_000,
};

interface Window {
  startMs: number;
  failures: number;
}

/** Failure counts per client address, in fixed windows. Time is passed in. */
export class FailedAuthentications {
  readonly #limits: FailureLimits;
  // Insertion order is window start order (a new window is re-inserted), so the first key is the oldest.
  readonly #windows = new Map<string, Window>();

  constructor(limits: FailureLimits = AUTH_FAILURE_LIMITS) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#windows.size;
  }

  /** How long `address` must wait before a token from it is looked at again; 0 when it need not. */
  waitMs(address: string, nowMs: number): number {
    if (this.#limits.failures === 0) return 0;
    const window = this.#windows.get(clientKey(address));
    if (!window || window.failures < this.#limits.failures) return 0;
    return Math.max(0, window.startMs + this.#limits.windowMs - nowMs);
  }

  record(address: string, nowMs: number): void {
    if (this.#limits.failures === 0) return;
    const key = clientKey(address);
    const window = this.#windows.get(key);
    if (window && nowMs < window.startMs + this.#limits.windowMs) {
      window.failures += 1;
      return;
    }
    this.#windows.delete(key);
    while (this.#windows.size >= this.#limits.maxAddresses) {
      const oldest = this.#windows.keys().next().value;
      if (oldest === undefined) break;
      this.#windows.delete(oldest);
    }
    this.#windows.set(key, { startMs: nowMs, failures: 1 });
  }
}

/**
 * The unit an address is counted by: an IPv4 address, or an IPv6 /64 (one host commonly has a whole /64
 * to pick addresses from). An IPv4-mapped IPv6 address is its IPv4 address.
 */
export function clientKey(address: string): string {
  if (!net.isIPv6(address)) return address;
  const parsed = ipaddr.IPv6.parse(address);
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${parsed.parts.slice(0, 4).join(":")}::/64`;
}

/**
 * Refuses the request when its address is being refused. Called before a token is looked at; the
 * reply gets `Retry-After` in whole seconds.
 */
export function refuseWhileThrottled(
  failed: FailedAuthentications,
  request: FastifyRequest,
  reply: FastifyReply,
  nowMs: number,
): void {
  const waitMs = failed.waitMs(request.ip, nowMs);
  if (waitMs === 0) return;
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  reply.header("retry-after", String(seconds));
  throw new ApiError(
    "authenticationThrottled",
    `Too many requests from your address failed authentication in the last minute; check the token you send and try again in ${seconds} seconds (Retry-After)`,
  );
}
