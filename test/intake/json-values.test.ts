import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { jsonValueFault, MAX_JSON_DEPTH } from "../../src/intake/json-values.ts";

/** `depth` arrays, one inside the other, around `inner`. */
const nested = (depth: number, inner: unknown = 1): unknown =>
  depth === 0 ? inner : [nested(depth - 1, inner)];

describe("jsonValueFault", () => {
  test("ordinary values, paired surrogates (emoji) and nesting up to the limit pass", () => {
    assert.equal(jsonValueFault({ title: "Q3 call 📞", extended: { a: [1, null, true, "x"] } }), undefined);
    assert.equal(jsonValueFault(nested(MAX_JSON_DEPTH)), undefined);
    assert.equal(jsonValueFault("\ud83d\udcde"), undefined);
  });

  test("a NUL or a lone surrogate, in a value or a property name, is found where it is", () => {
    assert.deepEqual(jsonValueFault({ a: { "b/c": ["ok", "x\u0000"] } })?.instancePath, "/a/b~1c/1");
    assert.match(jsonValueFault({ a: ["\udc00"] })?.message ?? "", /lone surrogate/);
    assert.match(jsonValueFault({ a: "\ud800x" })?.message ?? "", /lone surrogate/);
    const key = jsonValueFault({ a: { "k\u0000": 1 } });
    assert.deepEqual(key?.instancePath, "/a");
    assert.match(key?.message ?? "", /property name that contains a NUL/);
  });

  test("nesting one deeper than the limit is refused, named by where it starts; far deeper costs no stack", () => {
    const fault = jsonValueFault({ extended: { x: nested(MAX_JSON_DEPTH) } });
    assert.equal(fault?.instancePath, "/extended/x");
    assert.match(fault?.message ?? "", /nested more than 64 deep/);
    const deep = JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`);
    assert.equal(jsonValueFault(deep)?.instancePath, "/0/0");
  });
});
