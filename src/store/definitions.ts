/**
 * An account's definitions in PostgreSQL: keyword spotting groups, categories and trained classifiers.
 * The definitions API writes them (already validated); processing reads them with `getSpottingGroups`,
 * `getCategories` and `getClassifiers`. Every function takes the `Sql` to run on and the account, and
 * never sees another account's definitions.
 */
import type {
  CategoryDefinition,
  ClassifierClass,
  ClassifierModel,
  SpottingGroup,
  Category,
} from "../domain/definitions.ts";
import { isUuid } from "../domain/ids.ts";
import type { Sql } from "./database.ts";

// Keyword spotting groups

export async function putSpottingGroup(
  sql: Sql,
  accountId: string,
  group: SpottingGroup,
  now: Date,
): Promise<void> {
  await sql.query(
    `insert into spotting_groups (account_id, group_name, keywords, created_at, updated_at)
     values ($1, $2, $3, $4, $4)
     on conflict (account_id, group_name) do update set keywords = excluded.keywords, updated_at = $4`,
    [accountId, group.groupName, group.keywords, now],
  );
}

/** The account's groups, by name. */
export async function listSpottingGroups(sql: Sql, accountId: string): Promise<SpottingGroup[]> {
  const { rows } = await sql.query<GroupRow>(
    "select group_name, keywords from spotting_groups where account_id = $1 order by group_name",
    [accountId],
  );
  return rows.map(groupOf);
}

/** The groups of those names that exist, in the order the names are given (each once). */
export async function getSpottingGroups(
  sql: Sql,
  accountId: string,
  names: readonly string[],
): Promise<SpottingGroup[]> {
  if (names.length === 0) return [];
  const { rows } = await sql.query<GroupRow>(
    "select group_name, keywords from spotting_groups where account_id = $1 and group_name = any($2::text[])",
    [accountId, [...names]],
  );
  return inOrderOf(names, rows.map(groupOf), (group) => group.groupName);
}

export async function deleteSpottingGroup(sql: Sql, accountId: string, groupName: string): Promise<boolean> {
  const deleted = await sql.query("delete from spotting_groups where account_id = $1 and group_name = $2", [
    accountId,
    groupName,
  ]);
  return deleted.rowCount === 1;
}

interface GroupRow {
  group_name: string;
  keywords: string[];
}

function groupOf(row: GroupRow): SpottingGroup {
  return { groupName: row.group_name, keywords: row.keywords };
}

// Categories

export interface StoredCategory extends Category {
  dateCreated: Date;
  dateModified: Date;
}

/** Creates or replaces the category; a replaced one keeps its creation date. */
export async function putCategory(
  sql: Sql,
  accountId: string,
  category: Category,
  now: Date,
): Promise<StoredCategory> {
  const { rows } = await sql.query<CategoryRow>(
    `insert into categories (account_id, category_name, category_description, query, tags, notes, version,
                             created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $8)
     on conflict (account_id, category_name) do update set
       category_description = excluded.category_description, query = excluded.query, tags = excluded.tags,
       notes = excluded.notes, version = excluded.version, updated_at = excluded.updated_at
     returning ${CATEGORY_COLUMNS}`,
    [
      accountId,
      category.categoryName,
      category.categoryDescription ?? null,
      category.query,
      category.tags ?? null,
      category.notes ?? null,
      category.version ?? null,
      now,
    ],
  );
  return storedCategoryOf(rows[0] as CategoryRow);
}

export async function getCategory(
  sql: Sql,
  accountId: string,
  categoryName: string,
): Promise<StoredCategory | undefined> {
  const { rows } = await sql.query<CategoryRow>(
    `select ${CATEGORY_COLUMNS} from categories where account_id = $1 and category_name = $2`,
    [accountId, categoryName],
  );
  return rows[0] && storedCategoryOf(rows[0]);
}

/** The account's categories, by name. */
export async function listCategories(sql: Sql, accountId: string): Promise<StoredCategory[]> {
  const { rows } = await sql.query<CategoryRow>(
    `select ${CATEGORY_COLUMNS} from categories where account_id = $1 order by category_name`,
    [accountId],
  );
  return rows.map(storedCategoryOf);
}

/**
 * What processing needs of the named categories that exist, in the order the names are given (each
 * once); "all": every category of the account, by name (a configuration's `allCategories`).
 */
export async function getCategories(
  sql: Sql,
  accountId: string,
  names: readonly string[] | "all",
): Promise<CategoryDefinition[]> {
  if (names === "all") {
    const { rows } = await sql.query<CategoryRow>(
      "select category_name, query from categories where account_id = $1 order by category_name",
      [accountId],
    );
    return rows.map(definitionOf);
  }
  if (names.length === 0) return [];
  const { rows } = await sql.query<CategoryRow>(
    "select category_name, query from categories where account_id = $1 and category_name = any($2::text[])",
    [accountId, [...names]],
  );
  return inOrderOf(names, rows.map(definitionOf), (category) => category.categoryName);
}

export async function deleteCategory(sql: Sql, accountId: string, categoryName: string): Promise<boolean> {
  const deleted = await sql.query("delete from categories where account_id = $1 and category_name = $2", [
    accountId,
    categoryName,
  ]);
  return deleted.rowCount === 1;
}

const CATEGORY_COLUMNS =
  "category_name, category_description, query, tags, notes, version, created_at, updated_at";

interface CategoryRow {
  category_name: string;
  category_description: string | null;
  query: string;
  tags: string[] | null;
  notes: string | null;
  version: string | null;
  created_at: Date;
  updated_at: Date;
}

function definitionOf(row: Pick<CategoryRow, "category_name" | "query">): CategoryDefinition {
  return { categoryName: row.category_name, query: row.query };
}

function storedCategoryOf(row: CategoryRow): StoredCategory {
  return {
    categoryName: row.category_name,
    ...(row.category_description !== null && { categoryDescription: row.category_description }),
    query: row.query,
    ...(row.tags !== null && { tags: row.tags }),
    ...(row.notes !== null && { notes: row.notes }),
    ...(row.version !== null && { version: row.version }),
    dateCreated: row.created_at,
    dateModified: row.updated_at,
  };
}

// Classifiers

/** A classifier as processing runs it: who it is, as media results name it, and its model. */
export interface StoredClassifier {
  classifierId: string;
  classifierName: string;
  classifierVersion: string;
  model: ClassifierModel;
}

/** A classifier as the API shows it: everything but the model's word counts. */
export interface ClassifierSummary {
  classifierId: string;
  classifierName: string;
  version: number;
  /** The positive class (1), then the negative one (0). */
  classes: [ClassifierClass, ClassifierClass];
  exampleCount: number;
  dateCreated: Date;
  dateModified: Date;
}

export interface TrainedClassifier {
  classifierName: string;
  model: ClassifierModel;
  exampleCount: number;
}

/**
 * Stores a newly trained classifier under its name. A new name gets `newClassifierId` and version 1; a
 * known name keeps its id and creation date, and its version goes up by one.
 */
export async function putClassifier(
  sql: Sql,
  accountId: string,
  classifier: TrainedClassifier,
  newClassifierId: string,
  now: Date,
): Promise<ClassifierSummary> {
  const [positive, negative] = classifier.model.classes;
  const { rows } = await sql.query<ClassifierRow>(
    `insert into classifiers (classifier_id, account_id, classifier_name, labels, example_count, model,
                              created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $7)
     on conflict (account_id, classifier_name) do update set
       version = classifiers.version + 1, labels = excluded.labels, example_count = excluded.example_count,
       model = excluded.model, updated_at = excluded.updated_at
     returning ${SUMMARY_COLUMNS}`,
    [
      newClassifierId,
      accountId,
      classifier.classifierName,
      [positive.classLabel, negative.classLabel],
      classifier.exampleCount,
      JSON.stringify(classifier.model),
      now,
    ],
  );
  return summaryOf(rows[0] as ClassifierRow);
}

/** The account's classifiers, by name. */
export async function listClassifiers(sql: Sql, accountId: string): Promise<ClassifierSummary[]> {
  const { rows } = await sql.query<ClassifierRow>(
    `select ${SUMMARY_COLUMNS} from classifiers where account_id = $1 order by classifier_name`,
    [accountId],
  );
  return rows.map(summaryOf);
}

/** The classifier whose id or name `ref` is. */
export async function getClassifier(
  sql: Sql,
  accountId: string,
  ref: string,
): Promise<ClassifierSummary | undefined> {
  const { ids, names } = splitRefs([ref]);
  const { rows } = await sql.query<ClassifierRow>(
    `select ${SUMMARY_COLUMNS} from classifiers
     where account_id = $1 and (classifier_id = any($2::uuid[]) or classifier_name = any($3::text[]))`,
    [accountId, ids, names],
  );
  return rows[0] && summaryOf(rows[0]);
}

/**
 * The classifiers that exist among `refs`, each a classifier id or name, in the order of the refs; a
 * classifier named twice (by id and by name) comes once.
 */
export async function getClassifiers(
  sql: Sql,
  accountId: string,
  refs: readonly string[],
): Promise<StoredClassifier[]> {
  if (refs.length === 0) return [];
  const { ids, names } = splitRefs(refs);
  const { rows } = await sql.query<{
    classifier_id: string;
    classifier_name: string;
    version: number;
    model: ClassifierModel;
  }>(
    `select classifier_id, classifier_name, version, model from classifiers
     where account_id = $1 and (classifier_id = any($2::uuid[]) or classifier_name = any($3::text[]))`,
    [accountId, ids, names],
  );
  const found: StoredClassifier[] = [];
  for (const ref of refs) {
    const row =
      rows.find((candidate) => candidate.classifier_id === ref.toLowerCase()) ??
      rows.find((candidate) => candidate.classifier_name === ref);
    if (row === undefined || found.some((known) => known.classifierId === row.classifier_id)) continue;
    found.push({
      classifierId: row.classifier_id,
      classifierName: row.classifier_name,
      classifierVersion: String(row.version),
      model: row.model,
    });
  }
  return found;
}

/** Deletes the classifier whose id or name `ref` is. */
export async function deleteClassifier(sql: Sql, accountId: string, ref: string): Promise<boolean> {
  const { ids, names } = splitRefs([ref]);
  const deleted = await sql.query(
    `delete from classifiers
     where account_id = $1 and (classifier_id = any($2::uuid[]) or classifier_name = any($3::text[]))`,
    [accountId, ids, names],
  );
  return (deleted.rowCount ?? 0) > 0;
}

/** A classifier id as PostgreSQL prints a uuid; names never take this form (the API refuses them). */

/** Refs that can be ids (a uuid cast would fail on the others), and all refs as names. */
function splitRefs(refs: readonly string[]): { ids: string[]; names: string[] } {
  return { ids: refs.filter((ref) => isUuid(ref)).map((ref) => ref.toLowerCase()), names: [...refs] };
}

const SUMMARY_COLUMNS =
  "classifier_id, classifier_name, version, labels, example_count, created_at, updated_at";

interface ClassifierRow {
  classifier_id: string;
  classifier_name: string;
  version: number;
  labels: string[];
  example_count: number;
  created_at: Date;
  updated_at: Date;
}

function summaryOf(row: ClassifierRow): ClassifierSummary {
  const [positive = "", negative = ""] = row.labels;
  return {
    classifierId: row.classifier_id,
    classifierName: row.classifier_name,
    version: row.version,
    classes: [
      { classLabel: positive, classValue: 1 },
      { classLabel: negative, classValue: 0 },
    ],
    exampleCount: row.example_count,
    dateCreated: row.created_at,
    dateModified: row.updated_at,
  };
}

/** `items` in the order their keys appear in `keys`, each once. */
function inOrderOf<T>(keys: readonly string[], items: readonly T[], keyOf: (item: T) => string): T[] {
  const byKey = new Map(items.map((item) => [keyOf(item), item]));
  const ordered: T[] = [];
  for (const key of new Set(keys)) {
    const item = byKey.get(key);
    if (item !== undefined) ordered.push(item);
  }
  return ordered;
}
