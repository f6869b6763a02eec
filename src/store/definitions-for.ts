/**
 * The account's definitions an analysis plan names, looked up when processing runs. The upload was
 * refused if it named one that did not exist; one deleted since is reported, not fatal.
 */
import type { AnalysisPlan } from "../domain/configuration.ts";
import type { Definitions } from "../domain/definitions.ts";
import type { Sql } from "./database.ts";
import { getCategories, getClassifiers, getSpottingGroups } from "./definitions.ts";

/** A definition the plan names and the account does not have; `kind` reads as the start of a sentence. */
export interface MissingDefinition {
  kind: "Spotting group" | "Category" | "Classifier";
  name: string;
}

export async function definitionsFor(
  sql: Sql,
  accountId: string,
  plan: AnalysisPlan,
): Promise<{ definitions: Definitions; missing: MissingDefinition[] }> {
  const [spottingGroups, categories, classifiers] = await Promise.all([
    getSpottingGroups(sql, accountId, plan.spottingGroups),
    getCategories(sql, accountId, plan.categories),
    getClassifiers(sql, accountId, plan.classifiers),
  ]);
  const groupNames = spottingGroups.map((group) => group.groupName);
  const categoryNames = categories.map((category) => category.categoryName);
  // A classifier is named by its name or by its id, a UUID in any letter case.
  const classifierRefs = classifiers.flatMap((c) => [c.classifierId.toLowerCase(), c.classifierName]);
  const missing: MissingDefinition[] = [
    ...plan.spottingGroups
      .filter((name) => !groupNames.includes(name))
      .map((name) => ({ kind: "Spotting group", name }) as const),
    ...(plan.categories === "all" ? [] : plan.categories)
      .filter((name) => !categoryNames.includes(name))
      .map((name) => ({ kind: "Category", name }) as const),
    ...plan.classifiers
      .filter((ref) => !classifierRefs.includes(ref) && !classifierRefs.includes(ref.toLowerCase()))
      .map((name) => ({ kind: "Classifier", name }) as const),
  ];
  return { definitions: { spottingGroups, categories, classifiers }, missing };
}
