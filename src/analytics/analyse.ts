/**
 * Every analysis a configuration asks for, from the transcript: one pure step per section of the media
 * document. Detection and redaction come first, so that every later section (keywords included, as
 * VoiceBase's redaction guide says) reads the redacted words and no card number leaks through them.
 */
import type { AudioRedactor, AnalysisPlan } from "../domain/configuration.ts";
import type { Definitions } from "../domain/definitions.ts";
import type { Metadata } from "../domain/media.ts";
import type { Occurrence, Transcript, Word } from "../domain/transcript.ts";
import { categorize } from "./categories.ts";
import { classify } from "./classifiers.ts";
import { detect } from "./detectors.ts";
import { knowledgeOf } from "./knowledge.ts";
import { type ConversationRoles, metricsOf } from "./metrics.ts";
import { formatNumbers } from "./number-formatting.ts";
import { filterProfanity } from "./profanity.ts";
import { redactionRanges, redactTranscript } from "./redact.ts";
import { speakerSentimentsOf } from "./speaker-sentiments.ts";
import { spot } from "./spotting.ts";
import { talkStyleMetrics } from "./talk-style.ts";
import { verbNounPairsOf } from "./verb-noun.ts";

export interface Analysis {
  /** `transcript` (redacted when a detector says so, swear words masked when asked) and every section asked for. */
  sections: Record<string, unknown>;
  /** What the `redacted-audio` stream covers with a tone; absent when no detector redacts audio. */
  audioRedaction?: { ranges: Occurrence[] } & AudioRedactor;
}

export interface AnalysisContext {
  roles: ConversationRoles;
  /** The media's duration, ms. */
  lengthMs?: number;
  /** The upload's metadata, which categories written in VBQL may compare (`WHERE extended.queue = 'billing'`). */
  metadata?: Metadata;
}

export function analyse(
  transcript: Transcript,
  plan: AnalysisPlan,
  definitions: Definitions,
  context: AnalysisContext,
): Analysis {
  const detected = detect(transcript, plan.detectors);
  let redacted = transcript;
  detected.forEach((result, index) => {
    const replacement = plan.detectors[index]?.redactor?.transcript?.replacement;
    if (replacement !== undefined)
      redacted = redactTranscript(redacted, redactionRanges([result]), replacement);
  });
  // How the transcript section reads, made last from the redacted words: detections and redactions are
  // the same with number formatting on or off, no formatted number shows a digit that was redacted, and
  // the analyses below read what was said (a spotting group or category for swearing still works).
  // Voice features are measured for the talk-style metrics too; the words show them when asked for.
  let shown = plan.voiceFeatures === true ? redacted : withoutVoiceFeatures(redacted);
  if (plan.numberFormatting === true) shown = formatNumbers(shown);
  if (plan.profanityFiltering === true) shown = filterProfanity(shown);
  const sections: Record<string, unknown> = { transcript: shown };
  if (plan.knowledge) sections.knowledge = knowledgeOf(redacted);
  if (plan.spottingGroups.length > 0) sections.spotting = spot(redacted, definitions.spottingGroups);
  if (plan.detectors.length > 0 || plan.classifiers.length > 0) {
    sections.prediction = {
      ...(plan.detectors.length > 0 && { detectors: detected }),
      ...(plan.classifiers.length > 0 && {
        classifiers: definitions.classifiers.map(({ model, ...identity }) =>
          classify(model, redacted, identity),
        ),
      }),
    };
  }
  const wantsSentiment = plan.speakerSentiments || plan.metricGroups.includes("sentiment");
  const sentiments = wantsSentiment ? speakerSentimentsOf(redacted) : undefined;
  if (plan.speakerSentiments) sections.speakerSentiments = sentiments;
  if (plan.metricGroups.length > 0) {
    sections.metrics = [
      ...metricsOf(redacted, context.roles, sentiments, context.lengthMs),
      talkStyleMetrics(redacted, context.roles),
    ].filter((group) => plan.metricGroups.includes(group.metricGroupName));
  }
  if (plan.categories === "all" || plan.categories.length > 0) {
    sections.categories = categorize(redacted, definitions.categories, context.lengthMs, context.metadata);
  }
  if (plan.verbNounPairs) sections.conversation = { speakerVerbNounPairs: verbNounPairsOf(redacted) };

  // Every detector with an audio redactor covers its detections; the first one's tone is the tone.
  const audioDetectors = detected.filter((_, index) => plan.detectors[index]?.redactor?.audio);
  const audio = plan.detectors.find((request) => request.redactor?.audio)?.redactor?.audio;
  return {
    sections,
    ...(audio && { audioRedaction: { ranges: redactionRanges(audioDetectors), ...audio } }),
  };
}

/**
 * The transcript without the voice features measured only for the metrics: a client that did not ask for
 * `voiceFeatures` sees the words as it would without them.
 */
function withoutVoiceFeatures(transcript: Transcript): Transcript {
  const plain = (word: Word): Word => {
    if (word.frq === undefined) return word;
    const plainWord = { ...word };
    delete plainWord.frq;
    delete plainWord.v;
    return plainWord;
  };
  return { ...transcript, words: transcript.words.map(plain) };
}
