/**
 * The tree a category query becomes, whichever language it was written in (Hark's own, or VoiceBase's
 * VBQL, see vbql.ts), and what both parsers share. categories.ts evaluates it, so that phrases, speakers,
 * windows and metadata match the same way however the query was written. Pure.
 */

/** Long enough for any real category, short enough that a query is read by people. */
export const MAX_QUERY_LENGTH = 4000;

/** Nesting of parentheses and prefixes; deeper is a mistake or an attack on the parser's stack. */
export const MAX_QUERY_DEPTH = 32;

/** The longest time window: a day, longer than any call. */
export const MAX_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A value a metadata field is compared with. */
export type FieldValue = string | number | boolean;

export const COMPARISONS = ["=", "!=", "<", "<=", ">", ">="] as const;
export type Comparison = (typeof COMPARISONS)[number];

export type Query =
  | { kind: "phrase"; text: string }
  | { kind: "and"; operands: Query[] }
  | { kind: "or"; operands: Query[] }
  | { kind: "not"; operand: Query }
  | { kind: "speaker"; speakerName: string; operand: Query }
  | { kind: "window"; from: "start" | "end"; ms: number; operand: Query }
  /** A metadata field (`["extended", "queue"]`) compared with a value; VBQL's `WHERE`. */
  | { kind: "field"; path: string[]; comparison: Comparison; value: FieldValue };

/** What always holds: `SELECT * FROM media` with no condition, an AND of nothing. */
export const ALWAYS: Query = { kind: "and", operands: [] };

export type QueryParse = { ok: true; query: Query } | { ok: false; error: string };

/** A fault of the query text; the parsers turn it into `{ok: false, error}`. */
export class QueryError extends Error {}

const DURATION = /^(\d+(?:\.\d+)?)(s|m)$/i;

/** `30s` or `2m` in ms, for FIRST and LAST; `text` is what follows the keyword at `column`. */
export function windowMs(keyword: string, column: number, text: string | undefined): number {
  const match = text === undefined ? null : DURATION.exec(text);
  const amount = Number(match?.[1]);
  if (match === null || !(amount > 0))
    throw new QueryError(`${keyword} at column ${column} needs a duration such as 30s or 2m`);
  const ms = amount * (match[2]?.toLowerCase() === "m" ? 60_000 : 1000);
  if (ms > MAX_WINDOW_MS) throw new QueryError(`the ${keyword} window is longer than a day`);
  return ms;
}

/**
 * Whether a metadata value satisfies a comparison. As in SQL, a field that is absent (or an object, or
 * null) satisfies no comparison, `!=` included: `NOT extended.queue = 'billing'` is what holds for it.
 * A number compares with a number or with text that is one ("42"); text with text, by code point (ISO
 * dates order correctly); `true`/`false` only with `=` and `!=`.
 */
export function compareField(actual: unknown, comparison: Comparison, expected: FieldValue): boolean {
  let left: string | number | boolean;
  if (typeof expected === "number") {
    const number = typeof actual === "string" && actual.trim() !== "" ? Number(actual) : actual;
    if (typeof number !== "number" || Number.isNaN(number)) return false;
    left = number;
  } else if (typeof expected === "string") {
    if (typeof actual === "number" || typeof actual === "boolean") left = String(actual);
    else if (typeof actual === "string") left = actual;
    else return false;
  } else {
    if (typeof actual !== "boolean") return false;
    left = actual;
  }
  switch (comparison) {
    case "=":
      return left === expected;
    case "!=":
      return left !== expected;
    case "<":
      return left < expected;
    case "<=":
      return left <= expected;
    case ">":
      return left > expected;
    case ">=":
      return left >= expected;
  }
}

/** The value at `path` in `metadata` (`["extended", "call", "date"]`), or undefined. */
export function fieldOf(metadata: object | undefined, path: readonly string[]): unknown {
  let value: unknown = metadata;
  for (const key of path) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** What the shared parser reads of either language's tokens; a keyword is a `word` token's `text`. */
interface QueryToken {
  kind: string;
  column: number;
  text?: string;
}

/**
 * The boolean skeleton both query languages share, over their tokens: an OR of ANDs of operands, NOT and
 * the prefixes binding tightest, nesting bounded so that a hostile query cannot exhaust the stack. A
 * language gives its operands.
 */
export abstract class ConditionParser<T extends QueryToken> {
  /** Each tokenizer ends its tokens with an `end` token, where reading stops. */
  protected readonly tokens: readonly T[];
  protected position = 0;
  private depth = 0;
  /** What faults call the text read: a category's "query", a VBQL "statement". */
  protected abstract readonly what: string;
  protected abstract operand(): Query;

  constructor(tokens: readonly T[]) {
    this.tokens = tokens;
  }

  protected peek(): T {
    return (
      this.tokens[this.position] ?? this.tokens[this.tokens.length - 1] ?? ({ kind: "end", column: 1 } as T)
    );
  }

  protected next(): T {
    const token = this.peek();
    if (token.kind !== "end") this.position += 1;
    return token;
  }

  /** Consumes the keyword (compared in upper case) if it comes next. */
  protected keyword(keyword: string): boolean {
    const token = this.peek();
    if (token.kind !== "word" || token.text?.toUpperCase() !== keyword) return false;
    this.position += 1;
    return true;
  }

  protected or(): Query {
    const operands = [this.and()];
    while (this.keyword("OR")) operands.push(this.and());
    return operands.length === 1 && operands[0] !== undefined ? operands[0] : { kind: "or", operands };
  }

  protected and(): Query {
    const operands = [this.unary()];
    while (this.keyword("AND")) operands.push(this.unary());
    return operands.length === 1 && operands[0] !== undefined ? operands[0] : { kind: "and", operands };
  }

  protected unary(): Query {
    this.depth += 1;
    if (this.depth > MAX_QUERY_DEPTH)
      throw new QueryError(`the ${this.what} nests more than ${MAX_QUERY_DEPTH} levels deep`);
    const query = this.operand();
    this.depth -= 1;
    return query;
  }
}
