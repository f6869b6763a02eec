/**
 * `GET /v3/media`: search and page through the account's media, as VoiceBase's `mediaQuery` and its
 * search guide describe it. What each parameter means is in domain/media-search.ts; the SQL in
 * store/media-search.ts.
 */
import { Type } from "typebox";
import { mediaSummary } from "../documents/media-document.ts";
import { ApiError } from "../domain/errors.ts";
import {
  type Cursors,
  DATE_FORMATS,
  type MediaSearch,
  neighbourPages,
  parseDateBound,
  parseExtendedFilter,
  parseTextQuery,
  type SortOrder,
} from "../domain/media-search.ts";
import type { Services } from "../services.ts";
import { mediaExists, searchMedia } from "../store/media-search.ts";
import { getSearchableFields } from "../store/searchable-fields.ts";
import type { HarkApp } from "./hark-app.ts";
import { accountRefusals, response, UuidParameter } from "./schemas/common.ts";
import { MediaList } from "./schemas/media.ts";

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;
const MAX_EXTENDED_FILTERS = 20;

const cursor = (side: "after" | "before") =>
  UuidParameter(
    `Only media created ${side} this item (an item of this account; by dateCreated, then mediaId), the ${MAX_LIST_LIMIT} at most nearest it: the next page is \`${side}\` the last item of this one${side === "after" ? " in ascending order" : " in descending order"}. An id that is not one of the account's items is refused.`,
    "the mediaId of an item of this account, given once",
  );

const SearchQuery = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        "x-allowed": "text of 1 to 1000 characters, given once",
        description:
          "Full text, over each item's transcript, title, description and searchable extended fields (PUT /v3/definition/media/search): words (all must occur), \"a phrase\", `-word` (must not), `or`. Prefix `title:`, `description:`, `transcript:` or a searchable field's name (`extended.customerId:`) to search that field only. Words are compared lower-cased, not stemmed. Encrypted items never match.",
      }),
    ),
    externalId: Type.Optional(
      Type.String({
        "x-allowed": "a string, given once",
        description: "Only media whose `metadata.externalId` is this.",
      }),
    ),
    before: Type.Optional(cursor("before")),
    after: Type.Optional(cursor("after")),
    extendedFilter: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: MAX_EXTENDED_FILTERS,
        "x-allowed": `Name;Value (or Name:Value), at most ${MAX_EXTENDED_FILTERS} times`,
        description:
          "Only media whose `metadata.extended` has `Name` equal to `Value`; a dotted name is nested (`call.phone;+1-307`). The value matches a string exactly, or the number or boolean it spells. Repeat it to ask for all of several. Any field may be filtered on, searchable or not. Encrypted items never match.",
      }),
    ),
    onOrAfterDate: Type.Optional(
      Type.String({
        "x-allowed": `${DATE_FORMATS}, given once`,
        description: `Only media created on or after this: ${DATE_FORMATS}.`,
      }),
    ),
    onOrBeforeDate: Type.Optional(
      Type.String({
        "x-allowed": `${DATE_FORMATS}, given once`,
        description: `Only media created on or before this: ${DATE_FORMATS} (a date includes that whole day).`,
      }),
    ),
    sortOrder: Type.Optional(
      Type.Union([Type.Literal("asc"), Type.Literal("desc")], {
        "x-allowed": "asc or desc, given once",
        description: "`desc` (the default): newest first; `asc`: oldest first. By dateCreated, then mediaId.",
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_LIST_LIMIT,
        default: DEFAULT_LIST_LIMIT,
        "x-allowed": `a whole number from 1 to ${MAX_LIST_LIMIT}, given once`,
        description:
          "How many items a page holds at most. A page whose items' metadata passes the server's budget (HARK_LIST_PAGE_METADATA_BYTES, 4 MiB by default) ends sooner; follow `_links.next` for the rest, as from any page.",
      }),
    ),
  },
  { additionalProperties: false },
);

type Query = Record<string, string | number | readonly string[] | undefined>;

export function registerMediaSearchRoute(app: HarkApp, services: Services): void {
  const { db, settings } = services;

  /** This listing's URL with the same parameters, and the page's cursors instead of the request's. */
  const pageUrl = (query: Query, cursors: Cursors) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries({
      ...query,
      after: undefined,
      before: undefined,
      ...cursors,
    })) {
      for (const one of value === undefined ? [] : Array.isArray(value) ? value : [value]) {
        params.append(name, String(one));
      }
    }
    return { href: `${settings.publicUrl}/v3/media${params.size > 0 ? `?${params}` : ""}` };
  };

  app.get(
    "/v3/media",
    {
      schema: {
        operationId: "mediaQuery",
        tags: ["Media"],
        summary: "Search and list media, a page at a time",
        description:
          "Each item's envelope and metadata, no results (an encrypted item's metadata is left out). Every filter given must hold. A parameter not listed is refused, as is one other than `extendedFilter` given twice.",
        querystring: SearchQuery,
        response: {
          200: response(MediaList, "A page of the media found."),
          ...accountRefusals("invalidRequest"),
        },
      },
    },
    async (request) => {
      const { accountId } = request.account;
      const query = request.query;
      const sortOrder: SortOrder = query.sortOrder ?? "desc";
      const search: MediaSearch = {
        limit: query.limit ?? DEFAULT_LIST_LIMIT,
        pageMetadataBytes: settings.listPageMetadataBytes,
        sortOrder,
        extended: (query.extendedFilter ?? []).map(parseExtendedFilter),
        ...(query.externalId !== undefined && { externalId: query.externalId }),
        ...(query.onOrAfterDate !== undefined && {
          createdFrom: parseDateBound("onOrAfterDate", query.onOrAfterDate, "from"),
        }),
        ...(query.onOrBeforeDate !== undefined && {
          createdUntil: parseDateBound("onOrBeforeDate", query.onOrBeforeDate, "until"),
        }),
        ...(query.after !== undefined && { after: query.after.toLowerCase() }),
        ...(query.before !== undefined && { before: query.before.toLowerCase() }),
      };
      if (query.query !== undefined) {
        search.text = parseTextQuery(query.query, await getSearchableFields(db, accountId));
      }
      // A cursor that is no item of the account is refused rather than answered with an empty page: an
      // empty page tells a pager it has reached the end, when its cursor was mistyped, another account's,
      // or an item deleted (or expired) since. VoiceBase documents neither answer.
      for (const side of ["after", "before"] as const) {
        const mediaId = search[side];
        if (mediaId !== undefined && !(await mediaExists(db, accountId, mediaId))) {
          throw new ApiError(
            "invalidRequest",
            `${side} names no media item of this account (${mediaId}); page from a mediaId a listing gave you, or start again without ${side} if that item has been deleted or has expired`,
          );
        }
      }

      const { media, more } = await searchMedia(db, accountId, search);
      const { next, previous } = neighbourPages(search, {
        first: media[0]?.mediaId,
        last: media.at(-1)?.mediaId,
        more,
      });
      return {
        _links: {
          self: pageUrl(query, { after: search.after, before: search.before }),
          ...(next && { next: pageUrl(query, next) }),
          ...(previous && { previous: pageUrl(query, previous) }),
        },
        media: media.map((item) => mediaSummary(item, settings.publicUrl)),
        pagination: {
          limit: search.limit,
          sortOrder: [
            { field: "dateCreated", direction: sortOrder },
            { field: "mediaId", direction: sortOrder },
          ],
        },
      };
    },
  );
}
