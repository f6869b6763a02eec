/**
 * VBQL, VoiceBase's query language, as far as its public documents show it: the categories guide
 * (`SELECT * FROM media MATCH 'hello'`) and VoiceBase's published VBQL tutorials (`SELECT mediaId, HITS()
 * FROM media WHERE "agent" SAYS "thank you"`, `WHERE * SAYS "error"`). Read into the query tree of
 * query.ts, so a VBQL category matches exactly as one in Hark's language does. Pure.
 *
 *     statement  = "SELECT" , columns , "FROM" , "media" , [ "MATCH" , condition ] , [ "WHERE" , condition ] ,
 *                  [ "LIMIT" , integer , [ "OFFSET" , integer ] ] , [ ";" ] ;
 *     columns    = "*" | column , { "," , column } ;
 *     column     = "mediaId" | "dateCreated" | "length" | "HITS" , "(" , ")" | field ;
 *     condition  = and , { "OR" , and } ;
 *     and        = unary , { "AND" , unary } ;
 *     unary      = "NOT" , unary | "(" , condition , ")"
 *                | ( "*" | string ) , "SAYS" , unary         (* who said it; * is anyone *)
 *                | "[" , name , "]" , unary                  (* Hark's speaker prefix *)
 *                | ( "FIRST" | "LAST" ) , duration , unary   (* Hark's time windows: FIRST 30s, LAST 2m *)
 *                | string                                    (* a phrase that was said *)
 *                | field , ( "=" | "!=" | "<>" | "<" | "<=" | ">" | ">=" ) , literal ;
 *     field      = ( "title" | "description" | "externalId" | "extended" ) , { "." , name } ;
 *     literal    = string | number | "TRUE" | "FALSE" ;
 *
 * Keywords in any case; strings in single or double quotes (typographic quotes too, as the tutorials
 * print them). MATCH and WHERE take the same conditions, and both must hold. The speaker of SAYS is a
 * `speakerName` of the upload's configuration, compared ignoring case. VBQL's time windows, proximity,
 * wildcards and aggregates are not public: Hark refuses them, naming the clause, rather than guess.
 */
import {
  ALWAYS,
  type Comparison,
  type FieldValue,
  ConditionParser,
  MAX_QUERY_LENGTH,
  type Query,
  QueryError,
  type QueryParse,
  windowMs,
} from "./query.ts";
import { phraseLemmas } from "./spotting.ts";
import { describe, type Token, tokenize } from "./vbql-tokens.ts";

/** What a statement asks to see of each media item that matches. */
export type VbqlColumn =
  | { kind: "mediaId" | "dateCreated" | "length" | "hits"; name: string }
  | { kind: "field"; name: string; path: string[] };

export interface VbqlStatement {
  /** `all` for `*`. */
  columns: "all" | VbqlColumn[];
  /** MATCH and WHERE together; `ALWAYS` when there is neither. */
  condition: Query;
  limit?: number;
  offset?: number;
}

export type VbqlParse = { ok: true; statement: VbqlStatement } | { ok: false; error: string };

/** A query is VBQL when it starts with SELECT; any other is Hark's language. */
export function startsVbql(text: string): boolean {
  return /^\s*select\b/i.test(text);
}

/** The statement, or an error naming the clause and the column (from 1) where it is. */
export function parseVbql(text: string): VbqlParse {
  if (text.length > MAX_QUERY_LENGTH)
    return { ok: false, error: `the statement is longer than ${MAX_QUERY_LENGTH} characters` };
  try {
    return { ok: true, statement: new Parser(tokenize(text)).statement() };
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, error: `VBQL: ${error.message}` };
    throw error;
  }
}

/** A category's VBQL query: its condition. LIMIT and OFFSET choose search results, not a category's value. */
export function parseVbqlCondition(text: string): QueryParse {
  const parsed = parseVbql(text);
  if (!parsed.ok) return parsed;
  const { limit, offset, condition } = parsed.statement;
  if (limit !== undefined || offset !== undefined)
    return { ok: false, error: "VBQL: a category's statement takes no LIMIT or OFFSET; remove them" };
  return { ok: true, query: condition };
}

const METADATA_FIELDS = ["title", "description", "externalId", "extended"];
const COLUMNS: Record<string, "mediaId" | "dateCreated" | "length"> = {
  mediaid: "mediaId",
  datecreated: "dateCreated",
  length: "length",
};
/** Clauses VBQL or SQL has that Hark does not read, named in the refusal. */
const UNSUPPORTED = new Set([
  "GROUP",
  "ORDER",
  "HAVING",
  "JOIN",
  "UNION",
  "NEAR",
  "ADJACENT",
  "BEFORE",
  "AFTER",
  "WITHIN",
  "SLOP",
  "LIKE",
  "IN",
  "BETWEEN",
  "IS",
  "EXISTS",
  "DISTINCT",
]);
/** Keywords that cannot start an operand: they are a mistake there, not a field's name. */
const RESERVED = new Set(["AND", "OR", "SELECT", "FROM", "MATCH", "WHERE", "LIMIT", "OFFSET"]);
const SHAPE = "SELECT … FROM media [MATCH …] [WHERE …] [LIMIT n [OFFSET n]]";
const OPERAND =
  "a quoted phrase, * SAYS or \"speaker\" SAYS, a metadata comparison such as extended.queue = 'billing', NOT or (";

/** Recursive descent over the grammar in the header, one method per rule. */
class Parser extends ConditionParser<Token> {
  protected readonly what = "statement";

  statement(): VbqlStatement {
    this.expectKeyword("SELECT");
    const columns = this.columns();
    this.expectKeyword("FROM");
    const source = this.next();
    if (source.kind !== "word" || source.text.toLowerCase() !== "media")
      throw new QueryError(`FROM ${describe(source)} at column ${source.column}: Hark has one table, media`);
    const conditions: Query[] = [];
    if (this.keyword("MATCH")) conditions.push(this.or());
    if (this.keyword("WHERE")) conditions.push(this.or());
    const statement: VbqlStatement = {
      columns,
      condition:
        conditions[0] === undefined
          ? ALWAYS
          : conditions[1] === undefined
            ? conditions[0]
            : { kind: "and", operands: conditions },
    };
    if (this.keyword("LIMIT")) statement.limit = this.count("LIMIT");
    if (this.keyword("OFFSET")) statement.offset = this.count("OFFSET");
    this.symbol(";");
    const next = this.peek();
    if (next.kind !== "end") throw this.unexpected(next, `the end of the statement (${SHAPE})`);
    return statement;
  }

  private columns(): VbqlStatement["columns"] {
    if (this.symbol("*")) return "all";
    const columns: VbqlColumn[] = [];
    do {
      const token = this.next();
      if (token.kind !== "word") throw this.unexpected(token, "a column (*, mediaId, HITS() or a field)");
      const name = token.text;
      const known = COLUMNS[name.toLowerCase()];
      if (this.symbol("(")) {
        if (name.toUpperCase() !== "HITS")
          throw new QueryError(
            `the function ${name}() at column ${token.column} is not supported; HITS() is`,
          );
        const close = this.next();
        if (close.kind !== "symbol" || close.text !== ")") throw this.unexpected(close, ") after HITS(");
        columns.push({ kind: "hits", name: "hits" });
      } else if (known !== undefined) {
        columns.push({ kind: known, name: known });
      } else {
        columns.push({ kind: "field", name, path: this.fieldPath(name, token.column) });
      }
    } while (this.symbol(","));
    return columns;
  }

  protected operand(): Query {
    const token = this.next();
    if (token.kind === "symbol" && token.text === "(") {
      const query = this.or();
      const close = this.next();
      if (close.kind === "symbol" && close.text === ")") return query;
      throw this.unexpected(close, `AND, OR or ) to close the ( at column ${token.column}`);
    }
    if (token.kind === "symbol" && token.text === "*") {
      this.expectKeyword("SAYS");
      return this.unary();
    }
    if (token.kind === "speaker") return { kind: "speaker", speakerName: token.name, operand: this.unary() };
    if (token.kind === "string") {
      if (this.keyword("SAYS")) {
        if (token.text === "") throw new QueryError(`empty speaker name at column ${token.column}`);
        return { kind: "speaker", speakerName: token.text, operand: this.unary() };
      }
      return { kind: "phrase", text: phrase(token.text, token.column) };
    }
    if (token.kind !== "word") throw this.unexpected(token, OPERAND);
    const keyword = token.text.toUpperCase();
    if (keyword === "NOT") return { kind: "not", operand: this.unary() };
    if (keyword === "FIRST" || keyword === "LAST") {
      const duration = this.next();
      const ms = windowMs(keyword, token.column, duration.kind === "word" ? duration.text : undefined);
      return { kind: "window", from: keyword === "FIRST" ? "start" : "end", ms, operand: this.unary() };
    }
    if (keyword === "SAYS")
      throw new QueryError(`SAYS at column ${token.column} needs who says it first: * SAYS or "agent" SAYS`);
    if (UNSUPPORTED.has(keyword) || RESERVED.has(keyword)) throw this.unexpected(token, OPERAND);
    return this.comparison(token.text, token.column);
  }

  private comparison(name: string, column: number): Query {
    const path = this.fieldPath(name, column);
    const operator = this.next();
    if (operator.kind === "word" && UNSUPPORTED.has(operator.text.toUpperCase()))
      throw this.unexpected(operator, "");
    if (operator.kind !== "symbol" || !["=", "!=", "<>", "<", "<=", ">", ">="].includes(operator.text))
      throw this.unexpected(operator, `a comparison (=, !=, <>, <, <=, >, >=) after the field ${name}`);
    const comparison = (operator.text === "<>" ? "!=" : operator.text) as Comparison;
    const literal = this.next();
    let value: FieldValue;
    if (literal.kind === "string") value = literal.text;
    else if (literal.kind === "number") value = literal.value;
    else if (literal.kind === "word" && /^(true|false)$/i.test(literal.text))
      value = literal.text.toLowerCase() === "true";
    else
      throw this.unexpected(
        literal,
        `a quoted string, a number, TRUE or FALSE after ${name} ${operator.text}`,
      );
    if (typeof value === "boolean" && comparison !== "=" && comparison !== "!=")
      throw new QueryError(
        `${name} ${operator.text} ${String(value)}: TRUE and FALSE compare only with = and !=`,
      );
    return { kind: "field", path, comparison, value };
  }

  private fieldPath(name: string, column: number): string[] {
    const path = name.split(".");
    if (!METADATA_FIELDS.includes(path[0] ?? "") || (path[0] === "extended" && path.length === 1))
      throw new QueryError(
        `unknown field ${name} at column ${column}: Hark's metadata fields are title, description, externalId and extended.<name>`,
      );
    return path;
  }

  private count(keyword: string): number {
    const token = this.next();
    if (token.kind !== "number" || !Number.isSafeInteger(token.value) || token.value < 0)
      throw this.unexpected(token, `a whole number after ${keyword}`);
    return token.value;
  }

  private expectKeyword(keyword: string): void {
    if (!this.keyword(keyword)) throw this.unexpected(this.peek(), keyword);
  }

  /** Consumes the keyword if it comes next. */

  /** Consumes the symbol if it comes next. */
  private symbol(symbol: string): boolean {
    const token = this.peek();
    if (token.kind !== "symbol" || token.text !== symbol) return false;
    this.position += 1;
    return true;
  }

  private unexpected(token: Token, expected: string): QueryError {
    if (token.kind === "word") {
      const keyword = token.text.toUpperCase();
      if (UNSUPPORTED.has(keyword)) {
        const clause = keyword === "GROUP" || keyword === "ORDER" ? `${keyword} BY` : keyword;
        return new QueryError(
          `the ${clause} clause at column ${token.column} is not supported: Hark reads ${SHAPE}, with AND, OR, NOT, SAYS and metadata comparisons`,
        );
      }
    }
    if (token.kind === "end") return new QueryError(`the statement ends where ${expected} was expected`);
    return new QueryError(`expected ${expected} at column ${token.column}, found ${describe(token)}`);
  }
}

/** A phrase to find, checked as Hark's language checks one; VBQL's wildcards are not public. */
function phrase(text: string, column: number): string {
  if (text === "") throw new QueryError(`empty phrase at column ${column}`);
  if (/[*?]/.test(text))
    throw new QueryError(
      `the wildcard in '${text}' at column ${column} is not supported; spell the word out (phrases match every form of a word: 'cancel' finds "cancelled")`,
    );
  if (phraseLemmas(text).length === 0)
    throw new QueryError(`the phrase '${text}' at column ${column} has no words`);
  return text;
}
