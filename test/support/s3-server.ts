/**
 * A real S3-compatible server for tests: s3rver, in this process, on 127.0.0.1 and port 0, keeping its
 * objects in a fresh temporary directory, with one empty bucket. The endpoint is a plain http URL, so
 * other processes (a service started by an integration test) can reach it too.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import type http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: true;
  stop(): Promise<void>;
}

// The part of s3rver's API used here; the package ships no type declarations.
interface S3rver {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
  httpServer: http.Server;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: { name: string }[];
}) => S3rver;

export async function startS3Server(): Promise<TestS3Server> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
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
