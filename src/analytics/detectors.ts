/**
 * The `prediction.detectors[]` analysis: where in a call someone read out a payment card number (PCI), a
 * social security number (SSN) or any number (Number). VoiceBase's PCI and SSN detectors are trained
 * models; Hark's are rules over the digits read aloud (see spoken-numbers.ts), which is what the Number
 * detector is at VoiceBase too. Pure.
 */
import type { DetectorRequest } from "../domain/configuration.ts";
import type { Occurrence, Transcript } from "../domain/transcript.ts";
import { digitRuns, type DigitRun } from "./spoken-numbers.ts";
import { spokenWords } from "./turns.ts";

/** The detectors Hark offers, named as in a VoiceBase configuration (names are case-sensitive there). */
export const DETECTOR_NAMES = ["PCI", "SSN", "Number"] as const;
export type DetectorName = (typeof DETECTOR_NAMES)[number];

/** The `detectionLevel` parameter: how much around the sensitive digits a detection covers. */
export const DETECTION_LEVELS = ["entireRegion", "probableNumbers", "numbersOnly"] as const;
export type DetectionLevel = (typeof DETECTION_LEVELS)[number];

/** The detections of one class by one speaker. */
export interface DetectedSegment {
  /** Absent when the transcript names no speakers, as in VoiceBase's own examples. */
  speakerName?: string;
  occurrences: Occurrence[];
}

export interface Detection {
  detectorClass: number;
  detectorClassLabel: string;
  detectedSegments: DetectedSegment[];
}

/** A `prediction.detectors[]` element of the media results (VoiceBase's `VbDetector`). */
export interface DetectorResult {
  /** Echoed when the configuration named one. */
  detectorId?: string;
  detectorName: DetectorName;
  detectorVersion: string;
  detectorDisplayName: string;
  /** Binary detectors report positive cases only, so `detections` is empty when nothing was found. */
  detectorType: "binary";
  detections: Detection[];
}

/** A configuration asks for something Hark cannot run; the message says what to change. */
export class DetectorRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DetectorRequestError";
  }
}

/** Version of Hark's rules; a client comparing results across reprocessing can tell when they changed. */
export const DETECTOR_VERSION = "1.0";

/** "entireRegion" marks this much before and after the sensitive digits (the docs promise "some buffer"). */
export const ENTIRE_REGION_BUFFER_MS = 1000;
/** "probableNumbers" marks this much around each run of digits: the "minimal buffering" of the docs. */
export const PROBABLE_NUMBERS_BUFFER_MS = 250;
/**
 * An expiry date or security code read within this long after the card number belongs to the same
 * payment: agents ask for the three one after the other, sometimes reading the card back in between.
 */
export const PCI_FOLLOW_UP_MS = 30_000;
/** Longest follow-up: an expiry date as MMYYYY; longer runs are another number, not part of the card. */
export const PCI_FOLLOW_UP_MAX_DIGITS = 6;
/** Expiry date, security code, and one more in case the expiry is read as month and year apart. */
export const PCI_MAX_FOLLOW_UPS = 3;
/** Payment card numbers (ISO/IEC 7812) are 13 to 19 digits long. */
export const CARD_MIN_DIGITS = 13;
export const CARD_MAX_DIGITS = 19;

interface DetectorRule {
  /**
   * Class labels as VoiceBase's examples spell them: "pci" as in the media and callback data formats,
   * "ssn" as in the detection guide, "Number" as in the number detection guide.
   */
  label: string;
  displayName: string;
  /** The level when the configuration gives none: the docs make "entireRegion" PCI's default. */
  defaultLevel: DetectionLevel;
  /** Groups of digit runs; each group is one sensitive region (a card with its expiry date and code). */
  find: (runs: readonly DigitRun[], parameters: ReadonlyMap<string, string>) => DigitRun[][];
}

const RULES: Readonly<Record<DetectorName, DetectorRule>> = {
  PCI: {
    label: "pci",
    displayName: "Payment card numbers, expiry dates and security codes",
    defaultLevel: "entireRegion",
    find: (runs) => cardRegions(runs),
  },
  SSN: {
    label: "ssn",
    displayName: "Social security numbers",
    // The docs define levels for PCI only; SSN honours them the same way so one configuration fits both.
    defaultLevel: "entireRegion",
    find: (runs) => runs.filter((run) => isPlausibleSsn(run.digits)).map((run) => [run]),
  },
  Number: {
    label: "Number",
    displayName: "Numbers",
    // Rule-based at VoiceBase too, and its example occurrences are a word or two long: no buffering.
    defaultLevel: "numbersOnly",
    find: (runs, parameters) => {
      const minimum = minimumDigits(parameters);
      return runs.filter((run) => run.digits.length >= minimum).map((run) => [run]);
    },
  },
};

/**
 * Runs the requested detectors over the transcript's spoken words, one result per request in the order
 * requested. Throws a `DetectorRequestError` for a detector Hark does not have or a parameter value it
 * cannot use, before detecting anything.
 *
 * Parameters: `detectionLevel` ("entireRegion", "probableNumbers" or "numbersOnly", for every detector);
 * `minimumDigits` (Number only, a Hark extension, default 1: the docs' "any portion of the conversation
 * containing numbers"). Other parameters are ignored, so configurations written for VoiceBase's models
 * keep working.
 */
export function detect(
  transcript: Pick<Transcript, "words">,
  detectors: readonly DetectorRequest[],
): DetectorResult[] {
  const plans = detectors.map((request) => plan(request));
  const runs = digitRuns(spokenWords(transcript));
  return plans.map(({ request, name, level, parameters }) => {
    const rule = RULES[name];
    const occurrences = rule.find(runs, parameters).flatMap((region) => shape(region, level));
    const result: DetectorResult = {
      detectorName: name,
      detectorVersion: DETECTOR_VERSION,
      detectorDisplayName: rule.displayName,
      detectorType: "binary",
      detections:
        occurrences.length === 0
          ? []
          : [{ detectorClass: 1, detectorClassLabel: rule.label, detectedSegments: bySpeaker(occurrences) }],
    };
    return request.detectorId === undefined ? result : { detectorId: request.detectorId, ...result };
  });
}

/** What is wrong with a detector request, in words, or undefined when `detect` can run it. */
export function detectorRequestFault(request: DetectorRequest): string | undefined {
  try {
    plan(request);
    return undefined;
  } catch (error) {
    if (error instanceof DetectorRequestError) return error.message;
    throw error;
  }
}

/** The Luhn (mod 10) check every payment card number passes. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/u.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[digits.length - 1 - i]);
    const doubled = i % 2 === 1 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return sum % 10 === 0;
}

/**
 * Whether digits read in one breath are a payment card number: 13–19 digits passing the Luhn check, or
 * a 15- or 16-digit one (the lengths of nearly all cards) read straight on into its expiry date and
 * security code (3–8 more digits). Leading zeros are dropped first: no card number starts with 0, and
 * "oh, four one one one …" begins with an interjection, not a digit.
 */
export function containsCardNumber(digits: string): boolean {
  const number = digits.replace(/^0+/u, "");
  if (number.length >= CARD_MIN_DIGITS && number.length <= CARD_MAX_DIGITS && luhnValid(number)) return true;
  return [16, 15].some((length) => {
    const rest = number.length - length;
    return rest >= 3 && rest <= 8 && luhnValid(number.slice(0, length));
  });
}

/**
 * Nine digits that the Social Security Administration could have issued: area not 000, 666 or 900–999,
 * group not 00, serial not 0000. The rules keep ZIP+4 codes and the like out.
 */
export function isPlausibleSsn(digits: string): boolean {
  const match = /^(\d{3})(\d{2})(\d{4})$/u.exec(digits);
  if (match === null) return false;
  const [, area = "", group = "", serial = ""] = match;
  return area !== "000" && area !== "666" && !area.startsWith("9") && group !== "00" && serial !== "0000";
}

interface Plan {
  request: DetectorRequest;
  name: DetectorName;
  level: DetectionLevel;
  parameters: ReadonlyMap<string, string>;
}

function plan(request: DetectorRequest): Plan {
  const name = request.detectorName;
  if (!isDetectorName(name)) {
    const which =
      name === undefined ? `detectorId ${JSON.stringify(request.detectorId)}` : JSON.stringify(name);
    throw new DetectorRequestError(
      `there is no detector ${which}; name one of ${DETECTOR_NAMES.map((known) => `"${known}"`).join(", ")}`,
    );
  }
  const parameters = new Map((request.parameters ?? []).map(({ parameter, value }) => [parameter, value]));
  const level = parameters.get("detectionLevel") ?? RULES[name].defaultLevel;
  if (!isDetectionLevel(level)) {
    throw new DetectorRequestError(
      `detector "${name}" has no detectionLevel ${JSON.stringify(level)}; use one of ${DETECTION_LEVELS.join(", ")}`,
    );
  }
  if (name === "Number") minimumDigits(parameters);
  return { request, name, level, parameters };
}

function minimumDigits(parameters: ReadonlyMap<string, string>): number {
  const value = parameters.get("minimumDigits");
  if (value === undefined) return 1;
  const minimum = Number(value);
  if (!Number.isInteger(minimum) || minimum < 1) {
    throw new DetectorRequestError(
      `minimumDigits must be a whole number of 1 or more, not ${JSON.stringify(value)}`,
    );
  }
  return minimum;
}

function isDetectorName(name: string | undefined): name is DetectorName {
  return (DETECTOR_NAMES as readonly (string | undefined)[]).includes(name);
}

function isDetectionLevel(level: string): level is DetectionLevel {
  return (DETECTION_LEVELS as readonly string[]).includes(level);
}

/**
 * Each card number with the short numbers read after it: expiry date and security code, by whichever
 * speaker (an agent reading them back says them too). Numbers before the card are left alone: that is
 * where the order total usually is, and it is not sensitive.
 */
function cardRegions(runs: readonly DigitRun[]): DigitRun[][] {
  const regions: DigitRun[][] = [];
  runs.forEach((run, index) => {
    if (!containsCardNumber(run.digits)) return;
    const region = [run];
    for (const next of runs.slice(index + 1)) {
      const followUp =
        region.length <= PCI_MAX_FOLLOW_UPS &&
        next.digits.length <= PCI_FOLLOW_UP_MAX_DIGITS &&
        next.s - run.e <= PCI_FOLLOW_UP_MS;
      if (!followUp) break;
      region.push(next);
    }
    regions.push(region);
  });
  return regions;
}

interface SpeakerOccurrence extends Occurrence {
  speakerName: string;
}

/** The occurrences a region of digit runs is reported as, at the requested level. */
function shape(region: readonly DigitRun[], level: DetectionLevel): SpeakerOccurrence[] {
  const first = region[0];
  if (first === undefined) return [];
  if (level === "entireRegion") {
    // One stretch from the card to its security code, the words between included. VoiceBase groups by
    // speaker; the stretch belongs to whoever read the number that makes it sensitive.
    const s = Math.min(...region.map((run) => run.s));
    const e = Math.max(...region.map((run) => run.e));
    return [buffered(first.speakerName, s, e, ENTIRE_REGION_BUFFER_MS)];
  }
  const buffer = level === "probableNumbers" ? PROBABLE_NUMBERS_BUFFER_MS : 0;
  return region.map((run) => buffered(run.speakerName, run.s, run.e, buffer));
}

function buffered(speakerName: string, s: number, e: number, buffer: number): SpeakerOccurrence {
  return { speakerName, s: Math.max(0, s - buffer), e: e + buffer };
}

/** `detectedSegments`: speakers in order of their first detection, each one's occurrences merged. */
function bySpeaker(occurrences: readonly SpeakerOccurrence[]): DetectedSegment[] {
  const sorted = [...occurrences].sort((a, b) => a.s - b.s || a.e - b.e);
  const segments = new Map<string, Occurrence[]>();
  for (const { speakerName, s, e } of sorted) {
    const list = segments.get(speakerName) ?? [];
    segments.set(speakerName, list);
    const last = list.at(-1);
    if (last !== undefined && s <= last.e) last.e = Math.max(last.e, e);
    else list.push({ s, e });
  }
  return [...segments].map(([speakerName, list]) =>
    speakerName === "" ? { occurrences: list } : { speakerName, occurrences: list },
  );
}
