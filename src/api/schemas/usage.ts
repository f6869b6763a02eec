/**
 * The `/v3/usage` documents (api/usage.ts): VoiceBase's `VbMonthlyUsage`, `VbDailyUsage` and
 * `VbAvailableMonths`, with the names and nesting its Swagger gives them.
 */
import { Type } from "typebox";
import { ref } from "./common.ts";

const productProperties = {
  productId: Type.String({ description: "`media` (items processed) or `minutes` (their length)." }),
  productName: Type.String(),
  tierLevel: Type.String({ description: "`self-hosted`: Hark bills nothing." }),
  unitPrice: Type.Number({ description: "0: Hark bills nothing." }),
  billedQuantity: Type.Number({ description: "Media items, or minutes to 2 decimals." }),
  billingUnit: Type.String({ description: "`media` or `minutes`." }),
  billedAmount: Type.Number({ description: "0: Hark bills nothing." }),
};

export const ProductMonthlyUsage = Type.Object(
  {
    monthName: Type.String({ description: 'The month, "mmm yyyy" ("Nov 2026"), UTC.' }),
    ...productProperties,
  },
  { $id: "ProductMonthlyUsage", description: "VoiceBase's `VbProductMonthlyUsage`: one product of a month." },
);

export const ProductDailyUsage = Type.Object(
  {
    monthDay: Type.String({ description: 'The day, "mmm dd, yyyy" ("Nov 05, 2026"), UTC.' }),
    ...productProperties,
  },
  { $id: "ProductDailyUsage", description: "VoiceBase's `VbProductDailyUsage`: one product of a day." },
);

const accountId = Type.String({ format: "uuid", description: "The account's id." });

export const MonthlyUsage = Type.Object(
  { accountId, months: Type.Array(ref(ProductMonthlyUsage)) },
  {
    $id: "MonthlyUsage",
    description:
      "VoiceBase's `VbMonthlyUsage`: the month's product lines; none when the account had nothing processed then.",
  },
);

export const DailyUsage = Type.Object(
  {
    accountId,
    months: Type.Array(ref(ProductDailyUsage), {
      description: "The product lines of each day with usage (VoiceBase names this list `months`).",
    }),
  },
  { $id: "DailyUsage", description: "VoiceBase's `VbDailyUsage`: the month's usage, day by day." },
);

export const AvailableMonths = Type.Object(
  {
    accountId,
    months: Type.Array(
      Type.Object({
        monthName: Type.String({ description: '"mmm yyyy".' }),
        year: Type.Integer({ description: "Hark's addition: the year, for the usage URLs." }),
        month: Type.Integer({ description: "Hark's addition: the month, 1 to 12." }),
      }),
    ),
  },
  {
    $id: "AvailableMonths",
    description: "VoiceBase's `VbAvailableMonths`: the months with usage, newest first.",
  },
);

export const USAGE_SCHEMAS = [
  ProductMonthlyUsage,
  ProductDailyUsage,
  MonthlyUsage,
  DailyUsage,
  AvailableMonths,
];
