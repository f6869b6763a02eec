/**
 * VoiceBase's verb-noun pairs (`conversation.speakerVerbNounPairs[]`): for each speaker, the things they
 * did, wanted or complained about, as a verb and the noun it acts on ("cancel" + "subscription"). Pure.
 *
 * Method: each sentence of the transcript is tagged by wink-nlp (part of speech, lemma), then a verb is
 * paired without a dependency parser:
 *
 * - with its object: the first noun after the verb in the same clause, reached over determiners,
 *   possessives ("my"), adjectives, numbers and adverbs only; of a compound ("account number") the last
 *   noun, the head. A preposition, another verb, a non-possessive pronoun or the end of the clause ends the
 *   search, so "need help with my account" does not pair "help" with "account".
 * - failing an object, with its subject: the noun right before the verb's auxiliaries, negation and
 *   adverbs ("my internet is not working"), as VoiceBase pairs "work" with "internet".
 *
 * A verb is a token tagged VERB, or an auxiliary "have"/"do" with no verb after it in the clause ("I do not
 * have a question": the tagger calls that "have" an auxiliary). "be" is left out: a copula pairs with
 * everything ("is my account") and says nothing.
 */
import type { Transcript } from "../domain/transcript.ts";
import { type TaggedToken, taggedSentencesOf } from "./sentences.ts";
import { speakersOf } from "./turns.ts";

/** One verb-noun pair, as VoiceBase's media document shows it. */
export interface VerbNounPair {
  /** Start of the first word of the pair (the verb, or the subject noun before it), in ms. */
  s: number;
  /** End of the last word of the pair, in ms. */
  e: number;
  /** The verb's lemma: "working", "works" and "worked" are all "work". */
  verb: string;
  /** The negation of the verb, as a lemma: "not" (also for "n't") or "never". Absent when not negated. */
  verbNeg?: string;
  /** The noun's lemma. */
  noun: string;
  /** The negation of the noun: "no" as in "provide no justification". Absent when not negated. */
  nounNeg?: string;
  /** Present, and true, when the pair comes from a question. */
  question?: true;
}

/** One element of `conversation.speakerVerbNounPairs[]`. */
export interface SpeakerVerbNounPair {
  speakerName: string;
  verbNounPairs: VerbNounPair[];
}

/** Negations of a verb, by their normal form ("n't" is "not"). */
const VERB_NEGATIONS = new Set(["not", "never"]);
/** Determiners that negate the noun they precede. */
const NOUN_NEGATIONS = new Set(["no"]);
/** Pronouns that stand before a noun rather than for one, so the search for the object goes on past them. */
const POSSESSIVES = new Set(["my", "your", "his", "her", "its", "our", "their"]);
/** Auxiliaries that are the main verb when no other verb follows them: "I have a question". */
const AUXILIARY_MAIN_VERBS = new Set(["have", "do"]);
/** Tags that may stand between a verb and its object noun. */
const BEFORE_OBJECT = new Set(["DET", "ADJ", "NUM", "ADV"]);
/** Tags that may stand between a subject noun and its verb: "internet does n't work", "is not working". */
const BETWEEN_SUBJECT_AND_VERB = new Set(["AUX", "PART", "ADV"]);
/** Tags that end a clause. */
const CLAUSE_ENDS = new Set(["PUNCT", "CCONJ", "SCONJ"]);
/** Nouns that say when, not what: "cancel the subscription today" is about the subscription. */
const TIME_NOUNS = new Set(["today", "tomorrow", "yesterday", "tonight", "now"]);
/** A sentence opening with an auxiliary and then its subject asks: "can you reset my password". */
const SUBJECT_TAGS = new Set(["PRON", "NOUN", "PROPN", "DET"]);
const WH_WORDS = new Set(["what", "why", "how", "when", "where", "who", "whom", "which", "whose"]);
/** Words before the question proper that do not change it: "okay so can you ...", "um did you ...". */
const OPENER_TAGS = new Set(["INTJ", "CCONJ"]);
const OPENER_WORDS = new Set(["so", "well", "now", "then", "also", "um", "uh", "er", "erm", "hmm"]);

/**
 * For each speaker, the verb-noun pairs of their sentences in the order spoken. Speakers come in the order
 * of `voiceActivity` (the channels), then any other speaker of a turn; one with no pairs, even one who said
 * nothing, is listed with an empty array, so that a client looking up the agent or the caller finds them.
 */
export function verbNounPairsOf(
  transcript: Pick<Transcript, "words" | "voiceActivity">,
): SpeakerVerbNounPair[] {
  const names = [
    ...transcript.voiceActivity.map((activity) => activity.speakerName),
    ...speakersOf(transcript),
  ];
  const bySpeaker = new Map<string, VerbNounPair[]>(names.map((name) => [name, []]));
  for (const sentence of taggedSentencesOf(transcript)) {
    const pairs = bySpeaker.get(sentence.speakerName) ?? [];
    pairs.push(...pairsOf(sentence.tokens));
    bySpeaker.set(sentence.speakerName, pairs);
  }
  return [...bySpeaker].map(([speakerName, verbNounPairs]) => ({ speakerName, verbNounPairs }));
}

/** The verb-noun pairs of one tagged sentence. */
export function pairsOf(tokens: readonly TaggedToken[]): VerbNounPair[] {
  const question = isQuestion(tokens);
  const pairs: VerbNounPair[] = [];
  tokens.forEach((token, index) => {
    if (!isMainVerb(tokens, index)) return;
    const object = objectOf(tokens, index);
    const subject = object === undefined ? subjectOf(tokens, index) : undefined;
    const noun = object ?? subject;
    if (noun === undefined) return;
    const first = subject === undefined ? token : noun.token;
    const last = subject === undefined ? noun.token : token;
    const verbNeg = negationOf(tokens, index);
    pairs.push({
      s: first.word.s,
      e: last.word.e,
      verb: token.lemma,
      ...(verbNeg === undefined ? {} : { verbNeg }),
      noun: noun.token.lemma,
      ...(noun.negation === undefined ? {} : { nounNeg: noun.negation }),
      ...(question ? { question: true as const } : {}),
    });
  });
  return pairs;
}

function isMainVerb(tokens: readonly TaggedToken[], index: number): boolean {
  const token = tokens[index];
  if (token === undefined) return false;
  if (token.pos === "VERB") return token.lemma !== "be";
  if (token.pos !== "AUX" || !AUXILIARY_MAIN_VERBS.has(token.lemma)) return false;
  for (const next of tokens.slice(index + 1)) {
    if (CLAUSE_ENDS.has(next.pos)) break;
    if (next.pos === "VERB" || next.pos === "AUX") return false;
  }
  return true;
}

function isNoun(token: TaggedToken): boolean {
  // The tagger takes "I'm" for a proper noun; no noun of interest has an apostrophe.
  return (token.pos === "NOUN" || token.pos === "PROPN") && !token.value.includes("'");
}

interface NounFound {
  token: TaggedToken;
  negation?: string;
}

function objectOf(tokens: readonly TaggedToken[], verbIndex: number): NounFound | undefined {
  let negation: string | undefined;
  for (let index = verbIndex + 1; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token === undefined) break;
    if (isNoun(token) && !TIME_NOUNS.has(token.normal)) {
      return { token: headOf(tokens, index), ...(negation === undefined ? {} : { negation }) };
    }
    if (NOUN_NEGATIONS.has(token.normal)) negation = token.normal;
    else if (!BEFORE_OBJECT.has(token.pos) && !POSSESSIVES.has(token.normal)) return undefined;
  }
  return undefined;
}

/** The last noun of the compound starting at `index`. */
function headOf(tokens: readonly TaggedToken[], index: number): TaggedToken {
  let head = index;
  for (let next = index + 1; next < tokens.length; next += 1) {
    const token = tokens[next];
    if (token === undefined || !isNoun(token) || TIME_NOUNS.has(token.normal)) break;
    head = next;
  }
  return tokens[head] ?? (tokens[index] as TaggedToken);
}

function subjectOf(tokens: readonly TaggedToken[], verbIndex: number): NounFound | undefined {
  for (let index = verbIndex - 1; index >= 0; index -= 1) {
    const token = tokens[index];
    if (token === undefined) break;
    if (isNoun(token) && !TIME_NOUNS.has(token.normal)) return { token };
    if (!BETWEEN_SUBJECT_AND_VERB.has(token.pos)) return undefined;
  }
  return undefined;
}

/** "not" or "never" among the auxiliaries and adverbs right before the verb. */
function negationOf(tokens: readonly TaggedToken[], verbIndex: number): string | undefined {
  for (let index = verbIndex - 1; index >= 0; index -= 1) {
    const token = tokens[index];
    if (token === undefined || !BETWEEN_SUBJECT_AND_VERB.has(token.pos)) break;
    if (VERB_NEGATIONS.has(token.normal)) return token.normal;
  }
  return undefined;
}

/**
 * The recogniser writes no question marks, so a question is told by its word order: an auxiliary before its
 * subject ("can you", "do they", "is my"), or a wh-word followed by an auxiliary ("how can I", "what is").
 */
export function isQuestion(tokens: readonly TaggedToken[]): boolean {
  let start = 0;
  while (start < tokens.length && isOpener(tokens[start])) start += 1;
  const first = tokens[start];
  const second = tokens[start + 1];
  if (first === undefined || second === undefined) return false;
  if (first.pos === "AUX") {
    // "have a nice day", "do the reset": a "have" or "do" before a determiner gives an order, not a question.
    return SUBJECT_TAGS.has(second.pos) && !(second.pos === "DET" && AUXILIARY_MAIN_VERBS.has(first.lemma));
  }
  if (!WH_WORDS.has(first.normal)) return false;
  // "what time is it": the wh-word may take a noun before the auxiliary.
  const third = tokens[start + 2];
  return second.pos === "AUX" || (isNoun(second) && third?.pos === "AUX");
}

function isOpener(token: TaggedToken | undefined): boolean {
  return token !== undefined && (OPENER_TAGS.has(token.pos) || OPENER_WORDS.has(token.normal));
}
