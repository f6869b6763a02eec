/**
 * Scoring punctuation against a reference: both texts become words, each with the mark (`.`, `,`, `?`)
 * that follows it, the words are aligned by edit distance, and the marks are compared at aligned words.
 * A mark after a word the other side lacks moves to the last aligned word before it, so a misheard word
 * does not lose the full stop after it.
 */

export const MARKS = [".", ",", "?"] as const;
export type Mark = (typeof MARKS)[number];

export interface MarkedWord {
  word: string;
  mark?: Mark;
}

/** Counts per mark: found where the reference has it, found where it has not, missed. */
export type Counts = Record<Mark, { hit: number; falseAlarm: number; missed: number }>;

export function emptyCounts(): Counts {
  return {
    ".": { hit: 0, falseAlarm: 0, missed: 0 },
    ",": { hit: 0, falseAlarm: 0, missed: 0 },
    "?": { hit: 0, falseAlarm: 0, missed: 0 },
  };
}

/** "Hi, I am here." → hi(,) i am here(.); "!" counts as ".". */
export function markedWords(text: string): MarkedWord[] {
  const words: MarkedWord[] = [];
  for (const token of text.toLowerCase().split(/\s+/)) {
    const word = token.replace(/[^a-z0-9']/g, "");
    const last = token.match(/[.,?!]+$/)?.[0].slice(-1);
    const mark = last === "!" ? "." : (last as Mark | undefined);
    if (word !== "") words.push(mark === undefined ? { word } : { word, mark });
    else if (mark !== undefined && words.length > 0)
      words[words.length - 1] = { ...words[words.length - 1]!, mark };
  }
  return words;
}

/** Adds the comparison of `hypothesis` with `reference` to `counts`. */
export function score(reference: MarkedWord[], hypothesis: MarkedWord[], counts: Counts): void {
  const n = reference.length;
  const m = hypothesis.length;
  const cost: number[][] = Array.from({ length: n + 1 }, (_, i) =>
    Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const same = reference[i - 1]!.word === hypothesis[j - 1]!.word ? 0 : 1;
      cost[i]![j] = Math.min(cost[i - 1]![j - 1]! + same, cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  }
  // Back-trace from the end; pairs come out last first.
  const pairs: { ref?: Mark; hyp?: Mark }[] = [];
  let pendingRef: Mark | undefined;
  let pendingHyp: Mark | undefined;
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const diagonal =
      i > 0 && j > 0
        ? cost[i - 1]![j - 1]! + (reference[i - 1]!.word === hypothesis[j - 1]!.word ? 0 : 1)
        : Infinity;
    if (i > 0 && j > 0 && cost[i]![j] === diagonal) {
      pairs.push({ ref: reference[i - 1]!.mark ?? pendingRef, hyp: hypothesis[j - 1]!.mark ?? pendingHyp });
      pendingRef = pendingHyp = undefined;
      i--;
      j--;
    } else if (i > 0 && cost[i]![j] === cost[i - 1]![j]! + 1) {
      pendingRef = reference[i - 1]!.mark ?? pendingRef;
      i--;
    } else {
      pendingHyp = hypothesis[j - 1]!.mark ?? pendingHyp;
      j--;
    }
  }
  for (const { ref, hyp } of pairs) {
    if (ref !== undefined && ref === hyp) counts[ref].hit += 1;
    else {
      if (ref !== undefined) counts[ref].missed += 1;
      if (hyp !== undefined) counts[hyp].falseAlarm += 1;
    }
  }
}

export function prf(count: Counts[Mark]): { precision: number; recall: number; f1: number } {
  const precision = count.hit / Math.max(1, count.hit + count.falseAlarm);
  const recall = count.hit / Math.max(1, count.hit + count.missed);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}
