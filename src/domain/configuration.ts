/**
 * The configuration model: what an upload's `configuration` asks for once it has been read, checked and
 * given its defaults (src/intake/ does that). Processing, callbacks and documents work from these types
 * only, never from the JSON the client sent.
 */
import type { Message } from "./errors.ts";
import type { TranscriptFormat } from "./transcript.ts";

/** The sections an analytics callback's `include` may name. */
export const INCLUDE_SECTIONS = [
  "metadata",
  "transcript",
  "knowledge",
  "prediction",
  "spotting",
  "streams",
  "metrics",
  "speakerSentiments",
  "conversation",
  "categories",
  "messages",
] as const;
export type IncludeSection = (typeof INCLUDE_SECTIONS)[number];

export const CALLBACK_TYPES = ["analytics", "transcript", "media"] as const;
export type CallbackType = (typeof CALLBACK_TYPES)[number];

/** The media streams an item may have, by the name a configuration and `GET .../streams/{name}` use. */
export const STREAM_NAMES = ["original", "redacted-audio"] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

export type Method = "POST" | "PUT";

/** A callback with every default applied: what a delivery works from. */
export type Callback =
  | { url: string; method: Method; type: "analytics"; include?: IncludeSection[] }
  | { url: string; method: Method; type: "transcript"; format: TranscriptFormat }
  | { url: string; method: Method; type: "media"; stream: StreamName };

export interface SpeakerChannel {
  speakerName: string;
  /** A channel index of the media, or the whole mix. */
  channel: number | "mix";
  /** `speakerRole` as configured: "agent" and "caller" name the parties of conversation metrics. */
  speakerRole?: string;
}

export type Priority = "low" | "normal" | "high";

export interface Configuration {
  /** The configuration as the client sent it (shown back to the client unchanged). */
  raw: Record<string, unknown>;
  speakers: SpeakerChannel[];
  priority: Priority;
  callbacks: Callback[];
  analyses: AnalysisPlan;
  /**
   * Client-supplied encryption: results are stored and delivered encrypted to this OpenPGP key. The
   * upload adds the key's hash, as the analytics body shows it.
   */
  encryption?: { publicKeyId: string; publicKeyHash?: string };
  timeToLiveInSeconds?: number;
  /** Saved vocabularies the configuration names (`vocabularies[].vocabularyName`). */
  vocabularyNames?: string[];
  /** The ad hoc vocabulary terms (`vocabularies[].terms[].term`), to check with the saved ones'. */
  adHocTerms?: string[];
  /** What the configuration asks for that Hark does not do (yet): shown in the document's `warnings`. */
  warnings?: Message[];
}

/** VoiceBase's `speechModel.features`; Hark computes both. */
export const SPEECH_MODEL_FEATURES = ["advancedPunctuation", "voiceFeatures"] as const;
/** VoiceBase's `speechModel.extensions`. */
export const SPEECH_MODEL_EXTENSIONS = ["voicemail"] as const;

/** VoiceBase's metric groups; `talk-style-tone-and-volume` is computed from the words' voice features. */
export const METRIC_GROUP_NAMES = [
  "overtalk",
  "sentiment",
  "talk-style-tone-and-volume",
  "talk-time-and-rate",
] as const;
export type MetricGroupName = (typeof METRIC_GROUP_NAMES)[number];

/** What a configuration asks to be computed; definitions are named, and looked up before analysing. */
export interface AnalysisPlan {
  /** `speechModel.features` has advancedPunctuation: commas, question marks and full stops by words and pauses. */
  advancedPunctuation: boolean;
  knowledge: boolean;
  speakerSentiments: boolean;
  verbNounPairs: boolean;
  /**
   * `speechModel.features` has `voiceFeatures`: the words show `frq` and `v` (their volume). They are
   * measured also for the `talk-style-tone-and-volume` metrics, but then not shown. Absent in plans
   * stored before Hark measured them.
   */
  voiceFeatures?: boolean;
  metricGroups: MetricGroupName[];
  spottingGroups: string[];
  /** Category names, every category of the account, or none. */
  categories: string[] | "all";
  detectors: DetectorRequest[];
  /** Classifier ids or names. */
  classifiers: string[];
  /**
   * `transcript.contentFiltering.enableProfanityFiltering`: swear words in the transcript read "...".
   * Absent (off) unless the configuration asks: VoiceBase's Swagger says the default is on, its
   * configuration guide says off, and off keeps the results of clients that never asked as they were.
   */
  profanityFiltering?: boolean;
  /**
   * `transcript.formatting.enableNumberFormatting`: numbers in the transcript written as digits. Absent
   * in plans stored before Hark formatted numbers; those items were transcribed with words.
   */
  numberFormatting?: boolean;
}

/** Nothing beyond the transcript: what items uploaded before analyses existed are processed with. */
export const NO_ANALYSES: AnalysisPlan = {
  advancedPunctuation: false,
  knowledge: false,
  speakerSentiments: false,
  verbNounPairs: false,
  voiceFeatures: false,
  metricGroups: [],
  spottingGroups: [],
  categories: [],
  detectors: [],
  classifiers: [],
};

/** A `parameters[]` element of a detector configuration (VoiceBase's `VbParameter`). */
export interface DetectorParameter {
  parameter: string;
  value: string;
}

/** `redactor.transcript`: the text that replaces each word of a detected region. */
export interface TranscriptRedactor {
  replacement: string;
}

/** `redactor.audio`: the beep over detected regions; `tone` in Hz, `gain` 0..1 of full scale. */
export interface AudioRedactor {
  tone: number;
  gain: number;
}

export interface Redactor {
  transcript?: TranscriptRedactor;
  audio?: AudioRedactor;
}

/** A `prediction.detectors[]` element of a configuration (VoiceBase's `VbDetectorConfiguration`). */
export interface DetectorRequest {
  detectorId?: string;
  detectorName?: string;
  version?: string;
  parameters?: DetectorParameter[];
  redactor?: Redactor;
}
