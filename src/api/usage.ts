/**
 * Usage (`/v3/usage`): the media items and minutes an account had processed, per UTC month and day, as
 * VoiceBase's usage API shapes them (documents/usage-document.ts), in JSON or CSV. Usage is recorded when
 * processing finishes and outlives the media item, its deletion and its time-to-live expiry.
 */
import { Type } from "typebox";
import { availableMonths, dailyUsage, monthlyUsage, usageCsv } from "../documents/usage-document.ts";
import { monthRange } from "../domain/usage.ts";
import type { Services } from "../services.ts";
import { usageBetween, usageMonths } from "../store/usage.ts";
import type { HarkApp } from "./hark-app.ts";
import { accountRefusals, response } from "./schemas/common.ts";
import { AvailableMonths, DailyUsage, MonthlyUsage } from "./schemas/usage.ts";
import { faults } from "./validation.ts";

const TAGS = ["Usage"];
const CSV = "text/csv";

const MonthParams = Type.Object({
  year: Type.Integer({
    minimum: 1970,
    maximum: 9999,
    description: "Year number (yyyy).",
    "x-allowed": "a year from 1970 to 9999",
  }),
  month: Type.Integer({
    minimum: 1,
    maximum: 12,
    description: "Month number (mm), 1 to 12.",
    "x-allowed": "a month number from 1 to 12",
  }),
});

const CsvResponse = (description: string) => ({
  description,
  content: { [CSV]: { schema: Type.String() } },
});

/** A bad year or month is a bad request (VoiceBase: 400), not a missing resource. */
const badPath = { schemaErrorFormatter: faults({ params: "invalidRequest" }) };

export function registerUsageRoutes(app: HarkApp, services: Services): void {
  const { db } = services;

  app.get(
    "/v3/usage/months",
    {
      schema: {
        operationId: "monthsQuery",
        tags: TAGS,
        summary: "Available months",
        description: "The months (UTC) in which the account had media processed, newest first.",
        response: { 200: response(AvailableMonths, "The months."), ...accountRefusals() },
      },
    },
    async (request) => {
      const { accountId } = request.account;
      return availableMonths(accountId, await usageMonths(db, accountId));
    },
  );

  for (const unit of ["monthly", "daily"] as const) {
    const shape = unit === "monthly" ? monthlyUsage : dailyUsage;
    const per = unit === "monthly" ? "month" : "day";
    const operation = `${unit}UsageQuery`;
    const lines = async (accountId: string, year: number, month: number) =>
      shape(accountId, await usageBetween(db, accountId, per, monthRange(year, month)));

    app.get(
      `/v3/usage/${unit}/:year/:month`,
      {
        schema: {
          operationId: operation,
          tags: TAGS,
          summary: `Account ${unit} usage`,
          description: `Per ${per === "month" ? "the month" : "day of the month"} (UTC): two product lines, \`media\` (items whose processing finished) and \`minutes\` (their length). Hark bills nothing: prices and amounts are 0. A ${per} without usage has no lines.`,
          params: MonthParams,
          response: {
            200: response(unit === "monthly" ? MonthlyUsage : DailyUsage, "The usage."),
            ...accountRefusals("invalidRequest"),
          },
        },
        ...badPath,
      },
      async (request) => lines(request.account.accountId, request.params.year, request.params.month),
    );

    app.get(
      `/v3/usage/${unit}/:year/:month/csv`,
      {
        schema: {
          operationId: `${unit}UsageCsvQuery`,
          tags: TAGS,
          summary: `Account ${unit} usage CSV`,
          description: `The lines of \`${operation}\` as CSV (RFC 4180): a header row of their field names (\`${per === "month" ? "monthName" : "monthDay"}\`, \`productId\`, \`productName\`, \`tierLevel\`, \`unitPrice\`, \`billedQuantity\`, \`billingUnit\`, \`billedAmount\`), then a row per line.`,
          params: MonthParams,
          response: { 200: CsvResponse("The usage, as CSV."), ...accountRefusals("invalidRequest") },
        },
        ...badPath,
      },
      async (request, reply) => {
        const { months } = await lines(request.account.accountId, request.params.year, request.params.month);
        return reply
          .header("content-type", CSV)
          .send(usageCsv(unit === "monthly" ? "monthName" : "monthDay", months));
      },
    );
  }
}
