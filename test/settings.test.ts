import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { definitions, loadSettings, SettingsError } from "../src/settings.ts";

/** Asserts that `env` is refused with a SettingsError whose message names `variable`. */
function assertRefused(env: Record<string, string>, variable: string): void {
  assert.throws(
    () => loadSettings(env),
    (error: unknown) => {
      assert.ok(error instanceof SettingsError, `expected a SettingsError, got ${String(error)}`);
      assert.match(error.message, new RegExp(`\\b${variable}\\b`));
      return true;
    },
  );
}

describe("loadSettings", () => {
  it("applies the documented defaults to an empty environment", () => {
    const settings = loadSettings({});
    assert.equal(settings.port, 8080);
    assert.equal(settings.host, "127.0.0.1");
    assert.equal(settings.dataDir, path.resolve("./data"));
    assert.ok(path.isAbsolute(settings.dataDir));
    assert.equal(settings.databaseUrl, undefined);
    assert.equal(settings.publicUrl, "http://127.0.0.1:8080");
    assert.equal(settings.adminToken, undefined);
    assert.equal(settings.callbackAllowHttp, false);
    assert.equal(settings.callbackAllowPrivate, false);
    assert.deepEqual(settings.callbackAllowCidrs, []);
    assert.equal(settings.logLevel, "info");
    assert.equal(settings.blobStore, "filesystem");
    assert.equal(settings.stopTimeoutSeconds, 30);
    assert.equal(settings.uploadIdleTimeoutSeconds, 30);
    assert.equal(settings.uploadTimeoutSeconds, 3600);
    assert.equal(settings.maxConnections, 1000);
  });

  it("limits each account by default, and derives its processing limit from the worker count", () => {
    const settings = loadSettings({});
    assert.equal(settings.accountUploadsPerMinute, 60);
    assert.equal(settings.accountRedeliveriesPerMinute, 20);
    assert.equal(settings.workerConcurrency, 2);
    assert.equal(settings.accountMaxProcessing, 1, "two workers: one is always left to other accounts");
    assert.equal(
      loadSettings({ HARK_WORKER_CONCURRENCY: "1" }).accountMaxProcessing,
      0,
      "one worker: no limit",
    );
    assert.equal(loadSettings({ HARK_WORKER_CONCURRENCY: "4" }).accountMaxProcessing, 3);
    const set = { HARK_WORKER_CONCURRENCY: "4", HARK_ACCOUNT_MAX_PROCESSING: "2" };
    assert.equal(loadSettings(set).accountMaxProcessing, 2);
    assertRefused({ HARK_ACCOUNT_UPLOADS_PER_MINUTE: "-1" }, "HARK_ACCOUNT_UPLOADS_PER_MINUTE");
  });

  it("treats empty values as unset", () => {
    const settings = loadSettings({
      PORT: "",
      HARK_CALLBACK_ALLOW_HTTP: "",
      HARK_ADMIN_TOKEN: "",
      HARK_PUBLIC_URL: "",
    });
    assert.equal(settings.port, 8080);
    assert.equal(settings.callbackAllowHttp, false);
    assert.equal(settings.adminToken, undefined);
    assert.equal(settings.publicUrl, "http://127.0.0.1:8080");
  });

  it("derives the default public URL from PORT", () => {
    assert.equal(loadSettings({ PORT: "9123" }).publicUrl, "http://127.0.0.1:9123");
    assert.equal(loadSettings({ PORT: "0" }).publicUrl, "http://127.0.0.1:0");
  });

  it("takes every override", () => {
    const settings = loadSettings({
      PORT: "9000",
      HARK_HOST: "0.0.0.0",
      HARK_DATA_DIR: "/var/lib/hark",
      HARK_DATABASE_URL: "postgresql://user:pw@db.example:5432/hark",
      HARK_DATABASE_POOL_SIZE: "4",
      HARK_PUBLIC_URL: "https://hark.example.com/base/",
      HARK_ADMIN_TOKEN: "0123456789abcdef",
      HARK_MAX_UPLOAD_BYTES: "1000",
      HARK_MAX_METADATA_BYTES: "2048",
      HARK_LIST_PAGE_METADATA_BYTES: "8192",
      HARK_MAX_MEDIA_SECONDS: "3600",
      HARK_UPLOAD_IDLE_TIMEOUT_SECONDS: "5",
      HARK_UPLOAD_TIMEOUT_SECONDS: "600",
      HARK_MAX_CONNECTIONS: "64",
      HARK_AUTH_FAILURES_PER_MINUTE: "5",
      HARK_TRUST_PROXY: "10.0.0.0/8, fd00::/8",
      HARK_DEFAULT_TTL_SECONDS: "60",
      HARK_STREAM_LINK_TTL_SECONDS: "120",
      HARK_CALLBACK_ALLOW_HTTP: "true",
      HARK_CALLBACK_ALLOW_PRIVATE: "YES",
      HARK_CALLBACK_ALLOW_CIDRS: "10.1.0.0/16, fd00:1::/32",
      HARK_WORKER_CONCURRENCY: "3",
      HARK_ACCOUNT_MAX_PROCESSING: "5",
      HARK_ACCOUNT_UPLOADS_PER_MINUTE: "600",
      HARK_ACCOUNT_REDELIVERIES_PER_MINUTE: "0",
      HARK_RECOGNIZER_CONCURRENCY: "2",
      HARK_POCKETSPHINX_MODEL_DIR: "/models/en",
      HARK_SWEEP_INTERVAL_SECONDS: "5",
      HARK_MEDIA_URL_TIMEOUT_SECONDS: "30",
      HARK_CALLBACK_SCHEDULE: "0, 30s, 2m,1h",
      HARK_CALLBACK_BURST: "2",
      HARK_CALLBACK_CONNECT_TIMEOUT: "3",
      HARK_CALLBACK_TIMEOUT: "9",
      HARK_CALLBACK_CONCURRENCY: "7",
      HARK_CALLBACK_INLINE_BODY_BYTES: "0",
      HARK_LOG_LEVEL: "DEBUG",
      HARK_STOP_TIMEOUT: "12",
      HARK_BLOB_STORE: "S3",
      HARK_S3_ENDPOINT: "http://minio.internal:9000/",
      HARK_S3_BUCKET: "hark-media",
      HARK_S3_REGION: "eu-west-1",
      HARK_S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      HARK_S3_SECRET_ACCESS_KEY: "secret/key",
      HARK_S3_FORCE_PATH_STYLE: "true",
    });
    assert.deepEqual(
      { ...settings },
      {
        port: 9000,
        host: "0.0.0.0",
        dataDir: "/var/lib/hark",
        databaseUrl: "postgresql://user:pw@db.example:5432/hark",
        databasePoolSize: 4,
        // A trailing slash is dropped, so links can be built by appending "/v3/...".
        publicUrl: "https://hark.example.com/base",
        adminToken: "0123456789abcdef",
        maxUploadBytes: 1000,
        maxMetadataBytes: 2048,
        listPageMetadataBytes: 8192,
        maxMediaSeconds: 3600,
        uploadIdleTimeoutSeconds: 5,
        uploadTimeoutSeconds: 600,
        maxConnections: 64,
        authFailuresPerMinute: 5,
        trustProxy: ["10.0.0.0/8", "fd00::/8"],
        defaultTtlSeconds: 60,
        streamLinkTtlSeconds: 120,
        callbackAllowHttp: true,
        callbackAllowPrivate: true,
        callbackAllowCidrs: ["10.1.0.0/16", "fd00:1::/32"],
        workerConcurrency: 3,
        accountMaxProcessing: 5,
        accountUploadsPerMinute: 600,
        accountRedeliveriesPerMinute: 0,
        recognizerConcurrency: 2,
        pocketsphinxModelDir: "/models/en",
        sweepIntervalSeconds: 5,
        mediaUrlTimeoutSeconds: 30,
        callbackScheduleMs: [0, 30_000, 120_000, 3_600_000],
        callbackBurst: 2,
        callbackConnectTimeoutMs: 3000,
        callbackTimeoutMs: 9000,
        callbackConcurrency: 7,
        callbackInlineBodyBytes: 0,
        logLevel: "debug",
        stopTimeoutSeconds: 12,
        blobStore: "s3",
        s3Endpoint: "http://minio.internal:9000",
        s3Bucket: "hark-media",
        s3Region: "eu-west-1",
        s3AccessKeyId: "AKIAEXAMPLE",
        s3SecretAccessKey: "secret/key",
        s3ForcePathStyle: true,
      },
    );
  });

  it("holds the connect timeout within the whole exchange's", () => {
    const settings = loadSettings({ HARK_CALLBACK_TIMEOUT: "2" });
    assert.equal(settings.callbackTimeoutMs, 2000);
    assert.equal(settings.callbackConnectTimeoutMs, 2000, "the 10 s default cannot outlast the 2 s exchange");
  });

  it("resolves a relative data directory against the working directory", () => {
    assert.equal(loadSettings({ HARK_DATA_DIR: "some/dir" }).dataDir, path.join(process.cwd(), "some/dir"));
  });

  it("reads every spelling of true and false", () => {
    for (const yes of ["1", "true", "TRUE", "yes", "on", " On "]) {
      assert.equal(loadSettings({ HARK_CALLBACK_ALLOW_HTTP: yes }).callbackAllowHttp, true, yes);
    }
    for (const no of ["0", "false", "no", "OFF"]) {
      assert.equal(loadSettings({ HARK_CALLBACK_ALLOW_HTTP: no }).callbackAllowHttp, false, no);
    }
  });

  it("returns a frozen object", () => {
    const settings = loadSettings({});
    assert.ok(Object.isFrozen(settings));
    assert.throws(() => {
      (settings as { port: number }).port = 1;
    }, TypeError);
    assert.equal(settings.port, 8080);
  });

  it("refuses a port that is not a whole number", () => {
    assertRefused({ PORT: "abc" }, "PORT");
    assertRefused({ PORT: "80.5" }, "PORT");
    assertRefused({ PORT: "-1" }, "PORT");
  });

  it("refuses a port out of range", () => {
    assertRefused({ PORT: "65536" }, "PORT");
    assert.equal(loadSettings({ PORT: "65535" }).port, 65535);
  });

  it("refuses other numbers out of range, naming the variable", () => {
    assertRefused({ HARK_DATABASE_POOL_SIZE: "1" }, "HARK_DATABASE_POOL_SIZE");
    assertRefused({ HARK_WORKER_CONCURRENCY: "65" }, "HARK_WORKER_CONCURRENCY");
    assertRefused({ HARK_SWEEP_INTERVAL_SECONDS: "0" }, "HARK_SWEEP_INTERVAL_SECONDS");
    assertRefused({ HARK_MAX_UPLOAD_BYTES: "lots" }, "HARK_MAX_UPLOAD_BYTES");
    assertRefused({ HARK_UPLOAD_IDLE_TIMEOUT_SECONDS: "0" }, "HARK_UPLOAD_IDLE_TIMEOUT_SECONDS");
    assertRefused({ HARK_UPLOAD_TIMEOUT_SECONDS: "0" }, "HARK_UPLOAD_TIMEOUT_SECONDS");
    assertRefused({ HARK_MAX_CONNECTIONS: "0" }, "HARK_MAX_CONNECTIONS");
  });

  it("refuses a boolean it cannot read", () => {
    assertRefused({ HARK_CALLBACK_ALLOW_HTTP: "maybe" }, "HARK_CALLBACK_ALLOW_HTTP");
    assertRefused({ HARK_CALLBACK_ALLOW_PRIVATE: "2" }, "HARK_CALLBACK_ALLOW_PRIVATE");
  });

  it("reads the allowed CIDRs as a frozen list, IPv4 and IPv6, ignoring spaces and empty entries", () => {
    const settings = loadSettings({ HARK_CALLBACK_ALLOW_CIDRS: " 127.0.0.0/8 ,, ::1/128,192.168.1.7/32, " });
    assert.deepEqual(settings.callbackAllowCidrs, ["127.0.0.0/8", "::1/128", "192.168.1.7/32"]);
    assert.ok(Object.isFrozen(settings.callbackAllowCidrs));
    assert.deepEqual(loadSettings({ HARK_CALLBACK_ALLOW_CIDRS: "" }).callbackAllowCidrs, []);
  });

  it("refuses a malformed allowed CIDR, naming the variable and the entry", () => {
    for (const bad of [
      "10.0.0.0",
      "10.0.0.0/33",
      "fd00::/129",
      "10.0.0/8",
      "127.1/8",
      "10.1.2.3/8",
      "fd00::1/8",
      "fe80::%eth0/64",
      "hooks.example/24",
      "10.0.0.0/8;192.168.0.0/16",
      "10.0.0.0/-1",
    ]) {
      assertRefused({ HARK_CALLBACK_ALLOW_CIDRS: `172.16.0.0/12,${bad}` }, "HARK_CALLBACK_ALLOW_CIDRS");
      assert.throws(
        () => loadSettings({ HARK_CALLBACK_ALLOW_CIDRS: bad }),
        (error: Error) => error.message.includes(bad),
        bad,
      );
    }
  });

  it("refuses a public URL that is not an absolute http(s) URL", () => {
    assertRefused({ HARK_PUBLIC_URL: "hark.example.com" }, "HARK_PUBLIC_URL");
    assertRefused({ HARK_PUBLIC_URL: "ftp://hark.example.com" }, "HARK_PUBLIC_URL");
  });

  it("refuses an admin token shorter than 16 characters", () => {
    assertRefused({ HARK_ADMIN_TOKEN: "short" }, "HARK_ADMIN_TOKEN");
    assertRefused({ HARK_ADMIN_TOKEN: "0123456789abcde" }, "HARK_ADMIN_TOKEN");
  });

  it("refuses an admin token with padding or too little variety, in one line naming the variable", () => {
    for (const token of [
      " ".repeat(16),
      " 0123456789abcdef",
      "0123456789abcdef\n",
      "a".repeat(40),
      "abababababababababab",
      "1234512345123451234512345",
    ]) {
      assertRefused({ HARK_ADMIN_TOKEN: token }, "HARK_ADMIN_TOKEN");
    }
    assert.throws(
      () => loadSettings({ HARK_ADMIN_TOKEN: "a".repeat(40) }),
      (error: Error) => !error.message.includes("\n"),
    );
    // Long and varied enough: hex, a passphrase, a base64url secret.
    for (const token of ["0123456789abcdef", "correct-horse-battery", "kT3_x9Qm-LpZ2vW8"]) {
      assert.equal(loadSettings({ HARK_ADMIN_TOKEN: token }).adminToken, token);
    }
  });

  it("refuses an unknown log level", () => {
    assertRefused({ HARK_LOG_LEVEL: "verbose" }, "HARK_LOG_LEVEL");
  });

  it("refuses a database URL that is not postgres://", () => {
    assertRefused({ HARK_DATABASE_URL: "mysql://db.example/hark" }, "HARK_DATABASE_URL");
    assertRefused({ HARK_DATABASE_URL: "db.example:5432" }, "HARK_DATABASE_URL");
  });

  it("refuses an unknown blob store, and an S3 store without its bucket", () => {
    assertRefused({ HARK_BLOB_STORE: "gcs" }, "HARK_BLOB_STORE");
    assertRefused({ HARK_BLOB_STORE: "s3" }, "HARK_S3_BUCKET");
    assertRefused({ HARK_S3_ENDPOINT: "minio:9000" }, "HARK_S3_ENDPOINT");
  });

  it("refuses an S3 access key without its secret, and a secret without its key", () => {
    assertRefused({ HARK_S3_ACCESS_KEY_ID: "AKIAEXAMPLE" }, "HARK_S3_SECRET_ACCESS_KEY");
    assertRefused({ HARK_S3_SECRET_ACCESS_KEY: "secret" }, "HARK_S3_ACCESS_KEY_ID");
  });

  it("is documented in the README, every variable with its default", () => {
    const readme = readFileSync(path.join(import.meta.dirname, "..", "README.md"), "utf8");
    for (const { variable, shownDefault } of Object.values(definitions)) {
      const row = readme.split("\n").find((line) => line.startsWith(`| \`${variable}\` `));
      assert.ok(row, `${variable} has a row in the README's settings table`);
      assert.ok(row.includes(shownDefault), `${variable}'s row shows its default, ${shownDefault}`);
    }
  });
});
