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
