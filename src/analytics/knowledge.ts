/**
 * VoiceBase's semantic knowledge (`knowledge`): the keywords of a conversation, who said them and when, and
 * the topics they form. Pure and deterministic: the same transcript always gives the same knowledge.
 *
 * Keywords: SingleRank (Wan & Xiao, 2008), the weighted form of TextRank (Mihalcea & Tarau, 2004).
 * 1. Each sentence is tagged by wink-nlp. A candidate word is a noun that is not a stop word, a filler
 *    ("um") or a word that carries no subject ("today", "thing"); its lemma stands for all its forms, so
 *    "subscriptions" counts as "subscription".
 * 2. A graph joins two candidate lemmas each time they occur within `COOCCURRENCE_WINDOW` tokens of each
 *    other in one speaker turn; the edge weight is the number of such co-occurrences.
 * 3. PageRank over that graph (damping `DAMPING`) scores each lemma, its random jump biased towards words
 *    said more often (see `pageRank`). The scores add up to 1, so a word's score is its share of the
 *    conversation's importance: a word said often, near many others, scores high.
 * 4. A keyword is a run of consecutive candidate words in a sentence (a compound noun such as "account
 *    number", at most `MAX_PHRASE_WORDS` words), identified by its lemmas. Its relevance is the mean of its
 *    words' scores: SingleRank's sum divided by the length, as the reference implementation (pke) offers,
 *    so that a compound said once does not outrank a word said throughout. It lies within 0..1, as
 *    VoiceBase's relevance does.
 * Nouns only, not adjectives as in the papers: in speech, adjectives are mostly judgements ("good",
 * "whole"), and "monthly subscription" apart from "subscription" would split one subject's mentions.
 *
 * Topics: keywords said in the same turns belong together. Each keyword is described by the set of turns
 * in which it or any of its words is said (so "password reset email" goes with "email"). Average-linkage
 * agglomerative clustering with the Jaccard similarity of those sets merges keywords and groups while the
 * best pair is at least `TOPIC_SIMILARITY` alike. A group of at least `MIN_TOPIC_KEYWORDS` keywords is a
 * topic, named after its most relevant keyword, with the mean relevance of its keywords as its own (as
 * VoiceBase's guide defines topic relevance).
 */
import type { Transcript } from "../domain/transcript.ts";
import { type TaggedToken, taggedSentencesOf } from "./sentences.ts";

/** Most keywords reported: more than a screenful is noise for a phone call. */
export const MAX_KEYWORDS = 20;
/** Most topics reported. */
export const MAX_TOPICS = 10;
/** Longest keyword, in words; longer noun runs in recognised speech are mostly recognition errors. */
export const MAX_PHRASE_WORDS = 3;
/** Two words this many tokens apart or closer, in one turn, co-occur (SingleRank's window of 10). */
export const COOCCURRENCE_WINDOW = 10;
/** PageRank's damping factor, the value TextRank and PageRank use. */
export const DAMPING = 0.85;
/** Least Jaccard similarity of two groups' turns for them to join one topic. */
export const TOPIC_SIMILARITY = 0.3;
/** Fewest keywords in a topic: the guide calls a topic a set of keywords that relate to each other. */
export const MIN_TOPIC_KEYWORDS = 2;

const PAGERANK_ITERATIONS = 100;
const PAGERANK_TOLERANCE = 1e-10;

/**
 * Nouns by the tagger that never make a keyword: fillers and courtesies (the recogniser spells hesitations
 * as words and the tagger often calls them nouns), words of time that say when rather than what, and
 * words too vague to name a subject.
 */
const NOT_KEYWORDS = new Set([
  ...["um", "uh", "hmm", "mm", "mhm", "er", "erm", "ah", "oh", "huh", "uhm", "yeah", "okay", "ok", "yes"],
  ...["hello", "hi", "bye", "goodbye", "thanks", "thank", "please", "sir", "madam"],
  ...["today", "tomorrow", "yesterday", "tonight", "now", "moment", "second", "minute", "hour"],
  ...["day", "week", "month", "year", "time"],
  ...["thing", "stuff", "lot", "bit", "kind", "sort", "way", "something", "anything", "everything"],
]);

/** Where a keyword was said: `exact` is the transcript's words there, as spoken. */
export interface KeywordOccurrence {
  s: number;
  e: number;
  exact: string;
}

/** A speaker's occurrences of a keyword. */
export interface KeywordMention {
  speakerName: string;
  occurrences: KeywordOccurrence[];
}

export interface Keyword {
  keyword: string;
  /** 0..1, 4 decimals. */
  relevance: number;
  /** By speaker, in order of each speaker's first mention. */
  mentions: KeywordMention[];
}

/** VoiceBase's `VbReference`, the shape of a subtopic. Hark finds no subtopics; see `Topic.subTopics`. */
export interface TopicReference {
  name: string;
  score: number;
}

export interface Topic {
  topicName: string;
  /** The mean relevance of the topic's keywords, 4 decimals. */
  relevance: number;
  /**
   * Always empty: VoiceBase draws subtopics from its taxonomy, which Hark does not have. Spelled `subTopics`
   * as in the API's schema (`VbTopic`) and the keywords guide; one sample media document spells it
   * `subtopics`, but a client generated from the schema reads `subTopics`.
   */
  subTopics: TopicReference[];
  /** The topic's keywords, most relevant first, as in `knowledge.keywords`. */
  keywords: Keyword[];
}

/** The `knowledge` section of a media document. */
export interface Knowledge {
  /** Most relevant first. */
  keywords: Keyword[];
  /** Most relevant first. */
  topics: Topic[];
}

/** One time a candidate keyword was said. */
interface Occurrence extends KeywordOccurrence {
  speakerName: string;
  turn: number;
}

/** A candidate keyword: its lemmas, and every time it was said. */
interface Candidate {
  key: string;
  lemmas: string[];
  occurrences: Occurrence[];
}

/** The keywords and topics of a transcript. No spoken nouns, no keywords and no topics. */
export function knowledgeOf(transcript: Pick<Transcript, "words">): Knowledge {
  const { candidates, graph, frequency, turnsOfLemma } = readCandidates(transcript);
  const scores = pageRank(graph, frequency);
  const ranked = [...candidates.values()]
    .map((candidate) => ({
      candidate,
      score: sumOf(candidate.lemmas.map((lemma) => scores.get(lemma) ?? 0)) / candidate.lemmas.length,
    }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        firstTime(a.candidate) - firstTime(b.candidate) ||
        (a.candidate.key < b.candidate.key ? -1 : 1),
    )
    .slice(0, MAX_KEYWORDS);
  const keywords = ranked.map(({ candidate, score }) => toKeyword(candidate, score));
  const turnSets = ranked.map(
    ({ candidate }) => new Set(candidate.lemmas.flatMap((lemma) => [...(turnsOfLemma.get(lemma) ?? [])])),
  );
  return { keywords, topics: topicsOf(keywords, turnSets) };
}

/** Weighted, undirected co-occurrence graph: lemma → neighbour lemma → weight. */
type Graph = Map<string, Map<string, number>>;

function isCandidateWord(token: TaggedToken): boolean {
  return (
    (token.pos === "NOUN" || token.pos === "PROPN") &&
    !token.stopWord &&
    /^[\p{L}][\p{L}-]*$/u.test(token.value) &&
    !NOT_KEYWORDS.has(token.normal) &&
    !NOT_KEYWORDS.has(token.lemma)
  );
}

function readCandidates(transcript: Pick<Transcript, "words">): {
  candidates: Map<string, Candidate>;
  graph: Graph;
  /** How many times each candidate lemma was said. */
  frequency: Map<string, number>;
  /** The turns each candidate lemma was said in, alone or in a compound. */
  turnsOfLemma: Map<string, Set<number>>;
} {
  const candidates = new Map<string, Candidate>();
  const graph: Graph = new Map();
  const frequency = new Map<string, number>();
  const turnsOfLemma = new Map<string, Set<number>>();
  /** Candidate words of the current turn: their position among the turn's tokens, and lemma. */
  let window: { position: number; lemma: string }[] = [];
  let turn = -1;
  let position = 0;

  const addPhrase = (tokens: readonly TaggedToken[], speakerName: string, sentenceTurn: number) => {
    const lemmas = tokens.map((token) => token.lemma);
    const key = lemmas.join(" ");
    const words = [...new Set(tokens.map((token) => token.word))];
    const first = words[0];
    const last = words.at(-1);
    if (first === undefined || last === undefined) return;
    const candidate = candidates.get(key) ?? { key, lemmas, occurrences: [] };
    candidate.occurrences.push({
      s: first.s,
      e: last.e,
      exact: words.map((word) => word.w).join(" "),
      speakerName,
      turn: sentenceTurn,
    });
    candidates.set(key, candidate);
  };

  for (const sentence of taggedSentencesOf(transcript)) {
    if (sentence.turn !== turn) {
      turn = sentence.turn;
      position = 0;
      window = [];
    }
    let run: TaggedToken[] = [];
    const endRun = () => {
      if (run.length <= MAX_PHRASE_WORDS) addPhrase(run, sentence.speakerName, sentence.turn);
      else for (const token of run) addPhrase([token], sentence.speakerName, sentence.turn);
      run = [];
    };
    for (const token of sentence.tokens) {
      if (isCandidateWord(token)) {
        run.push(token);
        graph.set(token.lemma, graph.get(token.lemma) ?? new Map());
        frequency.set(token.lemma, (frequency.get(token.lemma) ?? 0) + 1);
        turnsOfLemma.set(token.lemma, (turnsOfLemma.get(token.lemma) ?? new Set()).add(sentence.turn));
        window = window.filter((earlier) => position - earlier.position <= COOCCURRENCE_WINDOW);
        for (const earlier of window) link(graph, earlier.lemma, token.lemma);
        window.push({ position, lemma: token.lemma });
      } else if (run.length > 0) {
        endRun();
      }
      position += 1;
    }
    if (run.length > 0) endRun();
    // The full stop the tagger saw between sentences counts as a token of the turn.
    position += 1;
  }
  return { candidates, graph, frequency, turnsOfLemma };
}

function link(graph: Graph, a: string, b: string): void {
  if (a === b) return;
  for (const [from, to] of [
    [a, b],
    [b, a],
  ] as const) {
    const edges = graph.get(from) ?? new Map<string, number>();
    edges.set(to, (edges.get(to) ?? 0) + 1);
    graph.set(from, edges);
  }
}

/**
 * Weighted PageRank, iterated from the teleport vector until it settles. The random jump lands on a word in
 * proportion to `frequency` (personalised PageRank, as PositionRank biases the jump by position), so that
 * a word said in many turns with few nouns around it still counts. A word with no neighbours spreads its
 * score the same way, as PageRank treats pages without links; the scores keep adding up to 1.
 */
export function pageRank(
  graph: ReadonlyMap<string, ReadonlyMap<string, number>>,
  frequency: ReadonlyMap<string, number>,
): Map<string, number> {
  const nodes = [...graph.keys()].sort();
  const totalFrequency = sumOf(nodes.map((node) => frequency.get(node) ?? 0));
  const teleport = new Map(
    nodes.map((node) => [
      node,
      totalFrequency > 0 ? (frequency.get(node) ?? 0) / totalFrequency : 1 / nodes.length,
    ]),
  );
  const totals = new Map(nodes.map((node) => [node, sumOf([...(graph.get(node)?.values() ?? [])])]));
  let scores = new Map(teleport);
  for (let iteration = 0; iteration < PAGERANK_ITERATIONS; iteration += 1) {
    const dangling = sumOf(
      nodes.filter((node) => totals.get(node) === 0).map((node) => scores.get(node) ?? 0),
    );
    const next = new Map<string, number>();
    for (const node of nodes) {
      let incoming = dangling * (teleport.get(node) ?? 0);
      for (const [neighbour, weight] of graph.get(node) ?? []) {
        incoming += ((scores.get(neighbour) ?? 0) * weight) / (totals.get(neighbour) ?? 1);
      }
      next.set(node, (1 - DAMPING) * (teleport.get(node) ?? 0) + DAMPING * incoming);
    }
    const change = sumOf(nodes.map((node) => Math.abs((next.get(node) ?? 0) - (scores.get(node) ?? 0))));
    scores = next;
    if (change < PAGERANK_TOLERANCE) break;
  }
  return scores;
}

function sumOf(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}

function firstTime(candidate: Candidate): number {
  return candidate.occurrences[0]?.s ?? 0;
}

/**
 * The keyword is named as it was said most often (lower-cased), not by its lemma: the lemmatiser spells
 * "cancellation" the American way and makes "data" "datum".
 */
function toKeyword(candidate: Candidate, score: number): Keyword {
  const forms = new Map<string, number>();
  for (const occurrence of candidate.occurrences) {
    const form = occurrence.exact.toLowerCase();
    forms.set(form, (forms.get(form) ?? 0) + 1);
  }
  let keyword = "";
  let most = 0;
  for (const [form, count] of forms) {
    if (count > most) [keyword, most] = [form, count];
  }

  const mentions: KeywordMention[] = [];
  for (const { speakerName, s, e, exact } of candidate.occurrences) {
    let mention = mentions.find((existing) => existing.speakerName === speakerName);
    if (mention === undefined) {
      mention = { speakerName, occurrences: [] };
      mentions.push(mention);
    }
    mention.occurrences.push({ s, e, exact });
  }
  return { keyword, relevance: round4(score), mentions };
}

function topicsOf(keywords: readonly Keyword[], turnSets: readonly Set<number>[]): Topic[] {
  // Clusters hold indexes into `keywords`, which is in order of relevance; merging keeps that order.
  let clusters = keywords.map((_, index) => [index]);
  for (;;) {
    let best: { a: number; b: number; similarity: number } | undefined;
    for (let a = 0; a < clusters.length; a += 1) {
      for (let b = a + 1; b < clusters.length; b += 1) {
        const similarity = averageLinkage(clusters[a] ?? [], clusters[b] ?? [], turnSets);
        if (best === undefined || similarity > best.similarity) best = { a, b, similarity };
      }
    }
    if (best === undefined || best.similarity < TOPIC_SIMILARITY) break;
    const { a, b } = best;
    const merged = [...(clusters[a] ?? []), ...(clusters[b] ?? [])].sort((x, y) => x - y);
    clusters = clusters.filter((_, index) => index !== a && index !== b);
    clusters.push(merged);
  }

  return clusters
    .filter((cluster) => cluster.length >= MIN_TOPIC_KEYWORDS)
    .map((cluster) => ({ cluster, members: cluster.map((index) => keywords[index] as Keyword) }))
    .map(({ cluster, members }) => ({
      rank: cluster[0] ?? 0,
      topic: {
        topicName: capitalise(members[0]?.keyword ?? ""),
        relevance: round4(sumOf(members.map((keyword) => keyword.relevance)) / members.length),
        subTopics: [],
        keywords: members,
      },
    }))
    .sort((x, y) => y.topic.relevance - x.topic.relevance || x.rank - y.rank)
    .slice(0, MAX_TOPICS)
    .map(({ topic }) => topic);
}

/** The mean Jaccard similarity of the turn sets of every keyword of one group with every one of the other. */
function averageLinkage(
  a: readonly number[],
  b: readonly number[],
  turnSets: readonly Set<number>[],
): number {
  let total = 0;
  for (const x of a) for (const y of b) total += jaccard(turnSets[x] ?? new Set(), turnSets[y] ?? new Set());
  return total / (a.length * b.length);
}

function jaccard(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  let shared = 0;
  for (const item of a) if (b.has(item)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
