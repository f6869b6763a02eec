/**
 * The transcript as sentences, and those sentences tagged by wink-nlp (part of speech, lemma), as the
 * text analyses read it. Pure.
 */
import type { ItemToken, ItsFunction } from "wink-nlp";
import type { Transcript } from "../domain/transcript.ts";
import { its, nlp } from "./language.ts";
import { type SpokenWord, turnsOf } from "./turns.ts";

/** A sentence of one speaker: the spoken words between two full stops (or a stop and a turn change). */
export interface Sentence {
  speakerName: string;
  /** Index of the sentence's turn in `turnsOf(transcript)`. */
  turn: number;
  words: SpokenWord[];
}

/** A wink-nlp token of a sentence, with the transcript word it came from. */
export interface TaggedToken {
  /** The token as written, e.g. "n't" of "didn't". */
  value: string;
  /** Lower case, contractions spelled out ("n't" is "not"). */
  normal: string;
  lemma: string;
  /** Universal part-of-speech tag, e.g. "NOUN", "VERB", "AUX". */
  pos: string;
  stopWord: boolean;
  /** The transcript word the token is part of; "didn't" gives two tokens of one word. */
  word: SpokenWord;
}

export interface TaggedSentence extends Sentence {
  tokens: TaggedToken[];
}

/** Marks that end a sentence; a comma (advanced punctuation, a given transcript) does not. */
const SENTENCE_END = /[.?!]/;

/**
 * The transcript's sentences, in order. Full stops (at pauses and turn changes, or placed by advanced
 * punctuation) and question marks are the sentence ends; the tagger needs them to keep a pause apart.
 */
export function sentencesOf(transcript: Pick<Transcript, "words">): Sentence[] {
  const endsSentence = new Set<number>();
  let lastSpoken: number | undefined;
  for (const word of transcript.words) {
    if (word.m === undefined) lastSpoken = word.p;
    else if (word.m === "punc" && lastSpoken !== undefined && SENTENCE_END.test(word.w))
      endsSentence.add(lastSpoken);
  }
  const sentences: Sentence[] = [];
  turnsOf(transcript).forEach((turn, index) => {
    let current: SpokenWord[] = [];
    for (const word of turn.words) {
      current.push(word);
      if (endsSentence.has(word.p)) {
        sentences.push({ speakerName: turn.speakerName, turn: index, words: current });
        current = [];
      }
    }
    if (current.length > 0) sentences.push({ speakerName: turn.speakerName, turn: index, words: current });
  });
  return sentences;
}

/** Every sentence of the transcript tagged by wink-nlp, one document per sentence. */
export function taggedSentencesOf(transcript: Pick<Transcript, "words">): TaggedSentence[] {
  return sentencesOf(transcript).map((sentence) => ({ ...sentence, tokens: tag(sentence.words) }));
}

/**
 * wink-nlp's types give `its.lemma` an `addons` parameter that `out()` does not declare; `out()` passes the
 * addons at run time, and wink-nlp calls `out(its.lemma)` itself.
 */
const lemma = its.lemma as unknown as ItsFunction<string>;

/**
 * The words are joined by single spaces and the sentence closed with a full stop, as the tagger was trained
 * on written sentences; the first word is tagged lower-case (see `uncapitalised`). Tokens are matched back to words by character offset, which works because
 * wink-nlp's tokens keep the text: each token's preceding spaces plus its value rebuild the input.
 */
function tag(words: readonly SpokenWord[]): TaggedToken[] {
  const starts: number[] = [];
  let text = "";
  for (const word of words) {
    if (text !== "") text += " ";
    starts.push(text.length);
    text += text === "" ? uncapitalised(word.w) : word.w;
  }
  const tokens: TaggedToken[] = [];
  let offset = 0;
  let wordIndex = 0;
  nlp
    .readDoc(`${text} .`)
    .tokens()
    .each((token: ItemToken) => {
      offset += String(token.out(its.precedingSpaces)).length;
      const value = token.out();
      while (wordIndex + 1 < starts.length && (starts[wordIndex + 1] ?? Infinity) <= offset) wordIndex += 1;
      const word = words[wordIndex];
      if (word !== undefined && offset < text.length) {
        tokens.push({
          value,
          normal: String(token.out(its.normal)),
          lemma: String(token.out(lemma)).toLowerCase(),
          pos: String(token.out(its.pos)),
          stopWord: token.out(its.stopWordFlag) === true,
          word,
        });
      }
      offset += value.length;
    });
  return tokens;
}

/**
 * The capital that starts a sentence is the transcript's casing, not the recogniser's, and the tagger takes
 * a capitalised word for a name ("Great" a proper noun), so it is undone; "I" keeps its capital.
 */
function uncapitalised(word: string): string {
  return /^I(?:'|$)/.test(word) ? word : word.charAt(0).toLowerCase() + word.slice(1);
}
