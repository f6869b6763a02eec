/**
 * Usage as VoiceBase shapes it (`VbMonthlyUsage`, `VbDailyUsage`, `VbAvailableMonths`, and their CSV
 * forms). VoiceBase reports billed products; Hark bills nothing, so each period shows two products, the
 * media items and the minutes processed, at a unit price and amount of 0. Pure.
 */
import type { UsagePeriod } from "../domain/usage.ts";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** What every product line has besides its period, as `VbProductMonthlyUsage` names it. */
export interface ProductUsage {
  productId: string;
  productName: string;
  tierLevel: string;
  unitPrice: number;
  billedQuantity: number;
  billingUnit: string;
  billedAmount: number;
}

const PRODUCT_COLUMNS = [
  "productId",
  "productName",
  "tierLevel",
  "unitPrice",
  "billedQuantity",
  "billingUnit",
  "billedAmount",
] as const satisfies readonly (keyof ProductUsage)[];

/** `YYYY-MM` → "Nov 2026" (VoiceBase's "mmm yyyy"). */
export function monthName(period: string): string {
  const [year, month] = period.split("-");
  return `${MONTHS[Number(month) - 1]} ${year}`;
}

/** `YYYY-MM-DD` → "Nov 05, 2026" (VoiceBase's "mmm dd, yyyy"). */
export function monthDay(period: string): string {
  const [year, month, day] = period.split("-");
  return `${MONTHS[Number(month) - 1]} ${day}, ${year}`;
}

/** A period's two product lines: media items, and minutes (to 2 decimals) of their lengths. */
export function productLines(usage: UsagePeriod): ProductUsage[] {
  const free = { tierLevel: "self-hosted", unitPrice: 0, billedAmount: 0 };
  return [
    {
      productId: "media",
      productName: "Media items processed",
      ...free,
      billedQuantity: usage.mediaCount,
      billingUnit: "media",
    },
    {
      productId: "minutes",
      productName: "Minutes of media processed",
      ...free,
      billedQuantity: Math.round(usage.lengthMs / 600) / 100,
      billingUnit: "minutes",
    },
  ];
}

/** `VbMonthlyUsage`: a line per product of each month. */
export function monthlyUsage(accountId: string, periods: readonly UsagePeriod[]) {
  return {
    accountId,
    months: periods.flatMap((usage) =>
      productLines(usage).map((line) => ({ monthName: monthName(usage.period), ...line })),
    ),
  };
}

/** `VbDailyUsage`: a line per product of each day with usage (VoiceBase calls the list `months` too). */
export function dailyUsage(accountId: string, periods: readonly UsagePeriod[]) {
  return {
    accountId,
    months: periods.flatMap((usage) =>
      productLines(usage).map((line) => ({ monthDay: monthDay(usage.period), ...line })),
    ),
  };
}

/** `VbAvailableMonths`, with Hark's `year` and `month` numbers for building the usage URLs. */
export function availableMonths(accountId: string, periods: readonly string[]) {
  return {
    accountId,
    months: periods.map((period) => {
      const [year, month] = period.split("-").map(Number);
      return { monthName: monthName(period), year, month };
    }),
  };
}

/** The CSV form of monthly or daily usage: a header row of the JSON names, then a row per line. */
export function usageCsv(
  periodColumn: "monthName" | "monthDay",
  lines: readonly (ProductUsage & Partial<Record<"monthName" | "monthDay", string>>)[],
): string {
  const columns = [periodColumn, ...PRODUCT_COLUMNS];
  const rows = [columns, ...lines.map((line) => columns.map((column) => String(line[column] ?? "")))];
  // RFC 4180: CRLF line ends; a field with a comma, quote or line end is quoted ("Nov 05, 2026" is).
  return rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
