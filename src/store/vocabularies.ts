/**
 * An account's custom vocabularies in PostgreSQL. The definitions API writes them (already checked and
 * cleaned); the upload asks `vocabulariesFor` whether the names its configuration gives can be used.
 * Every function takes the `Sql` to run on and the account, and never sees another account's vocabularies.
 */
import { type Vocabulary, type VocabularyTerm, vocabularySize } from "../domain/vocabularies.ts";
import type { Sql } from "./database.ts";

/** Creates or replaces the vocabulary; a replaced one keeps its creation date, and may change its type. */
export async function putVocabulary(
  sql: Sql,
  accountId: string,
  vocabulary: Vocabulary,
  now: Date,
): Promise<void> {
  const terms = vocabulary.vocabularyType === "terms" ? JSON.stringify(vocabulary.terms) : null;
  const scripts = vocabulary.vocabularyType === "scripts" ? vocabulary.scripts : null;
  await sql.query(
    `insert into vocabularies (account_id, vocabulary_name, vocabulary_type, terms, scripts, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $6)
     on conflict (account_id, vocabulary_name) do update set
       vocabulary_type = excluded.vocabulary_type, terms = excluded.terms, scripts = excluded.scripts,
       updated_at = excluded.updated_at`,
    [accountId, vocabulary.vocabularyName, vocabulary.vocabularyType, terms, scripts, now],
  );
}

/** The account's vocabularies, by name. */
export async function listVocabularies(sql: Sql, accountId: string): Promise<Vocabulary[]> {
  const { rows } = await sql.query<VocabularyRow>(
    `select ${COLUMNS} from vocabularies where account_id = $1 order by vocabulary_name`,
    [accountId],
  );
  return rows.map(vocabularyOf);
}

export async function getVocabulary(
  sql: Sql,
  accountId: string,
  vocabularyName: string,
): Promise<Vocabulary | undefined> {
  const [vocabulary] = await getVocabularies(sql, accountId, [vocabularyName]);
  return vocabulary;
}

/** The vocabularies of those names that exist, in the order the names are given (each once). */
export async function getVocabularies(
  sql: Sql,
  accountId: string,
  names: readonly string[],
): Promise<Vocabulary[]> {
  if (names.length === 0) return [];
  const { rows } = await sql.query<VocabularyRow>(
    `select ${COLUMNS} from vocabularies where account_id = $1 and vocabulary_name = any($2::text[])`,
    [accountId, [...names]],
  );
  const byName = new Map(rows.map((row) => [row.vocabulary_name, vocabularyOf(row)]));
  return [...new Set(names)].flatMap((name) => byName.get(name) ?? []);
}

/** What an upload may use of the vocabularies it names. */
export interface NamedVocabularies {
  /** Those that exist and hold terms or scripts, in the order named (each once). */
  found: Vocabulary[];
  /** Names the account has no vocabulary of (an upload refuses them: 20008). */
  missing: string[];
  /** Names of vocabularies with no terms and no scripts (an upload refuses them: 20009). */
  empty: string[];
}

/**
 * The vocabularies an upload's `configuration.vocabularies[].vocabularyName` values name, in one query:
 * which can be used, which do not exist, which are empty. Names are compared exactly, each once.
 */
export async function vocabulariesFor(
  sql: Sql,
  accountId: string,
  names: readonly string[],
): Promise<NamedVocabularies> {
  const known = await getVocabularies(sql, accountId, names);
  const byName = new Map(known.map((vocabulary) => [vocabulary.vocabularyName, vocabulary]));
  const result: NamedVocabularies = { found: [], missing: [], empty: [] };
  for (const name of new Set(names)) {
    const vocabulary = byName.get(name);
    if (vocabulary === undefined) result.missing.push(name);
    else if (vocabularySize(vocabulary) === 0) result.empty.push(name);
    else result.found.push(vocabulary);
  }
  return result;
}

export async function deleteVocabulary(
  sql: Sql,
  accountId: string,
  vocabularyName: string,
): Promise<boolean> {
  const deleted = await sql.query("delete from vocabularies where account_id = $1 and vocabulary_name = $2", [
    accountId,
    vocabularyName,
  ]);
  return deleted.rowCount === 1;
}

const COLUMNS = "vocabulary_name, vocabulary_type, terms, scripts";

interface VocabularyRow {
  vocabulary_name: string;
  vocabulary_type: "terms" | "scripts";
  terms: VocabularyTerm[] | null;
  scripts: string[] | null;
}

function vocabularyOf(row: VocabularyRow): Vocabulary {
  return row.vocabulary_type === "terms"
    ? { vocabularyName: row.vocabulary_name, vocabularyType: "terms", terms: row.terms ?? [] }
    : { vocabularyName: row.vocabulary_name, vocabularyType: "scripts", scripts: row.scripts ?? [] };
}
