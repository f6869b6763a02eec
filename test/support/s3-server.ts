/**
 * A real S3-compatible server for tests: s3rver, in this process, on 127.0.0.1 and port 0, keeping its
 * objects in a fresh temporary directory, with one empty bucket. The endpoint is a plain http URL, so
 * other processes (a service started by an integration test) can reach it too.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: true;
  stop(): Promise<void>;
}

export async function startS3Server(): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "hark-test-s3-"));
  const bucket = `hark-test-${randomBytes(4).toString("hex")}`;
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    region: "us-east-1",
    // s3rver knows one account, S3RVER, and does not check SigV4 signatures, so any secret passes.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
    async stop() {
      const closed = server.close();
      // Keep-alive connections from clients (in other processes too) would hold `close` open.
      server.httpServer.closeAllConnections();
      await closed;
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
