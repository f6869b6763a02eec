/**
 * A client that goes away mid-request (closes or resets the connection while its body is being read or
 * its answer written) is an ordinary event, not a fault of Hark's: it is logged at info, and the errors
 * it causes downstream (the body stream's `aborted`, a pipeline's premature close) are not reported as
 * 500s. Real faults keep their error level.
 */
import type { FastifyRequest } from "fastify";

const DISCONNECT_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ERR_STREAM_PREMATURE_CLOSE"]);

/** True when `error` comes of the client going away rather than of a fault. */
export function isClientDisconnect(error: Error & { code?: unknown }, request: FastifyRequest): boolean {
  if (typeof error.code === "string" && DISCONNECT_CODES.has(error.code)) return true;
  // Whatever a handler was doing, a request whose connection is gone before it was read whole was
  // broken off by the client; the error it causes may carry no code at all.
  return request.raw.destroyed && !request.raw.complete;
}
