import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { filesystemBlobStore } from "../../src/blobs/filesystem-blob-store.ts";
import { blobStoreContract } from "./blob-store-contract.ts";

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

// The blob root sits one level inside the temporary directory, so a key that escaped the root would
// show up as a file next to it.
blobStoreContract("filesystemBlobStore", async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-blobs-"));
  const root = path.join(dir, "root");
  return {
    store: filesystemBlobStore(root),
    listAll: () => listFiles(dir),
    dispose: () => fs.rm(dir, { recursive: true, force: true }),
  };
});
