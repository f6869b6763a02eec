import assert from "node:assert/strict";
import { test } from "node:test";
import {
  dailyUsage,
  monthDay,
  monthName,
  productLines,
  usageCsv,
} from "../../src/documents/usage-document.ts";

test("periods are named as VoiceBase names them: 'mmm yyyy' and 'mmm dd, yyyy'", () => {
  assert.equal(monthName("2026-01"), "Jan 2026");
  assert.equal(monthName("2026-12"), "Dec 2026");
  assert.equal(monthDay("2026-11-05"), "Nov 05, 2026");
});

test("minutes are the lengths' sum, to 2 decimals; the media line counts items", () => {
  const [media, minutes] = productLines({ period: "2026-11", mediaCount: 3, lengthMs: 100_000 });
  assert.equal(media?.billedQuantity, 3);
  assert.equal(minutes?.billedQuantity, 1.67);
  assert.equal(minutes?.billingUnit, "minutes");
});

test("the CSV quotes a field with a comma or a quote, and ends every row with CRLF", () => {
  const { months } = dailyUsage("a", [{ period: "2026-11-05", mediaCount: 1, lengthMs: 60_000 }]);
  const lines = usageCsv("monthDay", months).split("\r\n");
  assert.equal(lines.length, 4, "header, two lines, and the last CRLF");
  assert.equal(lines[1], '"Nov 05, 2026",media,Media items processed,self-hosted,0,1,media,0');
  assert.equal(lines[3], "");
  const [line] = productLines({ period: "2026-11", mediaCount: 1, lengthMs: 0 });
  assert.ok(line);
  const quoted = usageCsv("monthName", [{ monthName: 'say "hi"', ...line }]);
  assert.match(quoted, /\r\n"say ""hi""",media,/);
});
