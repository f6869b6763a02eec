/**
 * Every setting Hark has: its environment variable, default and meaning, in one table. `loadSettings` reads
 * them once at start into a frozen object; nothing else reads the environment. A bad value stops the start
 * with a message that names the variable.
 */
import path from "node:path";
import { DEFAULT_BURST, DEFAULT_SCHEDULE_TEXT, parseScheduleOffsets } from "./domain/schedule.ts";
import { parseCidr } from "./net/address.ts";

export interface Settings {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** Unset: Hark runs its own embedded PostgreSQL server in `dataDir`. */
  readonly databaseUrl: string | undefined;
  readonly databasePoolSize: number;
  readonly publicUrl: string;
  /** Unset: the admin API is disabled. */
  readonly adminToken: string | undefined;
  readonly maxUploadBytes: number;
  /** Largest `metadata` accepted (upload, reprocess, PUT), as compact JSON bytes. */
  readonly maxMetadataBytes: number;
  /** Metadata bytes one page of `GET /v3/media` holds at most; beyond it the page ends early, with `next`. */
  readonly listPageMetadataBytes: number;
  /** Longest media accepted, in seconds of audio: what the container says, and what decoding yields. */
  readonly maxMediaSeconds: number;
  /** Seconds a request body may send nothing before the request is refused (408) and its bytes dropped. */
  readonly uploadIdleTimeoutSeconds: number;
  /** Seconds a whole request body may take to arrive. */
  readonly uploadTimeoutSeconds: number;
  /** Connections one process holds open at once; more are refused at accept. */
  readonly maxConnections: number;
  /** Failed authentications one client address may have in a minute; 0: no limit. */
  readonly authFailuresPerMinute: number;
  /** CIDRs of proxies whose `X-Forwarded-For` names the client; empty: the connection's address is. */
  readonly trustProxy: readonly string[];
  readonly defaultTtlSeconds: number;
  readonly streamLinkTtlSeconds: number;
  readonly callbackAllowHttp: boolean;
  readonly callbackAllowPrivate: boolean;
  /** Non-public networks callbacks and media downloads may reach all the same, as CIDRs. */
  readonly callbackAllowCidrs: readonly string[];
  readonly workerConcurrency: number;
  /** Process jobs of one account running at once, over every process; 0: no limit. */
  readonly accountMaxProcessing: number;
  /** Uploads and reprocesses one account may make in a minute; 0: no limit. */
  readonly accountUploadsPerMinute: number;
  /** Callback redeliveries one account may ask for in a minute; 0: no limit. */
  readonly accountRedeliveriesPerMinute: number;
  readonly recognizerConcurrency: number;
  readonly pocketsphinxModelDir: string;
  readonly sweepIntervalSeconds: number;
  readonly mediaUrlTimeoutSeconds: number;
  readonly callbackScheduleMs: readonly number[];
  readonly callbackBurst: number;
  readonly callbackConnectTimeoutMs: number;
  readonly callbackTimeoutMs: number;
  readonly callbackConcurrency: number;
  readonly callbackInlineBodyBytes: number;
  readonly logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Seconds a stopping process lets its running work finish before handing the rest back. */
  readonly stopTimeoutSeconds: number;
  readonly blobStore: "filesystem" | "s3";
  /** Unset: AWS's own endpoint for the region. */
  readonly s3Endpoint: string | undefined;
  /** Required when `blobStore` is `s3`. */
  readonly s3Bucket: string | undefined;
  readonly s3Region: string;
  /** Both unset: the AWS SDK's default credential chain (environment, instance role). */
  readonly s3AccessKeyId: string | undefined;
  readonly s3SecretAccessKey: string | undefined;
  readonly s3ForcePathStyle: boolean;
}

export class SettingsError extends Error {
  override name = "SettingsError";
}

type Env = Readonly<Record<string, string | undefined>>;

interface Definition<T> {
  readonly variable: string;
  readonly description: string;
  /** The default as documented in the README. */
  readonly shownDefault: string;
  readonly parse: (raw: string | undefined, env: Env) => T;
}

/** A comma-separated list of CIDRs, each checked. */
function cidrList(variable: string) {
  return (raw: string | undefined): readonly string[] => {
    const entries = (raw ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    for (const entry of entries) {
      try {
        parseCidr(entry);
      } catch (error) {
        throw new SettingsError(`${variable}: ${(error as Error).message}`);
      }
    }
    return Object.freeze(entries);
  };
}

function integer(variable: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string | undefined): number => {
    if (raw === undefined || raw === "") return fallback;
    if (!/^\d+$/.test(raw.trim())) {
      throw new SettingsError(`${variable} must be a whole number, got "${raw}"`);
    }
    const value = Number(raw.trim());
    if (value < min || value > max) {
      throw new SettingsError(`${variable} must be between ${min} and ${max}, got ${value}`);
    }
    return value;
  };
}

function boolean(variable: string) {
  return (raw: string | undefined): boolean => {
    if (raw === undefined || raw === "") return false;
    const value = raw.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(value)) return true;
    if (["0", "false", "no", "off"].includes(value)) return false;
    throw new SettingsError(`${variable} must be true or false, got "${raw}"`);
  };
}

function text(fallback: string | undefined) {
  return (raw: string | undefined): string | undefined => (raw === undefined || raw === "" ? fallback : raw);
}

/**
 * The admin token creates accounts, so a weak one gives the service away: spaces, padding copied with it
 * from a file, or a repeated pattern that passes a length check alone.
 */
function checkAdminToken(value: string): void {
  if (value.trim() !== value) {
    throw new SettingsError(
      "HARK_ADMIN_TOKEN has whitespace at its start or end; remove it (a token copied from a file often brings a newline)",
    );
  }
  if (value.length < 16) {
    throw new SettingsError("HARK_ADMIN_TOKEN must be at least 16 characters long");
  }
  if (new Set(value).size < 8) {
    throw new SettingsError(
      "HARK_ADMIN_TOKEN must have at least 8 different characters; use a random one, e.g. `openssl rand -hex 24`",
    );
  }
}

function httpUrl(variable: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingsError(`${variable} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new SettingsError(`${variable} must be an http or https URL, got "${raw}"`);
  }
  return url.href.replace(/\/+$/, "");
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const DEFAULT_PORT = 8080;

export const definitions = {
  port: {
    variable: "PORT",
    description: "TCP port of the HTTP API.",
    shownDefault: String(DEFAULT_PORT),
    parse: integer("PORT", DEFAULT_PORT, 0, 65535),
  },
  host: {
    variable: "HARK_HOST",
    description: "Address the HTTP API listens on; `0.0.0.0` to serve other machines.",
    shownDefault: "127.0.0.1",
    parse: (raw) => text("127.0.0.1")(raw) as string,
  },
  dataDir: {
    variable: "HARK_DATA_DIR",
    description: "Media bytes and, without `HARK_DATABASE_URL`, the embedded PostgreSQL cluster.",
    shownDefault: "./data",
    parse: (raw) => path.resolve(text("./data")(raw) as string),
  },
  databaseUrl: {
    variable: "HARK_DATABASE_URL",
    description: "`postgres://` URL of an external PostgreSQL (13 or newer). Unset: an embedded server.",
    shownDefault: "(embedded)",
    parse: (raw) => {
      const value = text(undefined)(raw);
      if (value !== undefined && !/^postgres(ql)?:\/\//.test(value)) {
        throw new SettingsError(`HARK_DATABASE_URL must start with postgres:// or postgresql://`);
      }
      return value;
    },
  },
  databasePoolSize: {
    variable: "HARK_DATABASE_POOL_SIZE",
    description: "Connections each process keeps open to PostgreSQL.",
    shownDefault: "10",
    parse: integer("HARK_DATABASE_POOL_SIZE", 10, 2, 1000),
  },
  publicUrl: {
    variable: "HARK_PUBLIC_URL",
    description: "Base URL clients reach Hark at; used for `_links` and stream locations.",
    shownDefault: `http://127.0.0.1:$PORT`,
    parse: (raw, env) => {
      const value = text(undefined)(raw);
      if (value !== undefined) return httpUrl("HARK_PUBLIC_URL", value);
      const port = integer("PORT", DEFAULT_PORT, 0, 65535)(env.PORT);
      return `http://127.0.0.1:${port}`;
    },
  },
  adminToken: {
    variable: "HARK_ADMIN_TOKEN",
    description:
      "Bearer token of the admin API (`POST /admin/accounts`): 16 characters or more, at least 8 of them different, no space at either end (e.g. `openssl rand -hex 24`). Unset: the admin API is off.",
    shownDefault: "(unset)",
    parse: (raw) => {
      const value = text(undefined)(raw);
      if (value !== undefined) checkAdminToken(value);
      return value;
    },
  },
  maxUploadBytes: {
    variable: "HARK_MAX_UPLOAD_BYTES",
    description: "Largest media file accepted; a larger upload is refused with 413.",
    shownDefault: String(2 * 1024 ** 3),
    parse: integer("HARK_MAX_UPLOAD_BYTES", 2 * 1024 ** 3, 1),
  },
  maxMetadataBytes: {
    variable: "HARK_MAX_METADATA_BYTES",
    description:
      "Largest `metadata` accepted at upload, reprocess and `PUT .../metadata`, counted as compact JSON in UTF-8 bytes; larger is refused with 413 (10800) and nothing is stored.",
    shownDefault: String(64 * 1024),
    // At most 1 MiB: a text part and a JSON body are cut off there anyway.
    parse: integer("HARK_MAX_METADATA_BYTES", 64 * 1024, 1024, 1024 ** 2),
  },
  listPageMetadataBytes: {
    variable: "HARK_LIST_PAGE_METADATA_BYTES",
    description:
      "Metadata bytes one page of `GET /v3/media` holds at most: a page ends before `limit` when its items' metadata would pass this, and its `next` link continues from there. A page always holds at least one item.",
    shownDefault: String(4 * 1024 ** 2),
    parse: integer("HARK_LIST_PAGE_METADATA_BYTES", 4 * 1024 ** 2, 1024),
  },
  maxMediaSeconds: {
    variable: "HARK_MAX_MEDIA_SECONDS",
    description:
      "Longest media accepted, in seconds of audio. Longer is refused at upload (413, code 11103) when the container says its length, else the item fails with 11103 before it is transcribed; decoding stops there whatever the container claims.",
    shownDefault: "14400",
    parse: integer("HARK_MAX_MEDIA_SECONDS", 14400, 1, 7 * 86400),
  },
  uploadIdleTimeoutSeconds: {
    variable: "HARK_UPLOAD_IDLE_TIMEOUT_SECONDS",
    description:
      "Seconds a request body (an upload) may send nothing; then it is refused with 408 and what came of it is dropped.",
    shownDefault: "30",
    parse: integer("HARK_UPLOAD_IDLE_TIMEOUT_SECONDS", 30, 1, 3600),
  },
  uploadTimeoutSeconds: {
    variable: "HARK_UPLOAD_TIMEOUT_SECONDS",
    description:
      "Seconds a whole request body (an upload) may take to arrive; longer is refused with 408. Leftover partial uploads older than this are removed at start.",
    shownDefault: "3600",
    parse: integer("HARK_UPLOAD_TIMEOUT_SECONDS", 3600, 1, 7 * 86400),
  },
  maxConnections: {
    variable: "HARK_MAX_CONNECTIONS",
    description:
      "HTTP connections one process holds open at once (Node's `server.maxConnections`); more are closed as they arrive.",
    shownDefault: "1000",
    parse: integer("HARK_MAX_CONNECTIONS", 1000, 1, 1_000_000),
  },
  defaultTtlSeconds: {
    variable: "HARK_DEFAULT_TTL_SECONDS",
    description:
      "Time to live of media whose configuration sets no `timeToLiveInSeconds` (121 days, as VoiceBase).",
    shownDefault: String(121 * 86400),
    parse: integer("HARK_DEFAULT_TTL_SECONDS", 121 * 86400, 1),
  },
  streamLinkTtlSeconds: {
    variable: "HARK_STREAM_LINK_TTL_SECONDS",
    description:
      "How long a `streamLocation` link works without the account's token, from when its document is rendered. A day by default: a callback body's links must outlast the 15 h 45 min retry schedule.",
    shownDefault: String(86400),
    parse: integer("HARK_STREAM_LINK_TTL_SECONDS", 86400, 60),
  },
  callbackAllowHttp: {
    variable: "HARK_CALLBACK_ALLOW_HTTP",
    description: "Accept `http://` callback and media URLs (development only).",
    shownDefault: "false",
    parse: boolean("HARK_CALLBACK_ALLOW_HTTP"),
  },
  callbackAllowPrivate: {
    variable: "HARK_CALLBACK_ALLOW_PRIVATE",
    description:
      "Turn the address guard off: callback and media URLs may reach any address (development only).",
    shownDefault: "false",
    parse: boolean("HARK_CALLBACK_ALLOW_PRIVATE"),
  },
  callbackAllowCidrs: {
    variable: "HARK_CALLBACK_ALLOW_CIDRS",
    description:
      "Comma-separated CIDRs, IPv4 or IPv6, that callback and media URLs may reach though not public.",
    shownDefault: "(none)",
    parse: cidrList("HARK_CALLBACK_ALLOW_CIDRS"),
  },
  authFailuresPerMinute: {
    variable: "HARK_AUTH_FAILURES_PER_MINUTE",
    description:
      "Failed authentications (a wrong token, API key or admin token) one client address (an IPv6 /64) may have in a minute; past them every token from it is refused with 429 (11411) and `Retry-After` until the minute is over. Each API process counts its own. 0: no limit.",
    shownDefault: "10",
    parse: integer("HARK_AUTH_FAILURES_PER_MINUTE", 10, 0, 1_000_000),
  },
  trustProxy: {
    variable: "HARK_TRUST_PROXY",
    description:
      "Comma-separated CIDRs of the reverse proxies in front of Hark: a request from one of them is taken to come from the address its `X-Forwarded-For` names (for the failed-authentication limit and the logs). Unset: the connection's address, so behind a proxy every client shares the proxy's.",
    shownDefault: "(none)",
    parse: cidrList("HARK_TRUST_PROXY"),
  },
  workerConcurrency: {
    variable: "HARK_WORKER_CONCURRENCY",
    description:
      "Media items one process works on at once. They share the process's speech-recognition processes (`HARK_RECOGNIZER_CONCURRENCY`), so a second item costs little CPU; it is there so that one account's long call or stalled `mediaUrl` download does not hold up the others (see `HARK_ACCOUNT_MAX_PROCESSING`). 0: this process runs no processing.",
    shownDefault: "2",
    parse: integer("HARK_WORKER_CONCURRENCY", 2, 0, 64),
  },
  accountMaxProcessing: {
    variable: "HARK_ACCOUNT_MAX_PROCESSING",
    description:
      "Media items of one account processed at once, counted over every process (a `mediaUrl` download is part of its item's processing): one account's backlog or stalled downloads then leave the other slots to other accounts. The default leaves one of a process's workers to other accounts: `HARK_WORKER_CONCURRENCY` less one; with one worker a process cannot be fair, and the default is no limit (with several processes of one worker each, set it below their total). 0: no limit.",
    shownDefault: "workers − 1",
    parse: (raw, env) => {
      if (raw !== undefined && raw !== "") return integer("HARK_ACCOUNT_MAX_PROCESSING", 0, 0, 1000)(raw);
      // One slot per process: a limit of 1 would only keep a lone account off other processes' slots.
      const workers = integer("HARK_WORKER_CONCURRENCY", 2, 0, 64)(env.HARK_WORKER_CONCURRENCY);
      return Math.max(0, workers - 1);
    },
  },
  accountUploadsPerMinute: {
    variable: "HARK_ACCOUNT_UPLOADS_PER_MINUTE",
    description:
      "Uploads (`POST /v3/media`) and reprocesses (`POST /v3/media/{mediaId}`) one account may make in any minute; more are refused with 429 and `Retry-After`. 0: no limit.",
    shownDefault: "60",
    parse: integer("HARK_ACCOUNT_UPLOADS_PER_MINUTE", 60, 0, 1_000_000),
  },
  accountRedeliveriesPerMinute: {
    variable: "HARK_ACCOUNT_REDELIVERIES_PER_MINUTE",
    description:
      "Callback redeliveries one account may ask for in any minute, over all its callbacks (each one also at most once a minute); more are refused with 429 and `Retry-After`. 0: no limit.",
    shownDefault: "20",
    parse: integer("HARK_ACCOUNT_REDELIVERIES_PER_MINUTE", 20, 0, 1_000_000),
  },
  recognizerConcurrency: {
    variable: "HARK_RECOGNIZER_CONCURRENCY",
    description:
      "Speech-recognition processes one process runs at once, over every item it is working on. 0: one per core.",
    shownDefault: "0",
    parse: integer("HARK_RECOGNIZER_CONCURRENCY", 0, 0, 256),
  },
  pocketsphinxModelDir: {
    variable: "HARK_POCKETSPHINX_MODEL_DIR",
    description:
      "pocketsphinx acoustic model, language model and dictionary (Debian's `pocketsphinx-en-us`).",
    shownDefault: "/usr/share/pocketsphinx/model/en-us",
    parse: (raw) => text("/usr/share/pocketsphinx/model/en-us")(raw) as string,
  },
  sweepIntervalSeconds: {
    variable: "HARK_SWEEP_INTERVAL_SECONDS",
    description:
      "How often expired media are looked for and deleted, and media left without a processing job are ended `failed`.",
    shownDefault: "60",
    parse: integer("HARK_SWEEP_INTERVAL_SECONDS", 60, 1, 86400),
  },
  mediaUrlTimeoutSeconds: {
    variable: "HARK_MEDIA_URL_TIMEOUT_SECONDS",
    description: "Limit on downloading a `mediaUrl`.",
    shownDefault: "300",
    parse: integer("HARK_MEDIA_URL_TIMEOUT_SECONDS", 300, 1, 86400),
  },
  callbackScheduleMs: {
    variable: "HARK_CALLBACK_SCHEDULE",
    description:
      "When each scheduled attempt of a callback starts, as offsets from its first try (units s, m, h).",
    shownDefault: DEFAULT_SCHEDULE_TEXT,
    parse: (raw) => {
      try {
        return Object.freeze(parseScheduleOffsets(text(DEFAULT_SCHEDULE_TEXT)(raw) as string));
      } catch (error) {
        throw new SettingsError(`HARK_CALLBACK_SCHEDULE: ${(error as Error).message}`);
      }
    },
  },
  callbackBurst: {
    variable: "HARK_CALLBACK_BURST",
    description: "Tries in a row at each scheduled attempt, stopping at the first success.",
    shownDefault: String(DEFAULT_BURST),
    parse: integer("HARK_CALLBACK_BURST", DEFAULT_BURST, 1, 20),
  },
  callbackConnectTimeoutMs: {
    variable: "HARK_CALLBACK_CONNECT_TIMEOUT",
    description: "Seconds to wait for a callback receiver to accept the connection; longer is a failed try.",
    shownDefault: "10",
    parse: (raw) => integer("HARK_CALLBACK_CONNECT_TIMEOUT", 10, 1, 600)(raw) * 1000,
  },
  callbackTimeoutMs: {
    variable: "HARK_CALLBACK_TIMEOUT",
    description:
      "Seconds a whole callback exchange may take (connect, send, answer); longer is a failed try.",
    shownDefault: "30",
    parse: (raw) => integer("HARK_CALLBACK_TIMEOUT", 30, 1, 3600)(raw) * 1000,
  },
  callbackConcurrency: {
    variable: "HARK_CALLBACK_CONCURRENCY",
    description: "Callback deliveries one process makes at once; one slow receiver holds up only its own.",
    shownDefault: "50",
    parse: integer("HARK_CALLBACK_CONCURRENCY", 50, 0, 10_000),
  },
  callbackInlineBodyBytes: {
    variable: "HARK_CALLBACK_INLINE_BODY_BYTES",
    description:
      "Rendered callback bodies up to this size are kept in the database with their delivery; larger ones (a long call's transcript) in the blob store. 0: every body in the blob store.",
    shownDefault: String(64 * 1024),
    parse: integer("HARK_CALLBACK_INLINE_BODY_BYTES", 64 * 1024, 0, 64 * 1024 * 1024),
  },
  logLevel: {
    variable: "HARK_LOG_LEVEL",
    description: "pino log level: fatal, error, warn, info, debug, trace or silent.",
    shownDefault: "info",
    parse: (raw) => {
      const value = (text("info")(raw) as string).toLowerCase();
      if (!(LOG_LEVELS as readonly string[]).includes(value)) {
        throw new SettingsError(`HARK_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${raw}"`);
      }
      return value as Settings["logLevel"];
    },
  },
  stopTimeoutSeconds: {
    variable: "HARK_STOP_TIMEOUT",
    description:
      "Seconds a process told to stop (SIGTERM) lets running processing and callbacks finish; what is still running then is handed back for another process to take at once.",
    shownDefault: "30",
    parse: integer("HARK_STOP_TIMEOUT", 30, 1, 3600),
  },
  blobStore: {
    variable: "HARK_BLOB_STORE",
    description:
      "Where media and large callback bodies live: `filesystem` (in `HARK_DATA_DIR`) or `s3` (any S3-compatible store; set `HARK_S3_*`).",
    shownDefault: "filesystem",
    parse: (raw) => {
      const value = (text("filesystem")(raw) as string).trim().toLowerCase();
      if (value !== "filesystem" && value !== "s3") {
        throw new SettingsError(`HARK_BLOB_STORE must be filesystem or s3, got "${raw}"`);
      }
      return value;
    },
  },
  s3Endpoint: {
    variable: "HARK_S3_ENDPOINT",
    description: "URL of the S3-compatible store (MinIO, Ceph, R2, ...). Unset: AWS S3 in `HARK_S3_REGION`.",
    shownDefault: "(AWS)",
    parse: (raw) => {
      const value = text(undefined)(raw);
      return value === undefined ? undefined : httpUrl("HARK_S3_ENDPOINT", value);
    },
  },
  s3Bucket: {
    variable: "HARK_S3_BUCKET",
    description: "Bucket that holds Hark's blobs; it must exist. Required with `HARK_BLOB_STORE=s3`.",
    shownDefault: "(unset)",
    parse: text(undefined),
  },
  s3Region: {
    variable: "HARK_S3_REGION",
    description: "Region of the bucket (most S3-compatible stores accept any).",
    shownDefault: "us-east-1",
    parse: (raw) => text("us-east-1")(raw) as string,
  },
  s3AccessKeyId: {
    variable: "HARK_S3_ACCESS_KEY_ID",
    description: "Access key of the store. Unset (with the secret): the AWS SDK's default credential chain.",
    shownDefault: "(unset)",
    parse: text(undefined),
  },
  s3SecretAccessKey: {
    variable: "HARK_S3_SECRET_ACCESS_KEY",
    description: "Secret of that access key.",
    shownDefault: "(unset)",
    parse: text(undefined),
  },
  s3ForcePathStyle: {
    variable: "HARK_S3_FORCE_PATH_STYLE",
    description:
      "Address the bucket as `endpoint/bucket` rather than `bucket.endpoint` (MinIO and most self-hosted stores need this).",
    shownDefault: "false",
    parse: boolean("HARK_S3_FORCE_PATH_STYLE"),
  },
} satisfies { [K in keyof Settings]: Definition<Settings[K]> };

/** Reads every setting from `env`; throws a `SettingsError` naming the first bad variable. */
export function loadSettings(env: Env): Settings {
  const settings: Record<string, unknown> = {};
  for (const [key, definition] of Object.entries(definitions)) {
    settings[key] = (definition as Definition<unknown>).parse(env[definition.variable], env);
  }
  // Connecting is part of the whole exchange: its limit can be no longer than the exchange's.
  settings.callbackConnectTimeoutMs = Math.min(
    settings.callbackConnectTimeoutMs as number,
    settings.callbackTimeoutMs as number,
  );
  if (settings.blobStore === "s3" && settings.s3Bucket === undefined) {
    throw new SettingsError("HARK_S3_BUCKET must be set when HARK_BLOB_STORE is s3");
  }
  if ((settings.s3AccessKeyId === undefined) !== (settings.s3SecretAccessKey === undefined)) {
    throw new SettingsError("HARK_S3_ACCESS_KEY_ID and HARK_S3_SECRET_ACCESS_KEY must be set together");
  }
  return Object.freeze(settings as unknown as Settings);
}
