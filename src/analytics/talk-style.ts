/**
 * The `talk-style-tone-and-volume` metric group, named and defined as VoiceBase's conversation-metrics
 * guide names and defines it, from the voice features of the words (`frq`, `v`). Pure.
 *
 * - A word's pitch is its fundamental, read from its two spectral peaks (`pitchOf`); its volume is `v`.
 *   Words without voice features (a transcript from before they were measured) do not count.
 * - Intra-call change: the mean over the last third of the speaker's words divided by the mean over the
 *   first third (thirds by word count, as the guide counts words): 1 is steady, 1.2 a rise of a fifth.
 * - Relative voice volume energy: the speaker's mean volume divided by the guide's fixed average of a good
 *   agent (4.33) or a good caller (7.57).
 * - Voice dynamism: the standard deviation of the speaker's word volumes. The guide says only "the
 *   standard deviation for all the agent's words"; volume is the measure this group is about and the one
 *   its other metrics scale, so it is the one taken.
 *
 * Like the other groups, metrics of the agent or the caller are reported only for the roles given, in the
 * guide's order, at .01 resolution; a speaker with no measured words gets zeros.
 */
import type { Transcript, Word } from "../domain/transcript.ts";
import type { ConversationRoles, MetricGroup, MetricValue } from "./metrics.ts";

/** How far from a whole multiple two peaks may be and still count as harmonics of one pitch. */
export const HARMONIC_TOLERANCE = 0.04;

/** The guide's "fixed average volume of a good agent". */
export const GOOD_AGENT_VOLUME = 4.33;
/** The guide's "fixed average volume of a good caller". */
export const GOOD_CALLER_VOLUME = 7.57;

export function talkStyleMetrics(
  transcript: Pick<Transcript, "words">,
  roles: ConversationRoles,
): MetricGroup {
  const metricValues: MetricValue[] = [];
  if (roles.agent !== undefined)
    metricValues.push(...speakerMetrics("agent", measuredWords(transcript, roles.agent), GOOD_AGENT_VOLUME));
  if (roles.caller !== undefined)
    metricValues.push(
      ...speakerMetrics("caller", measuredWords(transcript, roles.caller), GOOD_CALLER_VOLUME),
    );
  return { metricGroupName: "talk-style-tone-and-volume", metricValues };
}

interface Measured {
  pitch: number;
  volume: number;
}

function speakerMetrics(role: string, words: readonly Measured[], goodVolume: number): MetricValue[] {
  const volumes = words.map((word) => word.volume);
  return [
    metric(`${role}-intra-call-change-in-pitch`, changeWithinCall(words.map((word) => word.pitch))),
    metric(`${role}-intra-call-change-in-relative-voice-volume-energy`, changeWithinCall(volumes)),
    metric(`${role}-relative-voice-volume-energy`, mean(volumes) / goodVolume),
    metric(`${role}-voice-dynamism-std-dev-score`, standardDeviation(volumes)),
  ];
}

/** The words of the speaker named `name` (ignoring case) that carry voice features, in transcript order. */
function measuredWords(transcript: Pick<Transcript, "words">, name: string): Measured[] {
  const measured: Measured[] = [];
  let speaker = "";
  for (const word of transcript.words) {
    if (word.m === "turn") speaker = word.w.toLowerCase();
    else if (word.m === undefined && speaker === name.toLowerCase()) {
      const pitch = pitchOf(word);
      if (pitch !== undefined && word.v !== undefined) measured.push({ pitch, volume: word.v });
    }
  }
  return measured;
}

/**
 * A word's pitch: its fundamental frequency. A voiced word's two strongest peaks are mostly two of its
 * harmonics, and in a low voice the second harmonic is often stronger than the first (the formants lift
 * it), so the dominant peak alone would put a man's 100 Hz voice at 200 Hz. When the upper peak is 2, 3
 * or 4 times the lower (within `HARMONIC_TOLERANCE`), the lower one is the pitch; otherwise the dominant.
 */
export function pitchOf(word: Pick<Word, "frq">): number | undefined {
  const [dominant, second] = word.frq ?? [];
  if (dominant === undefined) return undefined;
  if (second === undefined) return dominant.f;
  const lower = Math.min(dominant.f, second.f);
  const ratio = Math.max(dominant.f, second.f) / lower;
  const harmonic = Math.round(ratio);
  return harmonic >= 2 && harmonic <= 4 && Math.abs(ratio - harmonic) <= HARMONIC_TOLERANCE * harmonic
    ? lower
    : dominant.f;
}

/** Mean of the last third over mean of the first third; 0 when there is nothing to compare. */
function changeWithinCall(values: readonly number[]): number {
  const third = Math.ceil(values.length / 3);
  const first = mean(values.slice(0, third));
  return first > 0 ? mean(values.slice(values.length - third)) / first : 0;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** The population standard deviation: the words are all of the speaker's, not a sample of them. */
function standardDeviation(values: readonly number[]): number {
  const average = mean(values);
  return Math.sqrt(mean(values.map((value) => (value - average) ** 2)));
}

/** At the guide's .01 resolution; `|| 0` turns -0 into 0. */
function metric(metricName: string, value: number): MetricValue {
  return { metricName, metricValue: Math.round(value * 100) / 100 || 0 };
}
