/**
 * The VBQL search's body and answer (api/vbql.ts), in VoiceBase's shapes: the body is the statement
 * itself, a string; the answer is `VbStatementResult`, whose `hits[i]` (a `VbMatchResultList`) belongs to
 * `rows[i]` (a `VbRow`).
 */
import { Type } from "typebox";
import { MAX_QUERY_LENGTH } from "../../analytics/query.ts";
import { DEFAULT_VBQL_LIMIT, MAX_VBQL_LIMIT } from "../../analytics/vbql-search.ts";
import { ref } from "./common.ts";

export const VbqlStatement = Type.String({
  minLength: 1,
  maxLength: MAX_QUERY_LENGTH,
  "x-allowed": "a VBQL statement, SELECT … FROM media …, as a JSON string or as text/plain",
  description: "The VBQL statement (docs/queries.md).",
  examples: ["SELECT mediaId, HITS() FROM media WHERE 'agent' SAYS 'thank you' LIMIT 10"],
});

export const MatchResult = Type.Object(
  {
    conditions: Type.Array(Type.String(), { description: "The statement's phrase that was found." }),
    fieldValues: Type.Object(
      {
        speakerName: Type.String(),
        s: Type.Integer({ description: "Start, ms." }),
        e: Type.Integer({ description: "End, ms." }),
        exact: Type.String({ description: "The words as the transcript has them." }),
      },
      { additionalProperties: true, description: "Where and by whom it was said." },
    ),
  },
  { $id: "MatchResult", description: "VoiceBase's `VbMatchResult`: one place a phrase was said." },
);

export const StatementResult = Type.Object(
  {
    totalResults: Type.Integer({ description: "How many media items match, in all." }),
    queryTimeMillis: Type.Integer({ description: "How long the search took, ms." }),
    limit: Type.Integer({
      description: `The statement's LIMIT; ${DEFAULT_VBQL_LIMIT} when it has none, ${MAX_VBQL_LIMIT} at most.`,
    }),
    offset: Type.Integer({ description: "The statement's OFFSET; 0 when it has none." }),
    hits: Type.Array(Type.Array(ref(MatchResult)), {
      description:
        "For each row, in its order, where the statement's phrases were said (`VbMatchResultList`).",
    }),
    rows: Type.Array(Type.Object({}, { additionalProperties: true }), {
      description:
        "The matching media items, newest first, with the columns the statement selects (`VbRow`); `*` is `mediaId`, `dateCreated`, `length` and the metadata's fields.",
    }),
  },
  { $id: "StatementResult", description: "VoiceBase's `VbStatementResult`." },
);

export const SEARCH_SCHEMAS = [MatchResult, StatementResult];
