/**
 * The soak's callback receiver: a real HTTP server on 127.0.0.1 that misbehaves on purpose and keeps its
 * own log of every request, to be set against Hark's delivery log afterwards.
 *
 * What it does with a callback is written in the callback's URL path, so the plan survives any number of
 * Hark restarts and can be read back from the delivery log: `/cb/<plan>/<faults>`.
 *
 *   flaky/k  the first k tries of each `webhook-id` fail, each in one of the ways below (chosen from the
 *            id, so repeatable), later ones are answered 200. Faults are transient per callback: with k
 *            below the schedule's tries, every one must end delivered.
 *   ok/0     200 at once.
 *   gone/0   410 Gone: the receiver will never want it; Hark must end it exhausted after that one try.
 *   dead/0   503 to every try: Hark must end it exhausted when its schedule runs out, and no sooner.
 *
 * Faults: 500, 503, a reset connection (the socket destroyed before any answer), and a slow answer (held
 * past the sender's time limit, then 503 if anyone is still listening).
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export const PLANS = ["ok", "flaky", "gone", "dead"] as const;
export type Plan = (typeof PLANS)[number];

const FAULTS = ["500", "503", "reset", "slow"] as const;
type Fault = (typeof FAULTS)[number];
/** How a request was answered: a status that reached the socket, or a fault that sent none. */
export type Answered = "200" | "410" | Fault | "slow-unheard";

export interface ReceivedTry {
  at: number;
  method: string;
  plan: Plan;
  answered: Answered;
  /** A 2xx was written whole to a socket still open: the sender could read it. */
  acknowledged: boolean;
}

export interface ChaosReceiver {
  url: string;
  /** Every request, by `webhook-id`, in arrival order. */
  tries: Map<string, ReceivedTry[]>;
  /** Requests by how they were answered. */
  answeredCounts(): Record<string, number>;
  close(): Promise<void>;
}

/** The callback URL path of a plan; `faults` only matters for `flaky`. */
export function planPath(plan: Plan, faults = 0): string {
  return `/cb/${plan}/${plan === "flaky" ? faults : 0}`;
}

export function planOf(url: string): { plan: Plan; faults: number } | undefined {
  const match = /\/cb\/(ok|flaky|gone|dead)\/(\d+)$/.exec(new URL(url, "http://x").pathname);
  return match ? { plan: match[1] as Plan, faults: Number(match[2]) } : undefined;
}

/** Which way try `index` of `webhookId` fails: spread over the kinds, the same on every run. */
function faultOf(webhookId: string, index: number): Fault {
  const seed = createHash("sha256").update(webhookId).digest().readUInt8(0);
  return FAULTS[(seed + index) % FAULTS.length] as Fault;
}

/** `slowMs`: how long a slow answer is held; more than the sender's time limit. */
export async function startChaosReceiver(slowMs: number): Promise<ChaosReceiver> {
  const tries = new Map<string, ReceivedTry[]>();
  const held = new Set<NodeJS.Timeout>();
  const server = http.createServer((request, response) => {
    const id = String(request.headers["webhook-id"] ?? "");
    const parsed = planOf(request.url ?? "/");
    if (!parsed || id === "") {
      response.writeHead(404).end();
      return;
    }
    const earlier = tries.get(id) ?? [];
    tries.set(id, earlier);
    const entry: ReceivedTry = {
      at: Date.now(),
      method: request.method ?? "",
      plan: parsed.plan,
      answered: "200",
      acknowledged: false,
    };
    earlier.push(entry);
    const answer = (status: number) => {
      entry.answered = String(status) as Answered;
      if (response.destroyed) return;
      response.on("finish", () => {
        if (status < 300) entry.acknowledged = true;
      });
      response.writeHead(status, { "content-type": "text/plain" }).end(String(status));
    };
    const act = () => {
      if (parsed.plan === "ok") return answer(200);
      if (parsed.plan === "gone") return answer(410);
      if (parsed.plan === "dead") return answer(503);
      if (earlier.length > parsed.faults) return answer(200);
      const fault = faultOf(id, earlier.length - 1);
      entry.answered = fault;
      if (fault === "reset") return request.socket.destroy();
      if (fault === "slow") {
        const timer = setTimeout(() => {
          held.delete(timer);
          if (response.destroyed) entry.answered = "slow-unheard";
          else response.writeHead(503).end();
        }, slowMs);
        held.add(timer);
        return;
      }
      answer(Number(fault));
    };
    // The whole body is read first (a media callback's is the recording), except for a reset, which cuts
    // the exchange wherever it is.
    request.on("data", () => {});
    request.on("end", act);
    request.on("error", () => {});
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tries,
    answeredCounts() {
      const counts: Record<string, number> = {};
      for (const list of tries.values())
        for (const t of list) counts[t.answered] = (counts[t.answered] ?? 0) + 1;
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of held) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
