import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "../../src/domain/errors.ts";
import {
  containing,
  filterValues,
  neighbourPages,
  pageLength,
  parseDateBound,
  parseExtendedFilter,
  parseTextQuery,
  readingOrder,
} from "../../src/domain/media-search.ts";
import { validateSearchableFields } from "../../src/domain/searchable-fields.ts";

const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ApiError);
    return error.errors[0]?.code;
  }
  assert.fail("no error");
};

test("a date bounds whole UTC days; a date-time is an instant in its zone", () => {
  assert.deepEqual(parseDateBound("d", "2016-01-01", "from"), {
    at: new Date("2016-01-01T00:00:00Z"),
    inclusive: true,
  });
  assert.deepEqual(parseDateBound("d", "2016-02-01", "until"), {
    at: new Date("2016-02-02T00:00:00Z"),
    inclusive: false,
  });
  assert.deepEqual(parseDateBound("d", "2024-02-29T23:30:00.123456-01:30", "until"), {
    at: new Date("2024-03-01T01:00:00.123Z"),
    inclusive: true,
  });
  assert.deepEqual(parseDateBound("d", "2016-01-01T10:00Z", "from").at, new Date("2016-01-01T10:00:00Z"));
  for (const bad of [
    "2023-02-29",
    "2016-13-01",
    "2016-01-01T10:00:00",
    "2016-01-01 10:00:00Z",
    "2016-01-01T10:60Z",
    "2016-01-01T10:00+25:00",
    "1451606400",
  ]) {
    assert.equal(
      code(() => parseDateBound("d", bad, "from")),
      11005,
      bad,
    );
  }
});

test("extendedFilter splits at the first ; else the first :, and matches the text, number or boolean", () => {
  assert.deepEqual(parseExtendedFilter("call.time;10:30"), { path: ["call", "time"], value: "10:30" });
  assert.deepEqual(parseExtendedFilter("customerId:10101"), { path: ["customerId"], value: "10101" });
  assert.deepEqual(parseExtendedFilter("note;"), { path: ["note"], value: "" });
  for (const bad of ["customerId", ";x", "a..b;x"])
    assert.equal(
      code(() => parseExtendedFilter(bad)),
      11005,
    );
  assert.deepEqual(filterValues("10101"), ["10101", 10101]);
  assert.deepEqual(filterValues("true"), ["true", true]);
  assert.deepEqual(filterValues("007"), ["007"], "not how JSON writes a number");
  assert.deepEqual(containing(["call", "phone"], "1"), { extended: { call: { phone: "1" } } });
});

test("a query's field prefix: fixed fields, searchable fields, or just words", () => {
  assert.deepEqual(parseTextQuery("title:Frost", []), { words: "Frost", field: "title", negated: false });
  assert.deepEqual(parseTextQuery("extended.a.b:x -y", ["extended.a.b"]), {
    words: "x -y",
    field: { extended: ["a", "b"] },
    negated: true,
  });
  assert.deepEqual(parseTextQuery("note: refund", []), {
    words: "note: refund",
    field: "all",
    negated: false,
  });
  assert.deepEqual(parseTextQuery("well-known", []).negated, false);
  assert.equal(
    code(() => parseTextQuery("extended.a:x", [])),
    11005,
  );
  assert.equal(
    code(() => parseTextQuery("title: ...", [])),
    11005,
  );
});

test("a page is read from its cursor outwards, and shown in its sortOrder", () => {
  assert.deepEqual(readingOrder({ sortOrder: "desc", after: "a" }), { read: "asc", reversed: true });
  assert.deepEqual(readingOrder({ sortOrder: "asc", before: "b" }), { read: "desc", reversed: true });
  assert.deepEqual(readingOrder({ sortOrder: "asc", after: "a", before: "b" }), {
    read: "asc",
    reversed: false,
  });
  assert.deepEqual(readingOrder({ sortOrder: "desc" }), { read: "desc", reversed: false });
});

test("searchable fields: extended paths, VoiceBase's code for each fault, repeats dropped", () => {
  assert.deepEqual(validateSearchableFields(["extended.a", "extended.b.c", "extended.a"]), [
    "extended.a",
    "extended.b.c",
  ]);
  assert.equal(
    code(() => validateSearchableFields(["title"])),
    80301,
  );
  assert.equal(
    code(() => validateSearchableFields(["extended.a[0]"])),
    80302,
  );
  assert.equal(
    code(() => validateSearchableFields([`extended.${"x".repeat(300)}`])),
    80303,
  );
});

test("the pages beside a page: after its last item going up, before its last going down", () => {
  const page = { first: "f", last: "l", more: true };
  assert.deepEqual(neighbourPages({ sortOrder: "asc" }, page), { next: { after: "l" } });
  assert.deepEqual(neighbourPages({ sortOrder: "asc" }, { ...page, more: false }), {});
  assert.deepEqual(neighbourPages({ sortOrder: "desc", before: "b" }, { ...page, more: false }), {
    previous: { after: "f" },
  });
  // Read away from the order shown: the cursor's side is ahead, `more` tells of the side behind.
  assert.deepEqual(neighbourPages({ sortOrder: "desc", after: "a" }, { ...page, more: false }), {
    next: { before: "l" },
  });
  // A window keeps its far bound going on, and leaves it going back.
  assert.deepEqual(neighbourPages({ sortOrder: "asc", after: "a", before: "b" }, page), {
    next: { after: "l", before: "b" },
    previous: { before: "f" },
  });
  assert.deepEqual(
    neighbourPages({ sortOrder: "asc" }, { first: undefined, last: undefined, more: false }),
    {},
  );
});

test("a page keeps rows up to limit while their metadata fits the budget, and always its first", () => {
  assert.equal(pageLength([10, 10, 10], 100, 1000), 3, "all fit: every row read");
  assert.equal(pageLength([10, 10, 10, 10], 3, 1000), 3, "limit first: the extra row read is not kept");
  assert.equal(pageLength([400, 400, 400], 100, 1000), 2, "the third would pass 1000");
  assert.equal(pageLength([400, 600, 1], 100, 1000), 2, "exactly the budget fits");
  assert.equal(pageLength([5000, 1], 100, 1000), 1, "one row over the budget is a page of its own");
  assert.equal(pageLength([0, 0, 5000], 100, 1000), 2);
  assert.equal(pageLength([], 100, 1000), 0);
});
