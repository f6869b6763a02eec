import assert from "node:assert/strict";
import fs from "node:fs/promises";
import { test } from "node:test";
import { errorCodes, messageCodes } from "../../src/domain/errors.ts";

test("every error and warning code is documented in docs/errors.md with its HTTP status", async () => {
  const doc = await fs.readFile(new URL("../../docs/errors.md", import.meta.url), "utf8");
  for (const [name, { code, status }] of Object.entries(errorCodes)) {
    const row = doc.split("\n").find((line) => line.startsWith(`| ${code} |`));
    assert.ok(row, `${name} (${code}) is missing from docs/errors.md`);
    const shown = row.split("|")[2]?.trim();
    // Codes that only ever appear in a failed media item's errors show "—" instead of a status.
    assert.ok(shown === String(status) || shown === "—", `${name}: docs say ${shown}, code says ${status}`);
  }
  for (const [name, code] of Object.entries(messageCodes)) {
    assert.ok(doc.includes(`| ${code} |`), `warning ${name} (${code}) is missing from docs/errors.md`);
  }
});

test("codes are unique", () => {
  const codes = Object.values(errorCodes).map((entry) => entry.code);
  assert.equal(new Set(codes).size, codes.length);
});
