/**
 * The analysis sections of the media document, as VoiceBase names and shapes them (spec/callbacks.md
 * "Callback body of type analytics", `VbKnowledge`, `VbSpotting`, `VbPrediction`, `VbMetric`,
 * `VbCategory`, `VbConversation`, `VbSpeakerSentiment`) and as src/analytics/ computes them. Times are
 * milliseconds from the start of the media. A test validates real results against these schemas.
 */
import { Type } from "typebox";
import { ref } from "./common.ts";

const Ms = (description?: string) =>
  Type.Integer({ minimum: 0, ...(description !== undefined && { description }) });

/** Where something was said: `exact` is the transcript's words there, as spoken. */
export const Occurrence = Type.Object(
  { s: Ms("Start, ms."), e: Ms("End, ms."), exact: Type.Optional(Type.String()) },
  { $id: "Occurrence", description: "A stretch of the media: `s`, `e` in ms, and the words said there." },
);

const Mention = Type.Object(
  { speakerName: Type.String(), occurrences: Type.Array(ref(Occurrence)) },
  { $id: "Mention", description: "One speaker's occurrences of a phrase." },
);

export const Keyword = Type.Object(
  {
    keyword: Type.String(),
    relevance: Type.Number({ minimum: 0, maximum: 1 }),
    mentions: Type.Array(ref(Mention), { description: "By speaker, in order of first mention." }),
  },
  { $id: "Keyword" },
);

const Topic = Type.Object(
  {
    topicName: Type.String(),
    relevance: Type.Number({ minimum: 0, maximum: 1 }),
    subTopics: Type.Array(Type.Object({ name: Type.String(), score: Type.Number() }), {
      description: "VoiceBase's taxonomy subtopics; always empty in Hark.",
    }),
    keywords: Type.Array(ref(Keyword)),
  },
  { $id: "Topic" },
);

export const Knowledge = Type.Object(
  {
    keywords: Type.Array(ref(Keyword), { description: "Most relevant first." }),
    topics: Type.Array(ref(Topic), { description: "Most relevant first." }),
  },
  { $id: "Knowledge", description: "VoiceBase's `VbKnowledge`: keywords and the topics they cluster into." },
);

const SpottedGroup = Type.Object(
  {
    groupName: Type.String(),
    spotted: Type.Boolean(),
    score: Type.String({
      description: "The share of the group's keywords spotted, 0..1, as a decimal string.",
    }),
    spottedKeywords: Type.Array(Type.Object({ keyword: Type.String(), mentions: Type.Array(ref(Mention)) }), {
      description: "Only the keywords that were spotted.",
    }),
  },
  { $id: "SpottedGroup" },
);

export const Spotting = Type.Object(
  { groups: Type.Array(ref(SpottedGroup)) },
  { $id: "Spotting", description: "VoiceBase's `VbSpotting`: each spotting group the configuration named." },
);

const DetectorResult = Type.Object(
  {
    detectorId: Type.Optional(Type.String({ description: "Echoed when the configuration named one." })),
    detectorName: Type.String(),
    detectorVersion: Type.String(),
    detectorDisplayName: Type.String(),
    detectorType: Type.Literal("binary"),
    detections: Type.Array(
      Type.Object({
        detectorClass: Type.Integer(),
        detectorClassLabel: Type.String({ description: "`pci`, `ssn` or `Number`." }),
        detectedSegments: Type.Array(
          Type.Object({
            speakerName: Type.Optional(Type.String()),
            occurrences: Type.Array(Type.Object({ s: Ms(), e: Ms() })),
          }),
        ),
      }),
      { description: "Empty when nothing was found." },
    ),
  },
  { $id: "DetectorResult", description: "VoiceBase's `VbDetector`." },
);

const ClassifierResult = Type.Object(
  {
    classifierId: Type.String(),
    classifierName: Type.String(),
    classifierVersion: Type.String(),
    classifierDisplayName: Type.Optional(Type.String()),
    classifierType: Type.Literal("binary"),
    predictedClassLabel: Type.String(),
    predictionScore: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "Probability of the predicted class.",
    }),
    predictedClass: Type.Integer({ minimum: 0, maximum: 1 }),
  },
  { $id: "ClassifierResult", description: "VoiceBase's `VbClassifier`." },
);

export const Prediction = Type.Object(
  {
    detectors: Type.Optional(Type.Array(ref(DetectorResult))),
    classifiers: Type.Optional(Type.Array(ref(ClassifierResult))),
  },
  { $id: "Prediction", description: "VoiceBase's `VbPrediction`: detectors and trained classifiers." },
);

export const MetricGroup = Type.Object(
  {
    metricGroupName: Type.String(),
    metricValues: Type.Array(Type.Object({ metricName: Type.String(), metricValue: Type.Number() })),
  },
  { $id: "MetricGroup", description: "One metric group, VoiceBase's metric names (`VbMetric`)." },
);

export const CategoryResult = Type.Object(
  {
    categoryName: Type.String(),
    categoryValue: Type.Integer({ minimum: 0, maximum: 1 }),
    categoryMatches: Type.Optional(
      Type.Array(ref(Mention), { description: "Where the category's phrases were said, when it holds." }),
    ),
  },
  { $id: "CategoryResult", description: "VoiceBase's `VbCategory` result." },
);

export const Conversation = Type.Object(
  {
    speakerVerbNounPairs: Type.Array(
      Type.Object({
        speakerName: Type.String(),
        verbNounPairs: Type.Array(
          Type.Object({
            s: Ms(),
            e: Ms(),
            verb: Type.String({ description: "The verb's lemma." }),
            verbNeg: Type.Optional(Type.String()),
            noun: Type.String({ description: "The noun's lemma." }),
            nounNeg: Type.Optional(Type.String()),
            question: Type.Optional(Type.Boolean()),
          }),
        ),
      }),
    ),
  },
  { $id: "Conversation", description: "VoiceBase's `VbConversation`: each speaker's verb-noun pairs." },
);

export const SpeakerSentiment = Type.Object(
  {
    speakerName: Type.String(),
    sentimentValues: Type.Array(
      Type.Object({ s: Ms(), e: Ms(), v: Type.Number({ minimum: -1, maximum: 1 }) }),
      { description: "One value per turn, -1 (negative) to 1 (positive)." },
    ),
  },
  { $id: "SpeakerSentiment", description: "VoiceBase's `VbSpeakerSentiment`." },
);

export const ANALYTICS_SCHEMAS = [
  Occurrence,
  Mention,
  Keyword,
  Topic,
  Knowledge,
  SpottedGroup,
  Spotting,
  DetectorResult,
  ClassifierResult,
  Prediction,
  MetricGroup,
  CategoryResult,
  Conversation,
  SpeakerSentiment,
];
