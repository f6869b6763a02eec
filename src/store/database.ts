/**
 * The PostgreSQL connection pool and the one way to run a transaction. A `Sql` is what queries take: the
 * pool, or the client of an open transaction, so the same query code runs inside or outside one.
 */
import pg from "pg";

export interface Sql {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
}

export interface Database extends Sql {
  /** Runs `work` in one transaction: all of it commits, or none of it does. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly pool: pg.Pool;
}

// PostgreSQL `bigint` (e.g. byte counts) fits a JS number for every size Hark stores.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export function openDatabase(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its connection (server restart) must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  return {
    pool,
    query: (text, values) => pool.query(text, values),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await work(client);
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
