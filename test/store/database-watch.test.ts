/**
 * The database watch: a short outage is ridden out, one lasting the grace period is reported once.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { watchDatabase } from "../../src/store/database-watch.ts";
import type { Sql } from "../../src/store/database.ts";
import { within } from "../support/within.ts";

/** A database that answers while `up()` says so; counts the probes. */
function database(up: () => boolean): Sql & { probes: number } {
  const db = {
    probes: 0,
    query() {
      db.probes++;
      return up()
        ? Promise.resolve({ rows: [], rowCount: 1 })
        : Promise.reject(new Error("connect ECONNREFUSED"));
    },
  };
  return db as unknown as Sql & { probes: number };
}

describe("watchDatabase", () => {
  it("reports a database that stays unreachable for the grace period, saying so", async () => {
    const db = database(() => false);
    const watch = watchDatabase(db, 50, 10);
    const line = await within(watch.lost, 2000, "the loss reported");
    assert.match(line, /unreachable for 0 s \(connect ECONNREFUSED\)/);
    watch.stop();
  });

  it("rides out failures shorter than the grace period", async () => {
    let probes = 0;
    // Down for every other probe: never down for the whole grace period.
    const db = database(() => probes++ % 2 === 0);
    const watch = watchDatabase(db, 45, 10);
    const lost = watch.lost.then(() => "lost");
    const quiet = new Promise<string>((resolve) => {
      const check = setInterval(() => {
        if (db.probes >= 20) {
          clearInterval(check);
          resolve("quiet");
        }
      }, 5);
    });
    assert.equal(await Promise.race([lost, quiet]), "quiet");
    watch.stop();
  });

  it("counts a database that does not answer at all as unreachable", async () => {
    const db = { query: () => new Promise(() => {}) } as unknown as Sql;
    const watch = watchDatabase(db, 30, 10);
    assert.match(await within(watch.lost, 2000, "the loss reported"), /no answer/);
    watch.stop();
  });
});
