/**
 * Categories: the VoiceBase `categories` section. A category is a name and a query over the transcript
 * (and the media item's metadata); it has `categoryValue` 1 when the query holds and 0 when not, and
 * `categoryMatches[]` says where the phrases that made it hold were said. Pure.
 *
 * A query is written in either of two languages, both read into one tree (query.ts) evaluated here:
 * - VoiceBase's VBQL, as far as its public documents show it, for a query that starts with SELECT:
 *   `SELECT * FROM media MATCH 'cancel' WHERE extended.queue = 'billing'` (vbql.ts has its grammar);
 * - Hark's own small language, for any other query:
 *
 *     query    = or ;
 *     or       = and , { "OR" , and } ;
 *     and      = unary , { "AND" , unary } ;
 *     unary    = "NOT" , unary
 *              | speaker , unary
 *              | window , unary
 *              | "(" , or , ")"
 *              | phrase ;
 *     speaker  = "[" , name , "]" ;                   (* e.g. [Agent], [Speaker 1] *)
 *     window   = ( "FIRST" | "LAST" ) , duration ;    (* e.g. FIRST 30s, LAST 2m *)
 *     duration = number , ( "s" | "m" ) ;             (* seconds or minutes, no space *)
 *     phrase   = '"' , words , '"' | "'" , words , "'" ;
 *
 * Keywords are read in any case; phrases are in double or single quotes.
 * - A phrase holds when it was said, matched as `spotting.ts` describes: by lemma ("cancel" matches
 *   "cancelled"), words in order by one speaker, with at most one other word between two of them
 *   ("cancel account" matches "cancelled my account").
 * - NOT binds tightest, then AND, then OR: `"a" OR "b" AND NOT "c"` is `"a" OR ("b" AND (NOT "c"))`.
 *   AND and OR must be written out; two phrases side by side are an error, not a guess.
 * - `[name]` keeps only what that speaker said (names compare ignoring case); `FIRST 30s` keeps only
 *   phrases that start in the first 30 seconds of the call, `LAST 60s` in the last 60 seconds. Like NOT
 *   they apply to what follows them: `[Agent] "a" AND "b"` restricts "a" only; write `[Agent] ("a" AND
 *   "b")` for both. Nested restrictions all apply: `[Agent] FIRST 30s "thank you for calling"`.
 * - `[Caller] NOT "refund"` holds when the caller never said "refund"; `NOT [Caller] "refund"` is the same.
 * - A metadata comparison (VBQL's WHERE) holds as query.ts `compareField` says; it points at no place in
 *   the call, so it adds nothing to `categoryMatches`.
 *
 * Examples: `"cancel" AND NOT "thank you"`, `[Caller] ("cancel" OR "close") AND "account"`,
 * `[Agent] FIRST 30s ("thank you for calling" OR "how can I help")`, `LAST 60s NOT "goodbye"`.
 */
import type { CategoryDefinition } from "../domain/definitions.ts";
import type { Metadata } from "../domain/media.ts";
import type { Transcript } from "../domain/transcript.ts";
import {
  compareField,
  fieldOf,
  ConditionParser,
  MAX_QUERY_LENGTH,
  type Query,
  QueryError,
  type QueryParse,
  windowMs,
} from "./query.ts";
import {
  findPhrase,
  indexPhrases,
  mentionsOf,
  phraseLemmas,
  type Mention,
  type PhraseMatch,
} from "./spotting.ts";
import { spokenWords } from "./turns.ts";
import { parseVbqlCondition, startsVbql } from "./vbql.ts";

export { MAX_QUERY_DEPTH, MAX_QUERY_LENGTH, type Query, type QueryParse } from "./query.ts";

/** One element of the `categories[]` section. */
export interface CategoryResult {
  categoryName: string;
  categoryValue: 0 | 1;
  /**
   * Where the phrases that made the category hold were said, by speaker; only when `categoryValue` is 1,
   * as VoiceBase's example shows. Empty when the category holds by absence (`NOT "goodbye"`).
   */
  categoryMatches?: Mention[];
}

/**
 * Computes each category. `length` is the media's duration in ms, from which `LAST` windows count back;
 * without it they count back from the end of the last word. `metadata` is the media item's, which VBQL's
 * WHERE reads. Throws on a query that does not parse: queries are checked with `parseCategoryQuery` when a
 * category is defined.
 */
export function categorize(
  transcript: Pick<Transcript, "words">,
  categories: readonly CategoryDefinition[],
  length?: number,
  metadata?: Metadata,
): CategoryResult[] {
  const matcher = queryMatcher(transcript, length, metadata);
  return categories.map(({ categoryName, query }) => {
    const parsed = parseCategoryQuery(query);
    if (!parsed.ok) throw new Error(`category "${categoryName}": ${parsed.error}`);
    const outcome = matcher(parsed.query);
    if (!outcome.holds) return { categoryName, categoryValue: 0 };
    return { categoryName, categoryValue: 1, categoryMatches: mentionsOf(outcome.matches) };
  });
}

/** Whether a query holds of one media item, and the phrase matches that make it hold. */
export interface Outcome {
  holds: boolean;
  /** The phrase matches that make it hold (each with the phrase it matched); none when it does not hold. */
  matches: QueryMatch[];
}

export interface QueryMatch extends PhraseMatch {
  /** The query's phrase, as written in it. */
  phrase: string;
}

/**
 * Evaluates queries over one media item, each phrase found once however many queries name it: what
 * `categorize` does for each category, and the VBQL search for each item.
 */
export function queryMatcher(
  transcript: Pick<Transcript, "words">,
  length?: number,
  metadata?: Metadata,
): (query: Query) => Outcome {
  const index = indexPhrases(transcript);
  const phrases = new Map<string, QueryMatch[]>();
  const context: Context = {
    end: length ?? spokenWords(transcript).reduce((end, word) => Math.max(end, word.e), 0),
    metadata,
    find: (text) => {
      let found = phrases.get(text);
      if (found === undefined) {
        found = findPhrase(index, text).map((match) => ({ ...match, phrase: text }));
        phrases.set(text, found);
      }
      return found;
    },
  };
  return (query) => evaluate(query, [], context);
}

interface Context {
  /** The end of the call, in ms. */
  end: number;
  metadata: Metadata | undefined;
  find: (phrase: string) => QueryMatch[];
}

type Filter = (match: QueryMatch) => boolean;

function evaluate(query: Query, filters: readonly Filter[], context: Context): Outcome {
  switch (query.kind) {
    case "phrase": {
      const matches = context.find(query.text).filter((match) => filters.every((keep) => keep(match)));
      return { holds: matches.length > 0, matches };
    }
    case "and": {
      const outcomes = query.operands.map((operand) => evaluate(operand, filters, context));
      const holds = outcomes.every((outcome) => outcome.holds);
      return { holds, matches: holds ? outcomes.flatMap((outcome) => outcome.matches) : [] };
    }
    case "or": {
      const outcomes = query.operands.map((operand) => evaluate(operand, filters, context));
      return {
        holds: outcomes.some((outcome) => outcome.holds),
        matches: outcomes.flatMap((outcome) => outcome.matches),
      };
    }
    case "not":
      // Absence has no place in the call to point at.
      return { holds: !evaluate(query.operand, filters, context).holds, matches: [] };
    case "speaker": {
      const name = query.speakerName.toLowerCase();
      const bySpeaker: Filter = (match) => match.speakerName.toLowerCase() === name;
      return evaluate(query.operand, [...filters, bySpeaker], context);
    }
    case "window": {
      const { ms } = query;
      const inWindow: Filter =
        query.from === "start" ? (match) => match.s < ms : (match) => match.s >= context.end - ms;
      return evaluate(query.operand, [...filters, inWindow], context);
    }
    case "field":
      return {
        holds: compareField(fieldOf(context.metadata, query.path), query.comparison, query.value),
        matches: [],
      };
  }
}

// Parsing

type Token =
  | { kind: "phrase"; text: string; column: number }
  | { kind: "speaker"; name: string; column: number }
  | { kind: "open" | "close"; column: number }
  | { kind: "word"; text: string; column: number }
  | { kind: "end"; column: number };

const KEYWORDS = new Set(["AND", "OR", "NOT", "FIRST", "LAST"]);
const EXPECTED_OPERAND = 'a quoted phrase, "(", NOT, FIRST, LAST or [speaker]';

/**
 * Parses a category query, with an error that names what is wrong and the column (from 1) where: a VBQL
 * statement when it starts with SELECT, else Hark's language.
 */
export function parseCategoryQuery(text: string): QueryParse {
  if (text.length > MAX_QUERY_LENGTH)
    return { ok: false, error: `the query is longer than ${MAX_QUERY_LENGTH} characters` };
  if (startsVbql(text)) return parseVbqlCondition(text);
  try {
    const tokens = tokenize(text);
    if (tokens[0]?.kind === "end") throw new QueryError("the query is empty");
    const parser = new Parser(tokens);
    return { ok: true, query: parser.parse() };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error: error.message };
    throw error;
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text.charAt(at);
    const column = at + 1;
    if (/\s/.test(char)) {
      at += 1;
    } else if (char === "(" || char === ")") {
      tokens.push({ kind: char === "(" ? "open" : "close", column });
      at += 1;
    } else if (char === '"' || char === "'") {
      const close = text.indexOf(char, at + 1);
      if (close < 0) throw new QueryError(`the phrase at column ${column} has no closing ${char}`);
      const phrase = text
        .slice(at + 1, close)
        .trim()
        .replace(/\s+/g, " ");
      if (phrase === "") throw new QueryError(`empty phrase at column ${column}`);
      if (phraseLemmas(phrase).length === 0)
        throw new QueryError(`the phrase ${char}${phrase}${char} at column ${column} has no words`);
      tokens.push({ kind: "phrase", text: phrase, column });
      at = close + 1;
    } else if (char === "[") {
      const close = text.indexOf("]", at + 1);
      if (close < 0) throw new QueryError(`the speaker at column ${column} has no closing ]`);
      const name = text.slice(at + 1, close).trim();
      if (name === "") throw new QueryError(`empty speaker name at column ${column}`);
      tokens.push({ kind: "speaker", name, column });
      at = close + 1;
    } else if (char === "]") {
      throw new QueryError(`unexpected ] at column ${column}`);
    } else {
      const word = /^[^\s"'()[\]]+/.exec(text.slice(at))?.[0] ?? char;
      tokens.push({ kind: "word", text: word, column });
      at += word.length;
    }
  }
  tokens.push({ kind: "end", column: text.length + 1 });
  return tokens;
}

/** Recursive descent over the grammar in the header, one method per rule. */
class Parser extends ConditionParser<Token> {
  protected readonly what = "query";

  parse(): Query {
    const query = this.or();
    const next = this.peek();
    if (next.kind === "end") return query;
    if (next.kind === "close") throw new QueryError(`unexpected ) at column ${next.column}: no ( to close`);
    if (next.kind === "word" && !KEYWORDS.has(next.text.toUpperCase())) throw unknownOperator(next);
    throw new QueryError(`expected AND or OR before ${describe(next)} at column ${next.column}`);
  }

  protected operand(): Query {
    const token = this.next();
    switch (token.kind) {
      case "phrase":
        return { kind: "phrase", text: token.text };
      case "speaker":
        return { kind: "speaker", speakerName: token.name, operand: this.unary() };
      case "open": {
        if (this.peek().kind === "close") throw new QueryError(`empty parentheses at column ${token.column}`);
        const query = this.or();
        const close = this.next();
        if (close.kind === "close") return query;
        if (close.kind === "end") throw new QueryError(`missing ) to close the ( at column ${token.column}`);
        if (close.kind === "word" && !KEYWORDS.has(close.text.toUpperCase())) throw unknownOperator(close);
        throw new QueryError(`expected AND, OR or ) before ${describe(close)} at column ${close.column}`);
      }
      case "close":
        throw new QueryError(`expected ${EXPECTED_OPERAND} at column ${token.column}, found )`);
      case "end": {
        const previous = this.tokens[this.position - 1];
        const after = previous?.kind === "word" ? ` after ${previous.text.toUpperCase()}` : "";
        throw new QueryError(`the query ends${after} where ${EXPECTED_OPERAND} was expected`);
      }
      case "word": {
        const keyword = token.text.toUpperCase();
        if (keyword === "NOT") return { kind: "not", operand: this.unary() };
        if (keyword === "FIRST" || keyword === "LAST") {
          const ms = this.duration(keyword, token.column);
          return { kind: "window", from: keyword === "FIRST" ? "start" : "end", ms, operand: this.unary() };
        }
        if (keyword === "AND" || keyword === "OR")
          throw new QueryError(`expected ${EXPECTED_OPERAND} before ${keyword} at column ${token.column}`);
        throw unknownOperator(token);
      }
    }
  }

  private duration(keyword: string, column: number): number {
    const token = this.next();
    return windowMs(keyword, column, token.kind === "word" ? token.text : undefined);
  }

  /** Consumes the keyword if it comes next. */
}

function unknownOperator(token: { text: string; column: number }): QueryError {
  return new QueryError(
    `unknown operator "${token.text}" at column ${token.column}: use AND, OR, NOT, FIRST, LAST or [speaker], and put words to find in quotes`,
  );
}

function describe(token: Token): string {
  switch (token.kind) {
    case "phrase":
      return `the phrase "${token.text}"`;
    case "speaker":
      return `[${token.name}]`;
    case "open":
      return "(";
    case "close":
      return ")";
    case "word":
      return token.text.toUpperCase();
    case "end":
      return "the end";
  }
}
