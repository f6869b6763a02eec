/**
 * Searching an account's media (`GET /v3/media`, VoiceBase's `mediaQuery` and its search guide): what the
 * query parameters mean, parsed into a `MediaSearch` the store runs, and which way a page is read. Pure.
 *
 * - A page is cursor-based, as VoiceBase's: `after=<mediaId>` lists items created after that item,
 *   `before=<mediaId>` items created before it, in a stable order (dateCreated, then mediaId). The page is
 *   the `limit` items nearest its cursor, shown in `sortOrder`; so `after` the last item of an ascending
 *   page is the next one, and `before` its first item the page before, whatever the order shown.
 * - `query` is full text (words, "a phrase", `-word`, `or`, as web search engines read them) over the
 *   transcript, the title, the description and the account's searchable extended fields; `title:`,
 *   `description:`, `transcript:` or a searchable field's name and a colon first keeps it to that field.
 */
import { ApiError } from "./errors.ts";

export type SortOrder = "asc" | "desc";

/** Where a text query looks: every field, one of the fixed ones, or one searchable extended field. */
export type TextField = "all" | "title" | "description" | "transcript" | { extended: string[] };

export interface TextQuery {
  words: string;
  field: TextField;
  /** It excludes words (`-word`): then matching all fields says nothing about matching one. */
  negated: boolean;
}

/** `extendedFilter`: `metadata.extended` at `path` equals `value` (as text, a number or a boolean). */
export interface ExtendedFilter {
  path: string[];
  value: string;
}

/** A bound on `dateCreated`; a date alone (no time) bounds whole days, in UTC. */
export interface DateBound {
  at: Date;
  inclusive: boolean;
}

export interface MediaSearch {
  limit: number;
  /** The metadata bytes a page holds at most (`pageLength`): what bounds a page's memory, not `limit`. */
  pageMetadataBytes: number;
  sortOrder: SortOrder;
  externalId?: string;
  text?: TextQuery;
  extended: ExtendedFilter[];
  createdFrom?: DateBound;
  createdUntil?: DateBound;
  after?: string;
  before?: string;
}

const FIXED_FIELDS: Readonly<Record<string, TextField>> = {
  title: "title",
  description: "description",
  transcript: "transcript",
};

/**
 * `query`: the words and the field they are kept to. A prefix that names no field (`note: refund`) is
 * part of the words: a colon is only punctuation to the search.
 */
export function parseTextQuery(query: string, searchableFields: readonly string[]): TextQuery {
  const prefixed = /^\s*([A-Za-z][\w.-]*):(.*)$/s.exec(query);
  let field: TextField = "all";
  let words = query;
  if (prefixed) {
    const [, name = "", rest = ""] = prefixed;
    const fixed = Object.hasOwn(FIXED_FIELDS, name) ? FIXED_FIELDS[name] : undefined;
    if (fixed !== undefined) {
      field = fixed;
      words = rest;
    } else if (name.startsWith("extended.")) {
      if (!searchableFields.includes(name)) {
        throw new ApiError(
          "invalidRequest",
          `query names ${name}, which is not a searchable field of this account (${searchableFields.length === 0 ? "it has none" : searchableFields.join(", ")}); add it with PUT /v3/definition/media/search`,
        );
      }
      field = { extended: name.split(".").slice(1) };
      words = rest;
    }
  }
  if (!/[\p{L}\p{N}]/u.test(words)) {
    throw new ApiError(
      "invalidRequest",
      `query has no word to search for; got ${JSON.stringify(query)}: give words, "a phrase", or field:words (title, description, transcript, or a searchable extended field)`,
    );
  }
  return { words: words.trim(), field, negated: /(^|\s)-\S/.test(words) };
}

/**
 * `Name;Value`, as VoiceBase's Swagger writes it, or `Name:Value`, as its guides do: split at the first
 * `;`, else at the first `:`. A dotted name is a path into nested objects (`call.phone`).
 */
export function parseExtendedFilter(filter: string): ExtendedFilter {
  const at = filter.includes(";") ? filter.indexOf(";") : filter.indexOf(":");
  const name = at < 0 ? "" : filter.slice(0, at);
  const path = name.split(".");
  if (at < 0 || path.some((segment) => segment === "")) {
    throw new ApiError(
      "invalidRequest",
      `extendedFilter must be Name;Value (or Name:Value), Name a field of metadata.extended, dotted for nested ones (call.phone); got ${JSON.stringify(filter)}`,
    );
  }
  return { path, value: filter.slice(at + 1) };
}

/** The values of `metadata.extended` a filter's text matches: the text, and the number or boolean it spells. */
export function filterValues(value: string): unknown[] {
  const values: unknown[] = [value];
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value)) values.push(Number(value));
  if (value === "true" || value === "false") values.push(value === "true");
  return values;
}

/** The metadata object that contains `path: value` under `extended` (for PostgreSQL's `@>`). */
export function containing(path: readonly string[], value: unknown): Record<string, unknown> {
  return { extended: path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) };
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})$/;
export const DATE_FORMATS =
  "a date YYYY-MM-DD (a whole day, UTC) or a date-time YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset ±hh:mm";

/**
 * `onOrAfterDate` / `onOrBeforeDate`. A date alone is a whole UTC day: on or after it is from its
 * midnight, on or before it is until the next midnight. A date-time needs its zone: without one, which
 * instant it names depends on where the client is.
 */
export function parseDateBound(parameter: string, text: string, side: "from" | "until"): DateBound {
  const fault = (why: string) =>
    new ApiError("invalidRequest", `${parameter} must be ${DATE_FORMATS}; got ${JSON.stringify(text)}${why}`);
  const date = DATE.exec(text);
  if (date) {
    const day = utcDay(Number(date[1]), Number(date[2]), Number(date[3]));
    if (day === undefined) throw fault(" (no such day)");
    return side === "from"
      ? { at: day, inclusive: true }
      : { at: new Date(day.getTime() + 86_400_000), inclusive: false };
  }
  const time = DATE_TIME.exec(text);
  if (!time) throw fault("");
  const [, year, month, dayOfMonth, hour, minute, second = "00", fraction = "", zone = "Z"] = time;
  if (utcDay(Number(year), Number(month), Number(dayOfMonth)) === undefined) throw fault(" (no such day)");
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) throw fault(" (no such time)");
  if (zone !== "Z" && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) {
    throw fault(" (no such offset)");
  }
  const millis = fraction.padEnd(3, "0").slice(0, 3);
  const at = new Date(`${year}-${month}-${dayOfMonth}T${hour}:${minute}:${second}.${millis}${zone}`);
  return { at, inclusive: true };
}

function utcDay(year: number, month: number, day: number): Date | undefined {
  const date = new Date(Date.UTC(year, month - 1, day));
  const real =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return real ? date : undefined;
}

/**
 * Which way the store reads for a page: from its cursor outwards (nearest first), so that the page
 * borders its cursor; with no cursor, or both, from the start of the order shown. `reversed`: the rows
 * come in the other order than the page shows them.
 */
export function readingOrder(search: Pick<MediaSearch, "sortOrder" | "after" | "before">): {
  read: SortOrder;
  reversed: boolean;
} {
  const read: SortOrder =
    search.after !== undefined && search.before === undefined
      ? "asc"
      : search.before !== undefined && search.after === undefined
        ? "desc"
        : search.sortOrder;
  return { read, reversed: read !== search.sortOrder };
}

/**
 * How many of the rows read from the cursor a page keeps, given the size of each row's metadata in
 * reading order: at most `limit`, and no more than `budget` bytes of metadata in all, so that a page of
 * items with large metadata costs bounded memory however high `limit` is. The first row is always kept,
 * however large, so that following `next` always moves on; a page cut short has `next` like a full one.
 */
export function pageLength(metadataBytes: readonly number[], limit: number, budget: number): number {
  const rows = Math.min(metadataBytes.length, limit);
  let total = 0;
  for (let i = 0; i < rows; i++) {
    total += metadataBytes[i] ?? 0;
    if (i > 0 && total > budget) return i;
  }
  return rows;
}

export interface Cursors {
  after?: string;
  before?: string;
}

/**
 * The cursors of the pages beside one, in the order it is shown; undefined where there is certainly none.
 * `more`: the store found items beyond the page on the side it read towards. The next page keeps a
 * window's far bound (both cursors given); the previous one leaves it, so as to border this page.
 */
export function neighbourPages(
  search: Pick<MediaSearch, "sortOrder" | "after" | "before">,
  page: { first: string | undefined; last: string | undefined; more: boolean },
): { next?: Cursors; previous?: Cursors } {
  const { first, last, more } = page;
  if (first === undefined || last === undefined) return {};
  const { reversed } = readingOrder(search);
  const window = search.after !== undefined && search.before !== undefined;
  // Read from a cursor in the order shown, the cursor's side is behind the page: at least the cursor's
  // item lies there. Read the other way, the cursor's side is ahead of it.
  const nextMayExist = reversed || more;
  const previousMayExist = reversed ? more : search.after !== undefined || search.before !== undefined;
  const asc = search.sortOrder === "asc";
  const next: Cursors = asc
    ? { after: last, ...(window && { before: search.before }) }
    : { before: last, ...(window && { after: search.after }) };
  const previous: Cursors = asc ? { before: first } : { after: first };
  return { ...(nextMayExist && { next }), ...(previousMayExist && { previous }) };
}
