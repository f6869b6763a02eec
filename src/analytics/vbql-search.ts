/**
 * A VBQL statement run over one media item (`POST /v3/analytics/vbql`): whether it matches, the row its
 * columns ask for, and its hits, in VoiceBase's `VbRow` and `VbMatchResultList` shapes. The route pages
 * through the account's items and calls this for each. Pure.
 */
import type { Metadata } from "../domain/media.ts";
import type { Word } from "../domain/transcript.ts";
import { queryMatcher } from "./categories.ts";
import { fieldOf } from "./query.ts";
import type { VbqlStatement } from "./vbql.ts";

/** Rows a search answers when the statement has no LIMIT. */
export const DEFAULT_VBQL_LIMIT = 100;
/** The most a LIMIT may ask for, as VoiceBase's media search caps a page. */
export const MAX_VBQL_LIMIT = 1000;

/** What a search reads of a media item. */
export interface SearchedItem {
  mediaId: string;
  dateCreated: Date;
  lengthMs: number | undefined;
  metadata: Metadata | undefined;
  words: Word[];
}

/** One `VbMatchResult`: where a phrase of the statement was said. */
export interface VbqlHit {
  /** The statement's phrase that was found. */
  conditions: string[];
  fieldValues: { speakerName: string; s: number; e: number; exact: string };
}

export interface VbqlMatch {
  row: Record<string, unknown>;
  hits: VbqlHit[];
}

/** The item's row and hits when the statement's condition holds of it; undefined when it does not. */
export function matchVbql(statement: VbqlStatement, item: SearchedItem): VbqlMatch | undefined {
  const outcome = queryMatcher({ words: item.words }, item.lengthMs, item.metadata)(statement.condition);
  if (!outcome.holds) return undefined;
  // A phrase named twice in the statement is found twice: each place is one hit.
  const seen = new Set<string>();
  const hits = [...outcome.matches]
    .sort((a, b) => a.s - b.s || a.e - b.e)
    .filter((match) => {
      const key = `${match.phrase}\u0000${match.speakerName}\u0000${match.s}\u0000${match.e}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((match) => ({
      conditions: [match.phrase],
      fieldValues: { speakerName: match.speakerName, s: match.s, e: match.e, exact: match.exact },
    }));
  return { row: rowOf(statement, item, hits.length), hits };
}

function rowOf(statement: VbqlStatement, item: SearchedItem, hits: number): Record<string, unknown> {
  if (statement.columns === "all") {
    return {
      mediaId: item.mediaId,
      dateCreated: item.dateCreated.toISOString(),
      ...(item.lengthMs !== undefined && { length: item.lengthMs }),
      ...item.metadata,
    };
  }
  const row: Record<string, unknown> = {};
  for (const column of statement.columns) {
    switch (column.kind) {
      case "mediaId":
        row.mediaId = item.mediaId;
        break;
      case "dateCreated":
        row.dateCreated = item.dateCreated.toISOString();
        break;
      case "length":
        row.length = item.lengthMs ?? null;
        break;
      case "hits":
        row.hits = hits;
        break;
      case "field":
        // Absent is null, as SQL shows a missing value: the row has every column asked for.
        row[column.name] = fieldOf(item.metadata, column.path) ?? null;
        break;
    }
  }
  return row;
}
