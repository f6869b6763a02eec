/**
 * Fetches a `mediaUrl` into the blob store, streamed and bounded in size and time. The connection goes
 * through the address guard (`net/guard.ts`), so a host that resolves, at download time, to an address
 * that is not public is never contacted. Redirects are not followed: a redirect could lead to an address
 * the URL check never saw.
 */
import { pipeline, Transform } from "node:stream";
import { type Dispatcher, request } from "undici";
import type { BlobStore } from "../blobs/blob-store.ts";
import { serverFaultOf } from "../domain/server-faults.ts";
import { type GuardOptions, guardedAgent, REFUSED_ADDRESS } from "../net/guard.ts";

export class MediaDownloadError extends Error {
  override name = "MediaDownloadError";
  readonly kind: "unreachable" | "status";
  constructor(kind: "unreachable" | "status", message: string) {
    super(message);
    this.kind = kind;
  }
}

export interface DownloadLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Which addresses the download may connect to (the callbacks' policy). */
  guard: GuardOptions;
}

/** undici's own default: a host that does not accept within 10 s is not going to. */
const CONNECT_TIMEOUT_MS = 10_000;

export async function downloadMedia(
  url: string,
  blobs: BlobStore,
  key: string,
  limits: DownloadLimits,
  /** Aborted when the job is handed back or the item deleted: the download stops, and rejects with its reason. */
  cancel?: AbortSignal,
): Promise<{ bytes: number; contentType: string | undefined }> {
  // One agent per download: downloads are rare and long, so a shared pool would save nothing.
  const dispatcher = guardedAgent(limits.guard, {
    connectTimeoutMs: Math.min(CONNECT_TIMEOUT_MS, limits.timeoutMs),
    headersTimeoutMs: limits.timeoutMs,
    bodyTimeoutMs: limits.timeoutMs,
  });
  try {
    return await fetchInto(url, blobs, key, limits, dispatcher, cancel);
  } catch (error) {
    // Not the URL's fault: the work was called off.
    if (cancel?.aborted) throw cancel.reason;
    throw error;
  } finally {
    await dispatcher.destroy();
  }
}

async function fetchInto(
  url: string,
  blobs: BlobStore,
  key: string,
  limits: DownloadLimits,
  dispatcher: Dispatcher,
  cancel: AbortSignal | undefined,
): Promise<{ bytes: number; contentType: string | undefined }> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, {
      method: "GET",
      signal,
      headers: { "user-agent": "Hark" },
      dispatcher,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === REFUSED_ADDRESS) {
      throw new MediaDownloadError(
        "unreachable",
        `The media URL was not fetched: ${(error as Error).message}`,
      );
    }
    throw new MediaDownloadError(
      "unreachable",
      `The media URL could not be reached: ${(error as Error).message}`,
    );
  }
  if (response.statusCode < 200 || response.statusCode > 299) {
    response.body.resume();
    throw new MediaDownloadError("status", `Downloading the media URL answered HTTP ${response.statusCode}`);
  }
  let seen = 0;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limits.maxBytes)
        done(
          new MediaDownloadError("status", `The media at the URL is larger than ${limits.maxBytes} bytes`),
        );
      else done(null, chunk);
    },
  });
  // pipeline, not pipe: an error of either stream reaches the other and is always listened for, even once
  // the blob store has stopped reading (a connection that ends late would otherwise be an uncaught error).
  const body = pipeline(response.body, bounded, () => {});
  try {
    const bytes = await blobs.put(key, body);
    const contentType = String(response.headers["content-type"] ?? "")
      .split(";")[0]
      ?.trim()
      .toLowerCase();
    return {
      bytes,
      contentType: contentType && contentType !== "application/octet-stream" ? contentType : undefined,
    };
  } catch (error) {
    response.body.destroy();
    // The blob store could not keep the bytes (a full disk): Hark's fault, not the URL's; retried.
    if (error instanceof MediaDownloadError || serverFaultOf(error) !== undefined) throw error;
    throw new MediaDownloadError(
      "unreachable",
      `Downloading the media URL failed: ${(error as Error).message}`,
    );
  }
}
