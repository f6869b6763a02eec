/**
 * Answers to requests Node's HTTP parser refuses before Fastify sees them (a malformed request line,
 * headers over Node's 16 KiB, a request that took too long to arrive): in VoiceBase's envelope like every
 * other error, instead of Fastify's own `{"error","message","statusCode"}`. The connection is closed after
 * the answer: the parser has lost its place in the byte stream, so nothing more on it can be read.
 */
import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import { ApiError, type ErrorEnvelope } from "../domain/errors.ts";

/** The fault Node reported, in the client's terms. Pure. */
export function clientErrorAnswer(code: string | undefined): ApiError {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new ApiError(
        "headersTooLarge",
        "The request's headers are larger than 16 KiB in all; send smaller headers (large cookies or custom headers)",
      );
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return new ApiError(
        "bodyTooLarge",
        "The chunked body's chunk extensions are too large; send the body without them",
      );
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new ApiError(
        "requestTimeout",
        "The request took too long to arrive (its headers, or all of it); send it without pauses",
      );
    default:
      return new ApiError(
        "invalidRequest",
        `The request is not well-formed HTTP/1.1 (${code ?? "parse error"}); check the request line and headers`,
      );
  }
}

/** The HTTP server's `clientError` listener (Fastify's `clientErrorHandler` option). */
export function clientErrorHandler(log: FastifyBaseLogger) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    // A connection the client reset (or that is gone already) has nobody to answer.
    // HPE_INVALID_EOF_STATE: it closed its end mid-request.
    if (error.code === "ECONNRESET" || error.code === "HPE_INVALID_EOF_STATE" || socket.destroyed) {
      log.info({ code: error.code }, "client closed the connection before its request was read");
      socket.destroy();
      return;
    }
    const answer = clientErrorAnswer(error.code);
    const reference = randomUUID();
    log.info({ reference, code: error.code, status: answer.status }, "request refused by the HTTP parser");
    // As Node does: answer only when no response on this connection has started, or the bytes would be
    // read as the end of that response.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body: ErrorEnvelope = { status: answer.status, errors: answer.errors, reference };
      const text = JSON.stringify(body);
      socket.end(
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}\r\n` +
          "Content-Type: application/json; charset=utf-8\r\n" +
          `Content-Length: ${Buffer.byteLength(text)}\r\n` +
          "Connection: close\r\n\r\n" +
          text,
      );
    }
    // Whatever else the client sent is not read: the socket closes once the answer is out.
    socket.destroySoon();
  };
}
