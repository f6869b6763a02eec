/**
 * VoiceBase's sentiment by turn (`speakerSentiments[]`): how positive or negative each turn of each speaker
 * sounds, so that a call can be followed as it warms up or sours. Pure.
 *
 * Method: wink-nlp's sentiment, which scores words against a lexicon (with negation: "not happy" counts
 * against), gives each sentence a value in -1..1; a turn's value is the mean over its sentences that are not
 * neutral (see `sentimentOf`). The guide is titled "by turn" and its example has one segment per
 * turn, the speakers alternating, so turns are not split further; the sentence stops still matter, because
 * they end the reach of a negation.
 */
import type { Transcript } from "../domain/transcript.ts";
import { nlp, its } from "./language.ts";
import { sentencesOf } from "./sentences.ts";
import { speakersOf, turnsOf } from "./turns.ts";

/** A turn and its sentiment. */
export interface SentimentValue {
  /** Start of the turn's first word, in ms. */
  s: number;
  /** End of the turn's last word, in ms. */
  e: number;
  /** From -1, very negative, through 0, neutral, to 1, very positive; 4 decimals, as VoiceBase gives it. */
  v: number;
}

/** One element of `speakerSentiments[]`. */
export interface SpeakerSentiment {
  speakerName: string;
  sentimentValues: SentimentValue[];
}

/**
 * For each speaker, the sentiment of each of their turns in the order spoken. Every turn has a value, a
 * neutral one 0, so that a client can draw the whole call. Speakers come in the order of `voiceActivity`
 * (the channels, as VoiceBase lists the stereo channels), then any other speaker of a turn; one who said
 * nothing is listed with no values, so that a client looking up the agent or the caller finds them.
 */
export function speakerSentimentsOf(
  transcript: Pick<Transcript, "words" | "voiceActivity">,
): SpeakerSentiment[] {
  const names = [
    ...transcript.voiceActivity.map((activity) => activity.speakerName),
    ...speakersOf(transcript),
  ];
  const bySpeaker = new Map<string, SentimentValue[]>(names.map((name) => [name, []]));

  const turns = turnsOf(transcript);
  const sentencesByTurn = turns.map((): string[] => []);
  for (const sentence of sentencesOf(transcript)) {
    sentencesByTurn[sentence.turn]?.push(sentence.words.map((word) => word.w).join(" "));
  }
  turns.forEach((turn, index) => {
    const values = bySpeaker.get(turn.speakerName) ?? [];
    values.push({ s: turn.s, e: turn.e, v: sentimentOf(sentencesByTurn[index] ?? []) });
    bySpeaker.set(turn.speakerName, values);
  });
  return [...bySpeaker].map(([speakerName, sentimentValues]) => ({ speakerName, sentimentValues }));
}

/**
 * The mean of wink-nlp's sentiment of the sentences that carry any, 0 when none does; rounded to 4 decimals.
 * Neutral sentences are left out of the mean because the recogniser's sentences are cut at pauses: a
 * complaint with a pause before it ("hi. this is terrible") would otherwise read half as negative as the
 * same words said in one breath.
 */
export function sentimentOf(sentences: readonly string[]): number {
  const text = sentences.map((sentence) => `${sentence}.`).join(" ");
  const values = (nlp.readDoc(text).sentences().out(its.sentiment) as unknown[])
    .map(Number)
    .filter((value) => Number.isFinite(value) && value !== 0);
  if (values.length === 0) return 0;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  // `+ 0` turns -0 (a slightly negative value rounded) into 0.
  return Math.round(Math.max(-1, Math.min(1, mean)) * 10_000) / 10_000 + 0;
}
