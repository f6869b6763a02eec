/**
 * Conversation metrics: the VoiceBase `metrics[]` section, with the metric groups Hark has data for,
 * named and defined as VoiceBase's conversation-metrics guide names and defines them. Pure.
 *
 * - `overtalk` and `talk-time-and-rate` come from the transcript's times. A speaker is talking during
 *   their `voiceActivity` stretches: pauses shorter than the voice-activity gap (1 s) are part of
 *   talking, longer ones are the "significant pauses" the guide removes.
 * - `sentiment` comes from per-speaker sentence sentiments (`speakerSentiments`), when given.
 * - `talk-style-tone-and-volume` comes from the words' voice features, in `talk-style.ts`.
 *
 * Metrics about the agent or the caller are reported only for the roles given; the call-wide ones always.
 * Values follow the guide's units: ratios from 0 to 1 at .01 resolution, incidents and words per minute
 * as integers, streaks in seconds (to .01 s), sentiments from -1 to 1 (to .01). A value with nothing to
 * measure (a ratio of an empty call, the rate of a speaker who said nothing) is 0, as the guide reports
 * for calls a metric does not apply to.
 */
import type { MetricGroupName, SpeakerChannel } from "../domain/configuration.ts";
import { type Occurrence, type Transcript, voiceOccurrences } from "../domain/transcript.ts";
import { spokenWords, type SpokenWord } from "./turns.ts";

/**
 * Overlaps shorter than this are not overtalk: when one speaker takes over from another, their speech
 * often overlaps by a fraction of a second, which nobody hears as talking over someone. The guide gives
 * no threshold; a quarter second is about the length of a syllable.
 */
export const OVERTALK_MIN_MS = 250;

/** The guide's silence incident: neither party talking for more than 4 seconds. */
export const SILENCE_INCIDENT_MS = 4000;

/** The guide's streak ends at a pause of 3 seconds or more. */
export const STREAK_PAUSE_MS = 3000;

export interface MetricValue {
  metricName: string;
  metricValue: number;
}

/** One element of the `metrics[]` section. */
export interface MetricGroup {
  metricGroupName: MetricGroupName;
  metricValues: MetricValue[];
}

/** Which speakers are the agent and the caller, by speaker name (compared ignoring case). */
export interface ConversationRoles {
  agent?: string;
  caller?: string;
}

/** One speaker's sentence sentiments, as VoiceBase's `speakerSentiments[]` elements. */
export interface SpeakerSentiments {
  speakerName: string;
  sentimentValues: { s: number; e: number; v: number }[];
}

const AGENT_NAMES = [
  "agent",
  "service",
  "representative",
  "operator",
  "salesperson",
  "callcenter",
  "contactcenter",
];
const CALLER_NAMES = ["caller", "client", "customer", "prospect"];

/**
 * The roles VoiceBase assumes from speaker names: a speaker named Agent, Service, Representative,
 * Operator, Salesperson, CallCenter or ContactCenter is the agent; Caller, Client, Customer or Prospect the
 * caller; otherwise the first speaker is the agent and the second the caller. One speaker has no roles:
 * metrics comparing an agent with a caller mean nothing in a monologue.
 */
export function defaultRoles(speakerNames: readonly string[]): ConversationRoles {
  if (speakerNames.length < 2) return {};
  const named = (names: string[]) => speakerNames.find((name) => names.includes(name.toLowerCase()));
  const agent = named(AGENT_NAMES);
  const caller = named(CALLER_NAMES);
  if (agent !== undefined && caller !== undefined) return { agent, caller };
  const [first, second] = speakerNames;
  return {
    agent: agent ?? (first === caller ? second : first),
    caller: caller ?? (second === agent ? first : second),
  };
}

/** Who the agent and the caller are: the configured speaker roles, else what the speakers' names say. */
export function conversationRoles(speakers: readonly SpeakerChannel[]): ConversationRoles {
  const named = (role: string) =>
    speakers.find((speaker) => speaker.speakerRole?.toLowerCase() === role)?.speakerName;
  const agent = named("agent");
  const caller = named("caller");
  if (agent === undefined && caller === undefined) return defaultRoles(speakers.map((s) => s.speakerName));
  return { ...(agent !== undefined && { agent }), ...(caller !== undefined && { caller }) };
}

/**
 * The metric groups of the call: `overtalk` and `talk-time-and-rate` always, `sentiment` when sentiments
 * are given. `length` is the media's duration in ms; without it the call ends with the last speech, so
 * silence after it does not count.
 */
export function metricsOf(
  transcript: Pick<Transcript, "words" | "voiceActivity">,
  roles: ConversationRoles,
  speakerSentiments?: readonly SpeakerSentiments[],
  length?: number,
): MetricGroup[] {
  const call = callOf(transcript, roles, length);
  const groups: MetricGroup[] = [
    { metricGroupName: "overtalk", metricValues: overtalkMetrics(call) },
    { metricGroupName: "talk-time-and-rate", metricValues: talkTimeMetrics(call) },
  ];
  if (speakerSentiments !== undefined)
    groups.push({ metricGroupName: "sentiment", metricValues: sentimentMetrics(speakerSentiments, roles) });
  return groups;
}

interface Speaker {
  /** Stretches of talking, in time order, not overlapping. */
  speech: Occurrence[];
  words: SpokenWord[];
}

interface Call {
  /** The call runs from 0 to `end` ms. */
  end: number;
  speakers: Map<string, Speaker>;
  agent?: Speaker;
  caller?: Speaker;
}

function callOf(
  transcript: Pick<Transcript, "words" | "voiceActivity">,
  roles: ConversationRoles,
  length: number | undefined,
): Call {
  const speakers = new Map<string, Speaker>();
  for (const { speakerName, occurrences } of transcript.voiceActivity)
    speakers.set(speakerName, { speech: union(occurrences), words: [] });
  for (const word of spokenWords(transcript)) {
    let speaker = speakers.get(word.speakerName);
    if (speaker === undefined) {
      speaker = { speech: [], words: [] };
      speakers.set(word.speakerName, speaker);
    }
    speaker.words.push(word);
  }
  // A transcript from elsewhere may lack voice activity; the words give it the way the pipeline would.
  for (const speaker of speakers.values())
    if (speaker.speech.length === 0 && speaker.words.length > 0)
      speaker.speech = voiceOccurrences(
        speaker.words.map((word) => ({ word: word.w, start: word.s, end: word.e, confidence: word.c })),
      );

  const lastSpeech = Math.max(0, ...[...speakers.values()].map((speaker) => speaker.speech.at(-1)?.e ?? 0));
  // A role names a speaker who may have said nothing: then their metrics are zeros, which is the truth.
  const role = (name: string | undefined): Speaker | undefined => {
    if (name === undefined) return undefined;
    const key = [...speakers.keys()].find((speakerName) => speakerName.toLowerCase() === name.toLowerCase());
    return (key === undefined ? undefined : speakers.get(key)) ?? { speech: [], words: [] };
  };
  return { end: length ?? lastSpeech, speakers, agent: role(roles.agent), caller: role(roles.caller) };
}

// Overtalk

function overtalkMetrics(call: Call): MetricValue[] {
  const everyone = [...call.speakers.values()];
  const overlaps = union(
    everyone.flatMap((one, index) =>
      everyone.slice(index + 1).flatMap((other) => overlapsOf(one.speech, other.speech)),
    ),
  ).filter(isOvertalk);
  const { agent, caller } = call;
  const between = agent && caller ? overlapsOf(agent.speech, caller.speech).filter(isOvertalk) : undefined;
  // Who talked over whom: the one whose stretch of talking began second.
  const byAgent = between?.filter((overlap) => overlap.firstStarted > overlap.secondStarted) ?? [];
  const byCaller = between?.filter((overlap) => overlap.secondStarted > overlap.firstStarted) ?? [];

  const values = [metric("overtalk-incidents", overlaps.length)];
  if (between !== undefined)
    values.push(
      metric("agent-overtalk-incidents", byAgent.length),
      metric("caller-overtalk-incidents", byCaller.length),
    );
  values.push(metric("overtalk-ratio", ratio(duration(overlaps), call.end)));
  if (between !== undefined)
    values.push(
      metric("agent-overtalk-ratio", ratio(duration(byAgent), call.end)),
      metric("caller-overtalk-ratio", ratio(duration(byCaller), call.end)),
    );
  return values;
}

function isOvertalk(overlap: Occurrence): boolean {
  return overlap.e - overlap.s >= OVERTALK_MIN_MS;
}

interface Overlap extends Occurrence {
  /** When the stretches that overlap began, of the first list and of the second. */
  firstStarted: number;
  secondStarted: number;
}

/** Where stretches of two speakers overlap; each list in time order and not overlapping itself. */
function overlapsOf(first: readonly Occurrence[], second: readonly Occurrence[]): Overlap[] {
  const overlaps: Overlap[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length) {
    const a = first[i];
    const b = second[j];
    if (a === undefined || b === undefined) break;
    const s = Math.max(a.s, b.s);
    const e = Math.min(a.e, b.e);
    if (s < e) overlaps.push({ s, e, firstStarted: a.s, secondStarted: b.s });
    if (a.e < b.e) i += 1;
    else j += 1;
  }
  return overlaps;
}

// Talk time and rate

function talkTimeMetrics(call: Call): MetricValue[] {
  const everyone = [...call.speakers.values()];
  const talking = union(everyone.flatMap((speaker) => speaker.speech));
  const talkTime = duration(talking);
  const silences = gapsBetween(talking).filter((gap) => gap.e - gap.s > SILENCE_INCIDENT_MS);
  const { agent, caller } = call;

  const values: MetricValue[] = [];
  if (agent !== undefined) values.push(metric("agent-talk-ratio", ratio(duration(agent.speech), talkTime)));
  if (caller !== undefined)
    values.push(metric("caller-talk-ratio", ratio(duration(caller.speech), talkTime)));
  values.push(
    metric("silence-ratio", ratio(Math.max(0, call.end - talkTime), call.end)),
    metric("silence-incidents", silences.length),
  );

  const rates = new Map<Speaker, number>();
  for (const speaker of [agent, caller])
    if (speaker !== undefined) rates.set(speaker, talkRate(speaker, call, { s: 0, e: call.end }));
  if (agent !== undefined) values.push(metric("agent-talk-rate", Math.round(rates.get(agent) ?? 0)));
  if (caller !== undefined) values.push(metric("caller-talk-rate", Math.round(rates.get(caller) ?? 0)));
  if (agent !== undefined && caller !== undefined)
    values.push(
      metric(
        "agent-to-caller-talk-rate-ratio",
        round2(quotient(rates.get(agent) ?? 0, rates.get(caller) ?? 0)),
      ),
    );
  if (agent !== undefined)
    values.push(metric("agent-intra-call-change-in-talk-rate", round2(changeInTalkRate(agent, call))));
  if (caller !== undefined)
    values.push(metric("caller-intra-call-change-in-talk-rate", round2(changeInTalkRate(caller, call))));

  const streaks = new Map(everyone.map((speaker) => [speaker, streaksOf(speaker.words)]));
  const all = [...streaks.values()].flat();
  // The guide lists these in this order, the call-wide average among the caller's.
  if (agent !== undefined) values.push(...streakMetrics("agent-", streaks.get(agent) ?? []));
  values.push(metric("average-streak", round2(mean(all))));
  if (caller !== undefined) values.push(...streakMetrics("caller-", streaks.get(caller) ?? []));
  values.push(
    metric("longest-streak", round2(Math.max(0, ...all))),
    metric("median-streak", round2(median(all))),
  );
  return values;
}

/**
 * Words per minute of talking within `window`, leaving out the time when anyone else talks (and the words
 * said then), as the guide's talk rate does.
 */
function talkRate(speaker: Speaker, call: Call, window: Occurrence): number {
  const others = union(
    [...call.speakers.values()].filter((other) => other !== speaker).flatMap((other) => other.speech),
  );
  const alone = subtract(clip(speaker.speech, window), others);
  const minutes = duration(alone) / 60_000;
  const words = speaker.words.filter((word) => contains(alone, (word.s + word.e) / 2)).length;
  return quotient(words, minutes);
}

/** Talk rate in the last third of the call over that in the first: 1 is steady, 0.3 a 70% slowdown. */
function changeInTalkRate(speaker: Speaker, call: Call): number {
  const third = call.end / 3;
  const first = talkRate(speaker, call, { s: 0, e: third });
  const last = talkRate(speaker, call, { s: call.end - third, e: call.end });
  return quotient(last, first);
}

function streakMetrics(prefix: string, streaks: readonly number[]): MetricValue[] {
  return [
    metric(`${prefix}average-streak`, round2(mean(streaks))),
    metric(`${prefix}longest-streak`, round2(Math.max(0, ...streaks))),
    metric(`${prefix}median-streak`, round2(median(streaks))),
  ];
}

/** The lengths in seconds of a speaker's streaks: runs of words without a pause of `STREAK_PAUSE_MS`. */
function streaksOf(words: readonly SpokenWord[]): number[] {
  const streaks: Occurrence[] = [];
  for (const word of words) {
    const current = streaks.at(-1);
    if (current !== undefined && word.s - current.e < STREAK_PAUSE_MS)
      current.e = Math.max(current.e, word.e);
    else streaks.push({ s: word.s, e: word.e });
  }
  return streaks.map((streak) => (streak.e - streak.s) / 1000);
}

// Sentiment

function sentimentMetrics(
  speakerSentiments: readonly SpeakerSentiments[],
  roles: ConversationRoles,
): MetricValue[] {
  const of = (name: string | undefined) =>
    speakerSentiments
      .filter((speaker) => name === undefined || speaker.speakerName.toLowerCase() === name.toLowerCase())
      .flatMap((speaker) => speaker.sentimentValues)
      .sort((a, b) => a.s - b.s)
      .map((sentence) => sentence.v);
  const values = sentimentValues(
    ["call-sentiment", "start-sentiment", "end-sentiment", "call-change-in-sentiment"],
    of(undefined),
  );
  if (roles.agent !== undefined)
    values.push(
      ...sentimentValues(
        [
          "agent-sentiment",
          "agent-start-sentiment",
          "agent-end-sentiment",
          "agent-intra-call-change-in-sentiment",
        ],
        of(roles.agent),
      ),
    );
  if (roles.caller !== undefined)
    values.push(
      ...sentimentValues(
        [
          "caller-sentiment",
          "caller-start-sentiment",
          "caller-end-sentiment",
          "caller-intra-call-change-in-sentiment",
        ],
        of(roles.caller),
      ),
    );
  return values;
}

/** Overall, start (first third of the sentences), end (last third) and change in sentiment, by those names. */
function sentimentValues(
  [overall, start, end, change]: readonly [string, string, string, string],
  sentences: readonly number[],
): MetricValue[] {
  const third = Math.ceil(sentences.length / 3);
  const atStart = mean(sentences.slice(0, third));
  const atEnd = mean(sentences.slice(sentences.length - third));
  return [
    metric(overall, round2(mean(sentences))),
    metric(start, round2(atStart)),
    metric(end, round2(atEnd)),
    // The guide says "subtracts the end from the start" but gives -2 for a call that "started very positive
    // but ended very negative": that is end minus start, which is what a client reading the range expects.
    metric(change, round2(atEnd - atStart)),
  ];
}

// Intervals and numbers

/** The intervals merged where they overlap or touch, in time order. */
function union(intervals: readonly Occurrence[]): Occurrence[] {
  const merged: Occurrence[] = [];
  for (const { s, e } of [...intervals].sort((a, b) => a.s - b.s)) {
    const last = merged.at(-1);
    if (last !== undefined && s <= last.e) last.e = Math.max(last.e, e);
    else merged.push({ s, e });
  }
  return merged;
}

/** The time in `from` not in `remove`; both in time order and not overlapping themselves. */
function subtract(from: readonly Occurrence[], remove: readonly Occurrence[]): Occurrence[] {
  const left: Occurrence[] = [];
  for (const interval of from) {
    let s = interval.s;
    for (const cut of remove) {
      if (cut.e <= s || cut.s >= interval.e) continue;
      if (cut.s > s) left.push({ s, e: cut.s });
      s = Math.max(s, cut.e);
    }
    if (s < interval.e) left.push({ s, e: interval.e });
  }
  return left;
}

function clip(intervals: readonly Occurrence[], window: Occurrence): Occurrence[] {
  return intervals
    .map(({ s, e }) => ({ s: Math.max(s, window.s), e: Math.min(e, window.e) }))
    .filter(({ s, e }) => s < e);
}

function gapsBetween(intervals: readonly Occurrence[]): Occurrence[] {
  return intervals
    .slice(1)
    .map((interval, index) => ({ s: intervals[index]?.e ?? interval.s, e: interval.s }));
}

function contains(intervals: readonly Occurrence[], at: number): boolean {
  return intervals.some(({ s, e }) => s <= at && at < e);
}

function duration(intervals: readonly Occurrence[]): number {
  return intervals.reduce((sum, { s, e }) => sum + (e - s), 0);
}

function metric(metricName: string, metricValue: number): MetricValue {
  return { metricName, metricValue };
}

/** A share at the guide's .01 resolution, never above 1. */
function ratio(part: number, whole: number): number {
  return round2(Math.min(1, quotient(part, whole)));
}

/** 0 rather than NaN or Infinity where there is nothing to divide by. */
function quotient(numerator: number, denominator: number): number {
  return denominator > 0 ? numerator / denominator : 0;
}

function mean(values: readonly number[]): number {
  return quotient(
    values.reduce((sum, value) => sum + value, 0),
    values.length,
  );
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? 0;
  return mean(sorted.slice(Math.max(0, middle - 1), middle + 1));
}

/** Two decimals; `|| 0` turns -0 into 0, so a JSON reader never sees "-0". */
function round2(value: number): number {
  return Math.round(value * 100) / 100 || 0;
}
