/**
 * One HTTP try of a callback, with undici: the method, the exact headers, the stored body; no redirect is
 * followed (a 3xx is a failed try), and the whole exchange is bounded in time. Every outcome comes back
 * as a `TryResult`; nothing throws.
 */
import dns from "node:dns/promises";
import net from "node:net";
import type { Readable } from "node:stream";
import { Agent, request } from "undici";
import { isPublicAddress } from "../net/address.ts";

export type ErrorKind = "dns" | "connect" | "tls" | "timeout" | "refused-address" | "http-status";

export interface OutboundRequest {
  url: string;
  method: "POST" | "PUT";
  headers: Record<string, string>;
  /** The bytes, or a function opening them as a stream (media), with their length. */
  body: Buffer | { open: () => Promise<Readable>; length: number };
}

export interface TryResult {
  succeeded: boolean;
  durationMs: number;
  statusCode?: number;
  errorKind?: ErrorKind;
  errorMessage?: string;
  /** The first 1 KiB of the response body. */
  responseSnippet?: string;
}

export interface CallbackSender {
  send(outbound: OutboundRequest): Promise<TryResult>;
  close(): Promise<void>;
}

export interface SenderOptions {
  connectTimeoutMs: number;
  timeoutMs: number;
  allowPrivate: boolean;
}

export const SNIPPET_BYTES = 1024;

export function undiciSender(options: SenderOptions): CallbackSender {
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  return {
    async send(outbound) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const refusal = options.allowPrivate ? undefined : await refusedAddress(outbound.url);
      if (refusal) return { succeeded: false, durationMs: elapsed(), ...refusal };
      const signal = AbortSignal.timeout(options.timeoutMs);
      try {
        const body = Buffer.isBuffer(outbound.body) ? outbound.body : await outbound.body.open();
        const response = await request(outbound.url, {
          method: outbound.method,
          headers: outbound.headers,
          body,
          dispatcher: agent,
          signal,
        });
        const responseSnippet = await snippet(response.body);
        const succeeded = response.statusCode >= 200 && response.statusCode <= 299;
        return {
          succeeded,
          durationMs: elapsed(),
          statusCode: response.statusCode,
          responseSnippet,
          ...(!succeeded && {
            errorKind: "http-status" as const,
            errorMessage: `HTTP ${response.statusCode}`,
          }),
        };
      } catch (error) {
        return { succeeded: false, durationMs: elapsed(), ...classifyError(error, signal) };
      }
    },
    close: () => agent.close(),
  };
}

/** Reads at most 1 KiB of the answer, then lets the rest go. */
async function snippet(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= SNIPPET_BYTES) break;
  }
  body.destroy();
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString("utf8");
}

/**
 * A try whose host resolves to a loopback, private or otherwise non-public address is refused and never
 * sent. (The connection is not yet pinned to the checked address; see the security issue.)
 */
async function refusedAddress(
  url: string,
): Promise<Pick<TryResult, "errorKind" | "errorMessage"> | undefined> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = net.isIP(host)
      ? [host]
      : (await dns.lookup(host, { all: true })).map((entry) => entry.address);
  } catch (error) {
    return { errorKind: "dns", errorMessage: `${host} did not resolve: ${(error as Error).message}` };
  }
  const refused = addresses.find((address) => !isPublicAddress(address));
  return refused === undefined
    ? undefined
    : {
        errorKind: "refused-address",
        errorMessage: `${host} resolves to ${refused}, which is not a public address`,
      };
}

const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
]);
const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "EAI_NONAME"]);

/** The kind of a failed exchange, from undici's and Node's error codes. Pure. */
export function classifyError(
  error: unknown,
  signal?: AbortSignal,
): Pick<TryResult, "errorKind" | "errorMessage"> {
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code ?? "";
  const message = error instanceof Error ? error.message : String(error);
  if (signal?.aborted || TIMEOUT_CODES.has(code) || (error as Error).name === "TimeoutError") {
    return { errorKind: "timeout", errorMessage: message };
  }
  if (DNS_CODES.has(code)) return { errorKind: "dns", errorMessage: message };
  if (
    /^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|UNABLE_TO|SELF_SIGNED|ERR_OSSL)/.test(code) ||
    /certificate|tls|ssl/i.test(message)
  ) {
    return { errorKind: "tls", errorMessage: message };
  }
  return { errorKind: "connect", errorMessage: code ? `${code}: ${message}` : message };
}
