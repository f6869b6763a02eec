/**
 * Searchable fields (VoiceBase's `VbSearchableFields`, `PUT /v3/definition/media/search`): the fields of
 * `metadata.extended` an account's media search looks in, each named `extended.` and a dotted path
 * (`extended.customerId`, `extended.call.phone`). A `query` searches their values beside the title,
 * description and transcript, and `query=extended.customerId:10101` searches one of them. Pure.
 */
import { ApiError } from "./errors.ts";

/** Longer names are refused (80303); VoiceBase gives no figure, and no real path needs more. */
export const MAX_SEARCHABLE_FIELD_LENGTH = 200;
export const MAX_SEARCHABLE_FIELDS = 100;

const SEGMENT = /^[^\s.]+$/;
/** Characters of a path expression (JSONPath's wildcards, filters, indexes): Hark takes plain names only. */
const EXPRESSION = /[*?[\]()$@!=<>|&]/;

function isSearchableFieldName(name: string): boolean {
  const [root, ...path] = name.split(".");
  return root === "extended" && path.length > 0 && path.every((segment) => SEGMENT.test(segment));
}

/**
 * The fields as stored: each checked, repeats dropped, in the order given. Throws the first fault with
 * VoiceBase's code for it.
 */
export function validateSearchableFields(fields: readonly string[]): string[] {
  for (const field of fields) {
    if (field.length > MAX_SEARCHABLE_FIELD_LENGTH) {
      throw new ApiError(
        "searchableFieldTooLong",
        `The searchable field ${JSON.stringify(field.slice(0, 40))}… is ${field.length} characters long, over the maximum of ${MAX_SEARCHABLE_FIELD_LENGTH}; remove or shorten it`,
      );
    }
    if (EXPRESSION.test(field)) {
      throw new ApiError(
        "searchableFieldExpressionInvalid",
        `The searchable field ${JSON.stringify(field)} is an expression; name one field as extended.<name>, dotted for a nested one (extended.call.phone), without wildcards, filters or indexes`,
      );
    }
    if (!isSearchableFieldName(field)) {
      throw new ApiError(
        "searchableFieldNameInvalid",
        `The searchable field ${JSON.stringify(field)} is not a field of metadata.extended; name it extended.<name>, dotted for a nested one (extended.call.phone), with no spaces or empty parts`,
      );
    }
  }
  return [...new Set(fields)];
}
