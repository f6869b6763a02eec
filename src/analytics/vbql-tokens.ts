/**
 * The words of a VBQL statement (vbql.ts reads them): strings in single, double or typographic quotes,
 * names (`extended.call.date`), numbers, durations (`30s`), `[speaker]` and the symbols of comparisons and
 * lists, each with its column (from 1) for the messages. Pure.
 */
import { QueryError } from "./query.ts";

const SYMBOLS = ["!=", "<>", "<=", ">=", "=", "<", ">", "*", ",", "(", ")", ";"];
const QUOTES: Record<string, string> = { "'": "'", '"': '"', "\u201c": "\u201d", "\u2018": "\u2019" };

export type Token =
  | { kind: "string"; text: string; column: number }
  | { kind: "word"; text: string; column: number }
  | { kind: "number"; value: number; column: number }
  | { kind: "symbol"; text: string; column: number }
  | { kind: "speaker"; name: string; column: number }
  | { kind: "end"; column: number };

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const column = at + 1;
    const char = text.charAt(at);
    const close = QUOTES[char];
    if (/\s/.test(char)) {
      at += 1;
    } else if (close !== undefined) {
      const end = text.indexOf(close, at + 1);
      if (end < 0) throw new QueryError(`the string at column ${column} has no closing ${close}`);
      tokens.push({
        kind: "string",
        text: text
          .slice(at + 1, end)
          .trim()
          .replace(/\s+/g, " "),
        column,
      });
      at = end + 1;
    } else if (char === "[") {
      const end = text.indexOf("]", at + 1);
      if (end < 0) throw new QueryError(`the speaker at column ${column} has no closing ]`);
      const name = text.slice(at + 1, end).trim();
      if (name === "") throw new QueryError(`empty speaker name at column ${column}`);
      tokens.push({ kind: "speaker", name, column });
      at = end + 1;
    } else {
      const word = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest)?.[0];
      const number = /^-?\d+(?:\.\d+)?(?![A-Za-z0-9_.])/.exec(rest)?.[0];
      const duration = /^\d+(?:\.\d+)?[A-Za-z]+/.exec(rest)?.[0];
      const symbol = SYMBOLS.find((candidate) => rest.startsWith(candidate));
      if (word !== undefined) tokens.push({ kind: "word", text: word, column });
      else if (number !== undefined) tokens.push({ kind: "number", value: Number(number), column });
      else if (duration !== undefined) tokens.push({ kind: "word", text: duration, column });
      else if (symbol !== undefined) tokens.push({ kind: "symbol", text: symbol, column });
      else throw new QueryError(`unexpected character ${char} at column ${column}`);
      at += (word ?? number ?? duration ?? symbol ?? char).length;
    }
  }
  tokens.push({ kind: "end", column: text.length + 1 });
  return tokens;
}

/** A token as a message names it. */
export function describe(token: Token): string {
  switch (token.kind) {
    case "string":
      return `'${token.text}'`;
    case "word":
      return token.text;
    case "number":
      return String(token.value);
    case "symbol":
      return token.text;
    case "speaker":
      return `[${token.name}]`;
    case "end":
      return "the end";
  }
}
