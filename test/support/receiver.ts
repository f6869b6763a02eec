/**
 * A real HTTP receiver for callback tests, on 127.0.0.1 and port 0: it records every request (method,
 * path, headers, body) and answers as told, per path. Tests wait on `next(path)` for a request to arrive.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Header names in the order and letter case sent. */
  rawHeaderNames: string[];
  body: Buffer;
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Hold the answer this long (ms), to make the sender time out. */
  delayMs?: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** How to answer requests to `path` from now on; a list is used in order, its last answer repeating. */
  answer(path: string, answers: Answer | Answer[]): void;
  /** Resolves with the next request to `path` not yet taken by an earlier `next`. */
  next(path: string): Promise<Received>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, Answer[]>();
  const taken = new Map<string, number>();
  const waiters: { path: string; index: number; resolve: (r: Received) => void }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = (request.url ?? "/").split("?")[0] ?? "/";
      const entry: Received = {
        method: request.method ?? "",
        path,
        headers: request.headers,
        rawHeaderNames: request.rawHeaders.filter((_, i) => i % 2 === 0),
        body: Buffer.concat(chunks),
        at: Date.now(),
      };
      received.push(entry);
      const list = answers.get(path) ?? [{ status: 200 }];
      const answer = (list.length > 1 ? list.shift() : list[0]) ?? { status: 200 };
      const send = () => {
        if (response.destroyed) return;
        response.writeHead(answer.status, answer.headers).end(answer.body ?? "");
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
      const count = received.filter((r) => r.path === path).length;
      for (const waiter of waiters.splice(0)) {
        if (waiter.path === path && waiter.index < count)
          waiter.resolve(received.filter((r) => r.path === path)[waiter.index] as Received);
        else waiters.push(waiter);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answer(path, given) {
      answers.set(path, Array.isArray(given) ? [...given] : [given]);
    },
    next(path) {
      const index = taken.get(path) ?? 0;
      taken.set(path, index + 1);
      const already = received.filter((r) => r.path === path)[index];
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => waiters.push({ path, index, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
