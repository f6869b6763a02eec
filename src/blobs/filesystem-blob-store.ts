/**
 * The default blob store: files under a directory. A blob is written to a temporary name and renamed
 * into place when complete, so a crash mid-write never leaves a truncated blob under its real key.
 */
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { assertBlobKey, BlobNotFoundError, type BlobStore } from "./blob-store.ts";

export function filesystemBlobStore(root: string): BlobStore {
  const fileOf = (key: string): string => {
    assertBlobKey(key);
    return path.join(root, key);
  };

  const size = async (key: string): Promise<number | undefined> => {
    try {
      return (await fs.stat(fileOf(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  };

  return {
    async put(key, source) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const partial = `${file}.${randomUUID()}.partial`;
      try {
        await pipeline(source, createWriteStream(partial));
        await fs.rename(partial, file);
      } catch (error) {
        await fs.rm(partial, { force: true });
        throw error;
      }
      return (await fs.stat(file)).size;
    },

    async read(key) {
      const file = fileOf(key);
      if ((await size(key)) === undefined) throw new BlobNotFoundError(`no blob ${key}`);
      return createReadStream(file) as Readable;
    },

    size,

    async withLocalFile(key, work) {
      if ((await size(key)) === undefined) throw new BlobNotFoundError(`no blob ${key}`);
      return work(fileOf(key));
    },

    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },

    async deletePrefix(prefix) {
      const cleaned = prefix.replace(/\/+$/, "");
      await fs.rm(fileOf(cleaned), { recursive: true, force: true });
    },
  };
}

/**
 * Removes the partial files under `root` last written more than `olderThanMs` ago: those of writes a
 * crash cut off. A write still under way (in any process sharing the directory) touches its file as
 * bytes arrive, and none lasts longer than the upload timeout. Resolves to how many were removed.
 */
export async function removeStalePartials(
  root: string,
  olderThanMs: number,
  now: number = Date.now(),
): Promise<number> {
  const entries = await fs
    .readdir(root, { recursive: true, withFileTypes: true })
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      throw error;
    });
  let removed = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith(".partial")) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat === undefined || now - stat.mtimeMs <= olderThanMs) continue;
    await fs.rm(file, { force: true });
    // The media's directory, if nothing else is in it: an upload never finished makes no other blob.
    if (entry.parentPath !== root) await fs.rmdir(entry.parentPath).catch(() => undefined);
    removed += 1;
  }
  return removed;
}
