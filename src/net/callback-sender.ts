/**
 * One HTTP try of a callback, with undici: the method, the exact headers, the stored body; no redirect is
 * followed (a 3xx is a failed try), and the whole exchange is bounded in time. Every connection goes
 * through the address guard (`net/guard.ts`), so a host that resolves, at this try, to an address that
 * is not public is refused before anything is sent. Every outcome comes back as a `TryResult`; nothing
 * throws.
 */
import type { Readable } from "node:stream";
import { request } from "undici";
import type { TryResult } from "../domain/delivery.ts";
import { guardedAgent, REFUSED_ADDRESS, type Resolver } from "./guard.ts";

export interface OutboundRequest {
  url: string;
  method: "POST" | "PUT";
  headers: Record<string, string>;
  /** The bytes, or a function opening them as a stream (media), with their length. */
  body: Buffer | { open: () => Promise<Readable>; length: number };
}

export interface CallbackSender {
  send(outbound: OutboundRequest): Promise<TryResult>;
  close(): Promise<void>;
}

export interface SenderOptions {
  connectTimeoutMs: number;
  timeoutMs: number;
  /** Development only: the address guard is off. */
  allowPrivate: boolean;
  /** Non-public networks callbacks may reach all the same (`HARK_CALLBACK_ALLOW_CIDRS`). */
  allowCidrs?: readonly string[];
  /** Resolves host names; tests inject one, by default the system resolver. */
  resolve?: Resolver;
}

export const SNIPPET_BYTES = 1024;

export function undiciSender(options: SenderOptions): CallbackSender {
  const agent = guardedAgent(
    {
      allowPrivate: options.allowPrivate,
      allowCidrs: options.allowCidrs ?? [],
      ...(options.resolve && { resolve: options.resolve }),
    },
    {
      connectTimeoutMs: options.connectTimeoutMs,
      headersTimeoutMs: options.timeoutMs,
      bodyTimeoutMs: options.timeoutMs,
    },
  );
  return {
    async send(outbound) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const signal = AbortSignal.timeout(options.timeoutMs);
      let body: Buffer | Readable | undefined;
      try {
        body = Buffer.isBuffer(outbound.body) ? outbound.body : await outbound.body.open();
        const response = await request(outbound.url, {
          method: outbound.method,
          headers: outbound.headers,
          body,
          dispatcher: agent,
          signal,
        });
        const responseSnippet = await snippet(response.body);
        const succeeded = response.statusCode >= 200 && response.statusCode <= 299;
        const retryAfterMs =
          response.statusCode === 429 || response.statusCode === 503
            ? parseRetryAfter(response.headers["retry-after"], Date.now())
            : undefined;
        return {
          succeeded,
          durationMs: elapsed(),
          statusCode: response.statusCode,
          responseSnippet,
          ...(retryAfterMs !== undefined && { retryAfterMs }),
          ...(!succeeded && {
            errorKind: "http-status" as const,
            errorMessage:
              `HTTP ${response.statusCode}` +
              (retryAfterMs === undefined ? "" : `, Retry-After ${Math.ceil(retryAfterMs / 1000)} s`),
          }),
        };
      } catch (error) {
        // A refused or failed connection never read the opened media stream: let its file go.
        if (body && !Buffer.isBuffer(body)) body.destroy();
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
 * A Retry-After header as milliseconds from `nowMs`: delay-seconds or an HTTP date (RFC 9110 10.2.3).
 * Undefined when absent or unreadable. Pure.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number): number | undefined {
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP date form starts with the day's name; Date.parse alone would take "1.5" for a date.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
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
  // Refused by the address guard: nothing was sent, whatever else happened meanwhile.
  if (code === REFUSED_ADDRESS) return { errorKind: "refused-address", errorMessage: message };
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
