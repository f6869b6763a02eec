/**
 * What JSON can carry and Hark cannot keep. JSON allows a NUL (`"\u0000"`) and a lone surrogate
 * (`"\ud800"`) in any string, and nesting without end; PostgreSQL's text and jsonb refuse the first two,
 * and code that walks a value recursively (validation, rendering, jsonb) pays for the third. So every
 * value a client sends (an upload's configuration and metadata, every JSON body, query and path) is
 * checked here once, right after parsing, and refused in the client's terms before anything is stored.
 * Pure.
 *
 * The walk keeps its own stack: a value nested deeper than the call stack allows is still judged.
 */

/** How deep arrays and objects may nest; a VoiceBase configuration needs 6, metadata's `extended` a few. */
export const MAX_JSON_DEPTH = 64;

/** The first unacceptable place in a value: a JSON pointer (as Ajv's `instancePath`) and what is wrong. */
export interface JsonValueFault {
  instancePath: string;
  message: string;
}

interface Pending {
  value: unknown;
  path: string;
  /** How many arrays and objects enclose `value`. */
  depth: number;
}

export function jsonValueFault(value: unknown): JsonValueFault | undefined {
  const pending: Pending[] = [{ value, path: "", depth: 0 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: current, path, depth } = next;
    if (typeof current === "string") {
      const fault = stringFault(current);
      if (fault) return { instancePath: path, message: fault };
      continue;
    }
    if (typeof current !== "object" || current === null) continue;
    if (depth >= MAX_JSON_DEPTH) {
      // Named by where it starts: the full path would be the 64 levels again.
      return {
        instancePath: path.split("/").slice(0, 3).join("/"),
        message: `holds arrays and objects nested more than ${MAX_JSON_DEPTH} deep; flatten it`,
      };
    }
    const entries = Array.isArray(current) ? current.entries() : Object.entries(current);
    for (const [key, child] of entries) {
      const childPath = `${path}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (typeof key === "string") {
        const fault = stringFault(key);
        if (fault) return { instancePath: path, message: `has a property name that ${fault}` };
      }
      pending.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return undefined;
}

/** Why a string cannot be kept, if it cannot. */
export function stringFault(text: string): string | undefined {
  if (text.includes("\u0000")) return "contains a NUL character (\\u0000); remove it";
  if (!text.isWellFormed()) {
    return "contains a lone surrogate (a \\ud800-\\udfff escape without its pair); send well-formed Unicode";
  }
  return undefined;
}
