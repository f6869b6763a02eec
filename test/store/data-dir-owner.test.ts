/**
 * The owner file of an embedded cluster's directory: a live owner keeps it, a dead one (its pid gone, or
 * reused by a process that started later) does not.
 */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { claimDirectory, DirectoryInUseError } from "../../src/store/data-dir-owner.ts";

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-owner-"));
  dirs.push(dir);
  return dir;
}

async function ownerFile(dir: string): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(path.join(dir, "owner.json"), "utf8")) as Record<string, unknown>;
}

describe("claimDirectory", () => {
  it("refuses while the owner lives, naming it, and frees the directory on release", async () => {
    const dir = await tempDir();
    const claim = await claimDirectory(dir, "http://127.0.0.1:8080");
    await claim.update({ port: 5433 });
    await assert.rejects(claimDirectory(dir, undefined), (error: Error) => {
      assert.ok(error instanceof DirectoryInUseError);
      assert.match(
        error.message,
        new RegExp(`pid ${process.pid}, serving http://127.0.0.1:8080, PostgreSQL on port 5433`),
      );
      assert.match(error.message, /HARK_DATA_DIR/);
      return true;
    });
    await claim.release();
    const again = await claimDirectory(dir, undefined);
    await again.release();
    await assert.rejects(fs.access(path.join(dir, "owner.json")), "released: no owner file");
  });

  it("takes over from a dead owner, and from one whose pid another process now has", async () => {
    const dir = await tempDir();
    const claim = await claimDirectory(dir, undefined);
    const mine = await ownerFile(dir);
    // Killed without a chance to release: the file stays. Its pid now belongs to a process started later.
    await fs.writeFile(path.join(dir, "owner.json"), JSON.stringify({ ...mine, started: "1" }));
    const reused = await claimDirectory(dir, undefined);
    assert.equal((await ownerFile(dir)).started, mine.started, "claimed anew");
    // A pid no process has, and a file cut short by a crash while it was written.
    await fs.writeFile(path.join(dir, "owner.json"), JSON.stringify({ ...mine, pid: 2 ** 22 + 1 }));
    await (await claimDirectory(dir, undefined)).release();
    await fs.writeFile(path.join(dir, "owner.json"), '{"pid": 12');
    await (await claimDirectory(dir, undefined)).release();
    await reused.release();
    await claim.release();
  });
});
