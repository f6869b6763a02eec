/**
 * Limits on how long a request body may take to arrive. Without them an upload that sends a byte now and
 * then (or nothing at all after its headers) holds its connection and its partial file open forever. Node
 * has `requestTimeout`, but it answers with a bare 408 of its own and checks only every 30 s; these answer
 * in VoiceBase's envelope and end the request, so that whatever reads the body (the upload route's blob
 * write) fails and removes what it stored.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../domain/errors.ts";

export interface BodyTimeouts {
  /** No byte of the body for this long ends the request. */
  readonly idleMs: number;
  /** The whole body taking longer than this ends the request. */
  readonly totalMs: number;
}

/** An `onRequest` hook that holds every request with a body to `limits` until its body has arrived. */
export function bodyTimeouts(limits: BodyTimeouts) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const raw = request.raw;
    const socket = raw.socket;
    // A request without a body (a GET) is complete once its headers are read; one injected without a
    // connection (tests, `inject()`) holds no socket to free.
    if (raw.complete || typeof socket.setTimeout !== "function") return;
    // Once the response has gone, Node no longer ends the request when its socket closes: the request
    // itself must end, so that whatever reads its body (multipart, the blob write) fails and cleans up.
    const end = (): void => {
      raw.destroy();
      socket.destroy();
    };
    const expire = (message: string): void => {
      if (raw.complete) return;
      if (reply.sent || socket.destroyed || !socket.writable) return end();
      // The connection cannot carry another request: the rest of this body would be read as one.
      reply.header("connection", "close");
      reply.raw.once("finish", end);
      reply.send(new ApiError("requestTimeout", message));
    };
    // The socket's own idle timer: Node resets it on every byte. While the body is incomplete its
    // 'timeout' reaches the request, and listening to it stops Node from destroying the socket unanswered.
    socket.setTimeout(limits.idleMs);
    const onIdle = () =>
      expire(
        `No byte of the request body arrived for ${limits.idleMs / 1000} s (HARK_UPLOAD_IDLE_TIMEOUT_SECONDS); send the body without pauses`,
      );
    raw.on("timeout", onIdle);
    const total = setTimeout(
      () =>
        expire(
          `The request body took longer than ${limits.totalMs / 1000} s to arrive (HARK_UPLOAD_TIMEOUT_SECONDS); send it from a faster link, or give a mediaUrl`,
        ),
      limits.totalMs,
    );
    total.unref();
    const done = (): void => {
      clearTimeout(total);
      raw.off("timeout", onIdle);
      // Handlers may take long without a byte either way; the idle limit is the body's alone. Node sets
      // its keep-alive timer on the socket when the response has gone.
      if (!socket.destroyed && !reply.raw.writableFinished) socket.setTimeout(0);
    };
    raw.once("end", done);
    raw.once("close", done);
  };
}
