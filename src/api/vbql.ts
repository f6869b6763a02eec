/**
 * `POST /v3/analytics/vbql` (VoiceBase's `searchWithVbql`): a VBQL statement run over the account's
 * finished media items, answered as VoiceBase's `VbStatementResult`. VoiceBase's swagger gives the body as
 * a string: a JSON string (`"SELECT …"`, what its generated clients send), or the statement itself as
 * `text/plain` (what a person with curl sends).
 *
 * Items are read a page at a time, newest first (store/searchable-media.ts), and only the rows the
 * statement's LIMIT and OFFSET keep are held: a search costs one page of transcripts in memory, however
 * many items the account has. Every item is read, to count `totalResults`.
 */
import { performance } from "node:perf_hooks";
import { parseVbql } from "../analytics/vbql.ts";
import { DEFAULT_VBQL_LIMIT, MAX_VBQL_LIMIT, matchVbql, type VbqlHit } from "../analytics/vbql-search.ts";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { type SearchCursor, searchableMediaPage } from "../store/searchable-media.ts";
import type { HarkApp } from "./hark-app.ts";
import { accountRefusals, JSON_BODY_ERRORS, response } from "./schemas/common.ts";
import { StatementResult, VbqlStatement } from "./schemas/search.ts";
import { faults } from "./validation.ts";

/** Items read from the store at a time: their transcripts are what a search holds in memory. */
const PAGE_SIZE = 50;

export function registerVbqlRoute(app: HarkApp, services: Services): void {
  const { db } = services;
  app.post(
    "/v3/analytics/vbql",
    {
      schema: {
        operationId: "searchWithVbql",
        tags: ["Search"],
        summary: "Search the finished media with a VBQL statement",
        description: `The statement as the body: a JSON string, or text/plain. Hark reads VBQL as far as it is public (docs/queries.md): \`SELECT * | mediaId, HITS(), dateCreated, length, <metadata field>, … FROM media [MATCH …] [WHERE …] [LIMIT n [OFFSET n]]\`. A statement Hark cannot read is refused (11203), naming the clause. LIMIT is ${DEFAULT_VBQL_LIMIT} when not given, at most ${MAX_VBQL_LIMIT}. Items encrypted to a client's key keep no transcript and are not searched.`,
        body: {
          content: {
            "application/json": { schema: VbqlStatement },
            "text/plain": { schema: VbqlStatement },
          },
        },
        response: {
          200: response(StatementResult, "The matching items and where their phrases were said."),
          ...accountRefusals("categoryQueryInvalid", ...JSON_BODY_ERRORS),
        },
      },
      schemaErrorFormatter: faults({ body: "categoryQueryInvalid" }),
    },
    async (request) => {
      const started = performance.now();
      // The schema has checked it is a string; content-type schemas leave it untyped.
      const body = typeof request.body === "string" ? request.body : "";
      const parsed = parseVbql(body);
      if (!parsed.ok)
        throw new ApiError("categoryQueryInvalid", `The statement cannot be run: ${parsed.error}`);
      const { statement } = parsed;
      const limit = statement.limit ?? DEFAULT_VBQL_LIMIT;
      const offset = statement.offset ?? 0;
      if (limit > MAX_VBQL_LIMIT)
        throw new ApiError(
          "categoryQueryInvalid",
          `The statement cannot be run: LIMIT ${limit} is more than ${MAX_VBQL_LIMIT}; page with LIMIT and OFFSET`,
        );

      const rows: Record<string, unknown>[] = [];
      const hits: VbqlHit[][] = [];
      let totalResults = 0;
      let after: SearchCursor | undefined;
      for (;;) {
        const page = await searchableMediaPage(db, request.account.accountId, after, PAGE_SIZE);
        for (const item of page) {
          const match = matchVbql(statement, item);
          if (match === undefined) continue;
          if (totalResults >= offset && rows.length < limit) {
            rows.push(match.row);
            hits.push(match.hits);
          }
          totalResults += 1;
        }
        const last = page.at(-1);
        if (last === undefined || page.length < PAGE_SIZE) break;
        after = last;
      }
      return {
        totalResults,
        queryTimeMillis: Math.round(performance.now() - started),
        limit,
        offset,
        hits,
        rows,
      };
    },
  );
}
