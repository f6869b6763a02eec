/**
 * Finds a property given twice in one JSON object. `JSON.parse` keeps the last silently, so
 * `{"priority": "low", ..., "priority": "high"}` would be read as one of two intents; VoiceBase refuses
 * it (10010, 10110), and so does Hark. Pure.
 *
 * Runs on text `JSON.parse` has already accepted, so it only has to follow structure, not judge it. It
 * walks the text once with an explicit stack: no recursion, so nesting depth costs memory, not the call
 * stack.
 */

interface ObjectFrame {
  kind: "object";
  path: string;
  keys: Set<string>;
  /** The key of the value being read, or undefined while a key is expected. */
  key: string | undefined;
}
interface ArrayFrame {
  kind: "array";
  path: string;
  index: number;
}

/** The path of the first property given twice (`publish.callbacks[0].url`), if any. */
export function duplicateProperty(text: string): string | undefined {
  const stack: (ObjectFrame | ArrayFrame)[] = [];
  const childPath = (): string => {
    const parent = stack.at(-1);
    if (parent === undefined) return "";
    if (parent.kind === "array") return `${parent.path}[${parent.index}]`;
    return parent.path === "" ? (parent.key ?? "") : `${parent.path}.${parent.key ?? ""}`;
  };
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === "{") {
      stack.push({ kind: "object", path: childPath(), keys: new Set(), key: undefined });
    } else if (char === "[") {
      stack.push({ kind: "array", path: childPath(), index: 0 });
    } else if (char === "}" || char === "]") {
      stack.pop();
    } else if (char === ",") {
      const top = stack.at(-1);
      if (top?.kind === "array") top.index++;
      else if (top) top.key = undefined;
    } else if (char === '"') {
      const start = at;
      for (at++; text[at] !== '"'; at++) if (text[at] === "\\") at++;
      const top = stack.at(-1);
      if (top?.kind === "object" && top.key === undefined) {
        // Compared unescaped: "a" and "\u0061" name the same property.
        const key = JSON.parse(text.slice(start, at + 1)) as string;
        if (top.keys.has(key)) return top.path === "" ? key : `${top.path}.${key}`;
        top.keys.add(key);
        top.key = key;
      }
    }
  }
  return undefined;
}
