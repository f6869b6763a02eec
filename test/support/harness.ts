/**
 * A Hark for tests: real PostgreSQL (a fresh database), real blob directory, real pocketsphinx, the
 * Fastify app driven through `inject()`, and helpers for what most tests do (create an account, upload,
 * wait for processing to end).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { openAsBlob } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from "fastify";
import pino from "pino";
import { buildApp } from "../../src/api/app.ts";
import type { RecognizedWord } from "../../src/domain/transcript.ts";
import type { Recognizer } from "../../src/pipeline/recognizer.ts";
import { openServices, startWorkers } from "../../src/server.ts";
import type { Clock, Services, Stoppable } from "../../src/services.ts";
import { loadSettings } from "../../src/settings.ts";
import { freshDatabase } from "./database.ts";

export const ADMIN_TOKEN = "test-admin-token-0123456789";

export interface TestHark {
  app: FastifyInstance;
  services: Services;
  dataDir: string;
  createAccount(name?: string): Promise<string>;
  upload(token: string, parts: UploadParts): Promise<LightMyRequestResponse>;
  /** An API call as `token`'s account; `json` is sent as an application/json body. */
  api(token: string, method: HTTPMethods, url: string, json?: unknown): Promise<LightMyRequestResponse>;
  /** Resolves when processing of `mediaId` has ended (now or already). */
  ended(mediaId: string): Promise<"finished" | "failed">;
  close(): Promise<void>;
}

export interface UploadParts {
  /** A file path, or raw bytes. */
  media?: string | Uint8Array;
  mediaType?: string;
  mediaUrl?: string;
  configuration?: unknown;
  metadata?: unknown;
  extra?: [string, string][];
}

let accounts = 0;

export async function startTestHark(
  env: Record<string, string> = {},
  options: {
    workers?: boolean;
    /** Every log line, at trace level, goes here too (tests of what is logged). */
    logLines?: string[];
    /** The time the API and the workers see, instead of the system's (tests of exact dates). */
    clock?: Clock;
    /**
     * For files that upload one recording many times to test what follows processing (callbacks): the
     * recogniser decodes each piece of audio once, and later uploads of the same bytes get the words it
     * heard. pocketsphinx hears the same words in the same samples, and a sentence costs it 2 s of CPU.
     */
    recognizeOnce?: boolean;
  } = {},
): Promise<TestHark> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-test-"));
  const database = await freshDatabase();
  const settings = loadSettings({
    HARK_DATA_DIR: dataDir,
    HARK_DATABASE_URL: database.url,
    HARK_DATABASE_POOL_SIZE: "6",
    HARK_ADMIN_TOKEN: ADMIN_TOKEN,
    HARK_LOG_LEVEL: "silent",
    ...env,
  });
  const log = options.logLines
    ? pino({ level: "trace" }, { write: (line: string) => void options.logLines?.push(line) })
    : pino({ level: process.env.HARK_TEST_LOG_LEVEL ?? "silent" });
  const opened = await openServices(settings, log);
  const services = {
    ...opened,
    ...(options.clock && { clock: options.clock }),
    ...(options.recognizeOnce && { recognizer: recognizingOnce(opened.recognizer) }),
  };
  let app: FastifyInstance;
  let workers: Stoppable | undefined;
  try {
    app = await buildApp(services);
    if (options.workers) workers = await startWorkers(services);
  } catch (error) {
    // What was started must stop, or the test file's process never ends.
    await services.stop();
    await database.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const harness: TestHark = {
    app,
    services,
    dataDir,
    async createAccount(name = `account-${process.pid}-${++accounts}`) {
      const response = await app.inject({
        method: "POST",
        url: "/admin/accounts",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { accountName: name },
      });
      if (response.statusCode !== 201) throw new Error(`account creation failed: ${response.body}`);
      return response.json().token as string;
    },
    api(token, method, url, json) {
      return app.inject({
        method,
        url,
        headers: {
          authorization: `Bearer ${token}`,
          ...(json !== undefined && { "content-type": "application/json" }),
        },
        ...(json !== undefined && { payload: JSON.stringify(json) }),
      });
    },
    async upload(token, parts) {
      const form = new FormData();
      if (parts.media !== undefined) {
        const blob =
          typeof parts.media === "string"
            ? await openAsBlob(parts.media, { type: parts.mediaType ?? "audio/x-wav" })
            : new Blob([parts.media], { type: parts.mediaType ?? "application/octet-stream" });
        form.append(
          "media",
          blob,
          typeof parts.media === "string" ? path.basename(parts.media) : "media.bin",
        );
      }
      if (parts.mediaUrl !== undefined) form.append("mediaUrl", parts.mediaUrl);
      if (parts.configuration !== undefined) form.append("configuration", text(parts.configuration));
      if (parts.metadata !== undefined) form.append("metadata", text(parts.metadata));
      for (const [name, value] of parts.extra ?? []) form.append(name, value);
      return app.inject({
        method: "POST",
        url: "/v3/media",
        headers: { authorization: `Bearer ${token}` },
        payload: form,
      });
    },
    ended(mediaId) {
      // Listen first, then look: an end between the two is caught either way.
      return new Promise((resolve, reject) => {
        const onEnded = (event: { mediaId: string; status: "finished" | "failed" }) => {
          if (event.mediaId !== mediaId) return;
          services.events.off("media.ended", onEnded);
          resolve(event.status);
        };
        services.events.on("media.ended", onEnded);
        services.db
          .query<{ status: string }>("select status from media where media_id = $1", [mediaId])
          .then(({ rows }) => {
            const status = rows[0]?.status;
            if (status === "finished" || status === "failed") {
              services.events.off("media.ended", onEnded);
              resolve(status);
            }
          }, reject);
      });
    },
    async close() {
      await workers?.stop();
      await app.close();
      await services.stop();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** `recognizer`, remembering the words of every piece of audio it has decoded, by its bytes. */
function recognizingOnce(recognizer: Recognizer): Recognizer {
  const heard = new Map<string, RecognizedWord[]>();
  return {
    async recognize(wavPath, offsetMs = 0, options) {
      // The vocabulary changes what is heard in the same bytes.
      const vocabulary = JSON.stringify(options?.vocabulary ?? []);
      const key = `${offsetMs} ${vocabulary} ${createHash("sha256")
        .update(await fs.readFile(wavPath))
        .digest("hex")}`;
      const known = heard.get(key);
      if (known) return structuredClone(known);
      // Only words heard to the end are kept: a recognition stopped or failed is tried afresh.
      const words = await recognizer.recognize(wavPath, offsetMs, options);
      heard.set(key, structuredClone(words));
      return words;
    },
  };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** Asserts a refusal in the error envelope, with `status` and first error `code`; returns its message. */
export function refused(response: LightMyRequestResponse, status: number, code: number): string {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json();
  assert.equal(body.status, status);
  assert.equal(body.errors[0].code, code, response.body);
  assert.equal(typeof body.reference, "string");
  return body.errors[0].error;
}
