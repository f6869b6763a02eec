/**
 * The soak's reckoning: every accepted upload and every callback it owed, as Hark's API reports them
 * (`GET /v3/media/{id}`, `GET /v3/media/{id}/callbacks`) set against the chaos receiver's own log and the
 * supervisor's stops. `reckon` is pure; `collect` only reads the API.
 *
 * A callback is delivered when Hark says `succeeded` and the receiver did acknowledge a 2xx for its
 * `webhook-id`. It may end `exhausted` only if the receiver answered it 410 (plan `gone`) or refused every
 * try until the schedule's last attempt (plan `dead`). Anything else is lost. A `webhook-id` acknowledged
 * twice is a duplicate unless a stop fell between the two acknowledgements (the first was then never
 * recorded: a re-send, which Hark documents); Hark recording two successful tries of one delivery is a
 * duplicate in any case.
 */
import { type Plan, planOf, type ReceivedTry } from "./chaos-receiver.ts";
import type { Stop } from "./supervisor.ts";

export interface LoggedTry {
  date: string;
  scheduledAttempt: number;
  try: number;
  succeeded: boolean;
  statusCode?: number;
}

export interface LoggedCallback {
  deliveryId: string;
  url: string;
  state: string;
  attempts: LoggedTry[];
}

export interface ItemReport {
  mediaId: string;
  status: string;
  callbacks: LoggedCallback[];
}

export interface Figures {
  uploads: { accepted: number; finished: number; failed: number; notEnded: number };
  callbacks: {
    owed: number;
    delivered: number;
    exhausted410: number;
    exhaustedScheduleRanOut: number;
    skipped: number;
    lost: number;
    duplicated: number;
    /** Acknowledged again after a stop cut the recording of an earlier success: by the stop's signal. */
    resentAfterStop: { SIGKILL: number; SIGTERM: number };
    triesByHark: number;
  };
  /** One line per lost item or callback and per duplicate: what, which ids, in what state. */
  problems: string[];
}

export async function collect(address: string, token: string, mediaId: string): Promise<ItemReport> {
  const get = async (url: string) => {
    const response = await fetch(`${address}${url}`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const media = await get(`/v3/media/${mediaId}`);
  const log = await get(`/v3/media/${mediaId}/callbacks`);
  return { mediaId, status: String(media.status), callbacks: log.callbacks as LoggedCallback[] };
}

/** Whether `item` and its callbacks have all ended, as far as Hark can tell. */
export function settled(item: ItemReport): boolean {
  const open = ["waiting", "pending", "trying", "will-retry"];
  return (
    (item.status === "finished" || item.status === "failed") &&
    item.callbacks.every((c) => !open.includes(c.state))
  );
}

export function reckon(
  items: readonly ItemReport[],
  received: ReadonlyMap<string, readonly ReceivedTry[]>,
  stops: readonly Stop[],
  scheduledAttempts: number,
): Figures {
  const figures: Figures = {
    uploads: { accepted: items.length, finished: 0, failed: 0, notEnded: 0 },
    callbacks: {
      owed: 0,
      delivered: 0,
      exhausted410: 0,
      exhaustedScheduleRanOut: 0,
      skipped: 0,
      lost: 0,
      duplicated: 0,
      resentAfterStop: { SIGKILL: 0, SIGTERM: 0 },
      triesByHark: 0,
    },
    problems: [],
  };
  const { uploads, callbacks, problems } = figures;
  for (const item of items) {
    if (item.status === "finished") uploads.finished++;
    else if (item.status === "failed") uploads.failed++;
    else {
      uploads.notEnded++;
      problems.push(`LOST upload ${item.mediaId}: status ${item.status}`);
    }
    for (const callback of item.callbacks) {
      if (callback.state === "skipped") {
        callbacks.skipped++;
        continue;
      }
      callbacks.owed++;
      callbacks.triesByHark += callback.attempts.length;
      const tries = received.get(callback.deliveryId) ?? [];
      const fate = fateOf(callback, tries, scheduledAttempts);
      if (fate === "delivered") callbacks.delivered++;
      else if (fate === "exhausted410") callbacks.exhausted410++;
      else if (fate === "exhaustedScheduleRanOut") callbacks.exhaustedScheduleRanOut++;
      else {
        callbacks.lost++;
        problems.push(
          `LOST callback ${callback.deliveryId} of ${item.mediaId} (${planOf(callback.url)?.plan}, ${callback.url}): ` +
            `${fate}; Hark: ${callback.state}, ${callback.attempts.length} tries; receiver: ${describe(tries)}`,
        );
      }
      const recordedSuccesses = callback.attempts.filter((a) => a.succeeded).length;
      const duplicate = duplicatesOf(tries, stops, callbacks.resentAfterStop) || recordedSuccesses > 1;
      if (duplicate) {
        callbacks.duplicated++;
        problems.push(
          `DUPLICATE ${callback.deliveryId} of ${item.mediaId}: ${recordedSuccesses} successful tries recorded; ` +
            `receiver: ${describe(tries)}`,
        );
      }
    }
  }
  return figures;
}

type Fate = "delivered" | "exhausted410" | "exhaustedScheduleRanOut" | string;

/** What became of one callback; a string other than the three fates says why it counts as lost. */
function fateOf(callback: LoggedCallback, tries: readonly ReceivedTry[], scheduledAttempts: number): Fate {
  const plan: Plan | undefined = planOf(callback.url)?.plan;
  const acknowledged = tries.some((t) => t.acknowledged);
  if (callback.state === "succeeded") {
    return acknowledged ? "delivered" : "Hark says succeeded but the receiver acknowledged no 2xx";
  }
  if (callback.state !== "exhausted") return "not ended";
  const last = callback.attempts.at(-1);
  if (plan === "gone")
    return last?.statusCode === 410 ? "exhausted410" : "exhausted, but its last try was not the 410";
  if (plan === "dead") {
    return last?.scheduledAttempt === scheduledAttempts - 1
      ? "exhaustedScheduleRanOut"
      : `exhausted at scheduled attempt ${last?.scheduledAttempt}, before the schedule's last (${scheduledAttempts - 1})`;
  }
  return "exhausted though the receiver's faults were transient";
}

/**
 * Whether the receiver acknowledged `tries` twice with no stop between: Hark sent again what it had been
 * told was received. Pairs a stop explains are counted in `resent` by that stop's signal.
 */
function duplicatesOf(
  tries: readonly ReceivedTry[],
  stops: readonly Stop[],
  resent: Record<Stop["signal"], number>,
): boolean {
  const acked = tries.filter((t) => t.acknowledged);
  let duplicate = false;
  for (let i = 1; i < acked.length; i++) {
    const [before, after] = [acked[i - 1] as ReceivedTry, acked[i] as ReceivedTry];
    const stop = stops.find((s) => s.at >= before.at && s.at <= after.at);
    if (stop) resent[stop.signal]++;
    else duplicate = true;
  }
  return duplicate;
}

function describe(tries: readonly ReceivedTry[]): string {
  if (tries.length === 0) return "no request";
  return tries
    .map(
      (t) =>
        `${new Date(t.at).toISOString().slice(11, 23)} ${t.method} ${t.answered}${t.acknowledged ? "+ack" : ""}`,
    )
    .join(", ");
}
