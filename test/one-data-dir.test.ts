/**
 * One data directory, one Hark (embedded mode): a second start on a directory in use refuses and leaves
 * the first alone; a start after the first was SIGKILLed takes over and stops the server it left; a Hark
 * whose embedded server dies says so and exits rather than answering 500 forever. Real processes, as
 * `npm start` runs them.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createAccountOver } from "./support/http-client.ts";
import {
  clusterOf,
  dataDir,
  postgresOf,
  processes,
  running,
  STOP_SECONDS,
  startMain,
  stillAlive,
  stopAllProcesses,
} from "./support/service-process.ts";

after(stopAllProcesses);

const ADMIN = "one-data-dir-admin-token-0123456789";

/** A request that needs the database: an account made, then its media listed. */
async function answers(address: string, name: string): Promise<void> {
  const token = await createAccountOver(address, ADMIN, name);
  const response = await fetch(`${address}/v3/media`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200, await response.text());
}

describe("one data directory, one Hark", () => {
  it("refuses a second start while the first lives, takes over from a killed one, exits when its server dies", async () => {
    const dir = await dataDir();
    const env = { HARK_DATA_DIR: dir, PORT: "0", HARK_LOG_LEVEL: "info", HARK_ADMIN_TOKEN: ADMIN };

    const first = startMain(env);
    const firstAddress = await running(first);
    await answers(firstAddress, "first");
    // The postmaster only: its backends come and go with connections.
    const firstServer = (await postgresOf(dir)).filter((p) => p.cmdline.includes(clusterOf(dir)));
    assert.equal(firstServer.length, 1);

    const second = startMain(env);
    assert.deepEqual(await second.exit(STOP_SECONDS), { code: 1, signal: null }, second.output());
    const refusal = second.stderr().trim().split("\n");
    assert.equal(refusal.length, 1, `one line: ${second.stderr()}`);
    assert.match(
      refusal[0] ?? "",
      new RegExp(`another Hark \\(pid ${first.child.pid}\\b.*PostgreSQL on port \\d+`),
    );
    assert.match(refusal[0] ?? "", /HARK_DATA_DIR/, "says what to change");
    assert.deepEqual(
      await stillAlive(firstServer),
      firstServer.map((p) => p.pid),
      "the first one's server is untouched",
    );
    await answers(firstAddress, "first-after-refusal");

    // Hark alone is killed: its server is left running, its owner dead.
    first.child.kill("SIGKILL");
    assert.deepEqual(await first.exit(STOP_SECONDS), { code: null, signal: "SIGKILL" });
    assert.ok((await stillAlive(firstServer)).length > 0, "the killed Hark left its server running");

    const third = startMain(env);
    const thirdAddress = await running(third);
    await answers(thirdAddress, "third");
    assert.deepEqual(await stillAlive(firstServer), [], "the dead owner's server was stopped");

    const [postmaster] = (await processes()).filter((p) => p.cmdline.includes(clusterOf(dir)));
    assert.ok(postmaster, "the third one's server runs");
    process.kill(postmaster.pid, "SIGKILL");
    assert.deepEqual(await third.exit(STOP_SECONDS), { code: 1, signal: null }, third.output());
    assert.match(
      third.stderr(),
      new RegExp(
        `^hark: the embedded PostgreSQL server \\(pid ${postmaster.pid}\\) ended \\(signal SIGKILL\\); stopping$`,
        "m",
      ),
    );
  });
});
