/**
 * The soak's client: uploads one short recording again and again, each with 1 to 3 callbacks of different
 * type, format and method to the chaos receiver, whatever state Hark is in. An upload answered 200 is
 * accepted; one refused by an answer is not; one cut by a stop before any answer may or may not have been
 * accepted, which is settled afterwards by its `externalId`.
 */
import { openAsBlob } from "node:fs";
import { type Plan, planPath } from "./chaos-receiver.ts";

export type UploadResult =
  | { externalId: string; outcome: "accepted"; mediaId: string }
  | { externalId: string; outcome: "refused"; status: number; body: string }
  | { externalId: string; outcome: "unanswered"; error: string }
  | { externalId: string; outcome: "not-sent" };

/** The kinds of callback an upload may ask for: each a different body (JSON, text, SRT, the audio). */
const CALLBACK_KINDS = [
  { method: "POST" },
  { method: "PUT", type: "transcript", format: "srt" },
  { method: "POST", type: "transcript", format: "text" },
  { method: "PUT", type: "media" },
] as const;

/** Mostly callbacks that fail a few times first; some that succeed at once, answer 410, or never answer. */
function randomPlan(random: () => number, maxFaults: number): { plan: Plan; faults: number } {
  const r = random();
  if (r < 0.55) return { plan: "flaky", faults: 1 + Math.floor(random() * maxFaults) };
  if (r < 0.8) return { plan: "ok", faults: 0 };
  if (r < 0.9) return { plan: "gone", faults: 0 };
  return { plan: "dead", faults: 0 };
}

/** 1 to 3 callbacks, each of a different kind, each with its own plan. */
export function randomCallbacks(receiverUrl: string, random: () => number, maxFaults: number): unknown[] {
  const kinds = [...CALLBACK_KINDS].sort(() => random() - 0.5).slice(0, 1 + Math.floor(random() * 3));
  return kinds.map((kind) => {
    const { plan, faults } = randomPlan(random, maxFaults);
    return { url: `${receiverUrl}${planPath(plan, faults)}`, ...kind };
  });
}

export async function upload(
  address: string | undefined,
  token: string,
  file: string,
  externalId: string,
  callbacks: unknown[],
): Promise<UploadResult> {
  if (address === undefined) return { externalId, outcome: "not-sent" };
  const form = new FormData();
  form.append("media", await openAsBlob(file, { type: "audio/x-wav" }), "call.wav");
  form.append("configuration", JSON.stringify({ publish: { callbacks } }));
  form.append("metadata", JSON.stringify({ externalId }));
  try {
    const response = await fetch(`${address}/v3/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
      signal: AbortSignal.timeout(60_000),
    });
    const body = await response.text();
    if (response.status !== 200) return { externalId, outcome: "refused", status: response.status, body };
    return { externalId, outcome: "accepted", mediaId: (JSON.parse(body) as { mediaId: string }).mediaId };
  } catch (error) {
    return { externalId, outcome: "unanswered", error: String((error as Error).cause ?? error) };
  }
}

/** The media id of the item uploaded with `externalId`, if Hark accepted it. */
export async function findByExternalId(
  address: string,
  token: string,
  externalId: string,
): Promise<string | undefined> {
  const response = await fetch(`${address}/v3/media?externalId=${encodeURIComponent(externalId)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 200) throw new Error(`listing by externalId: ${response.status}`);
  const { media } = (await response.json()) as { media: { mediaId: string }[] };
  return media[0]?.mediaId;
}

/** Whether the item has ended (finished or failed); undefined when Hark did not answer. */
export async function hasEnded(
  address: string,
  token: string,
  mediaId: string,
): Promise<boolean | undefined> {
  try {
    const response = await fetch(`${address}/v3/media/${mediaId}`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (response.status !== 200) return undefined;
    const { status } = (await response.json()) as { status: string };
    return status === "finished" || status === "failed";
  } catch {
    return undefined;
  }
}
