/**
 * `GET /openapi.json` and `/docs`, and that the description stays honest: it is generated from the route
 * schemas, a route without one cannot be added, what it says of tokens, bodies and errors holds, and a
 * client generated from it with openapi-typescript can read a media document's sections and a callback
 * body. (`npm run lint:openapi`, part of `npm test`, runs Redocly's recommended rules over the copy.)
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { HTTPMethods, LightMyRequestResponse } from "fastify";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { buildApp, describeApi } from "../../src/api/app.ts";
import { DOCUMENTED_URL, OPENAPI_FILE, openApiFileText } from "../../src/api/openapi.ts";
import { errorCodes, messageCodes } from "../../src/domain/errors.ts";
import { loadSettings } from "../../src/settings.ts";
import { ADMIN_TOKEN, startTestHark, type TestHark } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

const ROOT = path.join(import.meta.dirname, "..", "..");
const PUBLIC_URL = "https://hark.example.com";
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];
const SOME_ID = "00000000-0000-4000-8000-000000000000";

type Json = { [key: string]: unknown };
interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema?: Json }> };
  responses: Record<string, { description: string }>;
}

function operations(document: Json, key: "paths" | "webhooks" = "paths"): [string, string, Operation][] {
  return Object.entries(document[key] as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]): [string, string, Operation] => [method.toUpperCase(), path, operation]),
  );
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

describe("the OpenAPI description", () => {
  let hark: TestHark;
  let served: LightMyRequestResponse;
  let document: Json;
  before(async () => {
    hark = await startTestHark({ HARK_PUBLIC_URL: PUBLIC_URL });
    served = await hark.app.inject({ method: "GET", url: "/openapi.json" });
    document = served.statusCode === 200 ? served.json() : {};
  });
  after(() => hark.close());

  test("is served without a token, as OpenAPI 3.1 for the public URL and package version", async () => {
    assert.equal(served.statusCode, 200, served.body);
    assert.match(String(served.headers["content-type"]), /^application\/json/);
    assert.match(String(document.openapi), /^3\.1\./);
    assert.deepEqual(
      (document.servers as { url: string }[]).map((server) => server.url),
      [PUBLIC_URL],
    );
    const info = document.info as Json;
    assert.equal(info.title, "Hark");
    const pkg = await import("../../package.json", { with: { type: "json" } });
    assert.equal(info.version, pkg.default.version);
  });

  test("is what the repository's copy says (npm run openapi writes it)", async () => {
    const copy = await readFile(path.join(ROOT, OPENAPI_FILE), "utf8");
    const made = openApiFileText(await describeApi(loadSettings({ HARK_LOG_LEVEL: "silent" })));
    assert.ok(copy === made, `${OPENAPI_FILE} is out of date: run npm run openapi`);
    assert.equal((JSON.parse(copy).servers as { url: string }[])[0]?.url, DOCUMENTED_URL);
  });

  test("Swagger UI shows it at /docs, without a token", async () => {
    const page = await hark.app.inject({ method: "GET", url: "/docs" });
    assert.equal(page.statusCode, 200, page.body);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    assert.match(page.body, /swagger-ui/i);
    const json = await hark.app.inject({ method: "GET", url: "/docs/json" });
    assert.equal(json.statusCode, 200);
    assert.deepEqual(Object.keys(json.json().paths), Object.keys(document.paths as Json));
  });

  test("a route that does not describe itself cannot be added", async () => {
    const app = await buildApp(hark.services);
    try {
      assert.throws(
        () => app.get("/undocumented", async () => "hidden"),
        /GET \/undocumented needs a schema with operationId, summary, tags and response/,
      );
    } finally {
      await app.close();
    }
  });

  test("every documented operation is a route that answers", async () => {
    const token = await hark.createAccount();
    for (const [method, path] of operations(document)) {
      const url = path.replace(/\{[^}]+\}/g, SOME_ID);
      const bearer = path.startsWith("/admin/") ? ADMIN_TOKEN : token;
      const response = await hark.app.inject({
        method: method as HTTPMethods,
        url,
        headers: { authorization: `Bearer ${bearer}` },
      });
      const codes =
        response.statusCode === 404 ? response.json().errors.map((e: { code: number }) => e.code) : [];
      assert.ok(
        !codes.includes(errorCodes.routeNotFound.code),
        `${method} ${path} is documented but not a route`,
      );
    }
  });

  test("every operation has an id, a summary, a tag, a 2xx answer, and a 401 when it takes a token", () => {
    const ids = new Set<string>();
    for (const [method, path, operation] of [...operations(document), ...operations(document, "webhooks")]) {
      const name = `${method} ${path}`;
      const id = operation.operationId;
      assert.ok(id && !ids.has(id), `${name}: operationId ${id} missing or used twice`);
      ids.add(id);
      assert.ok(operation.summary, `${name} has no summary`);
      assert.equal(operation.tags?.length, 1, `${name} has no tag`);
      const statuses = Object.keys(operation.responses);
      assert.ok(
        statuses.some((status) => /^2\d\d$/.test(status)),
        `${name} has no 2xx response`,
      );
      const security = operation.security ?? (document.security as unknown[]);
      if (security.length > 0) assert.ok(statuses.includes("401"), `${name} takes a token but has no 401`);
    }
    const own = operations(document).filter(([, path]) => path === "/openapi.json");
    assert.deepEqual(own[0]?.[2].security, [], "the document itself needs no token");
  });

  test("each operation that takes a token answers 401 without one", async () => {
    for (const [method, path, operation] of operations(document)) {
      if ((operation.security ?? (document.security as unknown[])).length === 0) continue;
      const url = path.replace(/\{[^}]+\}/g, SOME_ID);
      const response = await hark.app.inject({ method: method as HTTPMethods, url });
      assert.equal(response.statusCode, 401, `${method} ${url}: ${response.body}`);
      assert.equal(response.json().errors[0].code, errorCodes.missingAuthorization.code);
    }
  });

  test("what it says of request bodies holds: another Content-Type is a 415, malformed JSON a 400", async () => {
    const token = await hark.createAccount();
    const send = (method: string, path: string, type: string, payload: string) =>
      hark.app.inject({
        method: method as HTTPMethods,
        url: path.replace(/\{[^}]+\}/g, SOME_ID),
        headers: {
          authorization: `Bearer ${path.startsWith("/admin/") ? ADMIN_TOKEN : token}`,
          "content-type": type,
        },
        payload,
      });
    let checked = 0;
    for (const [method, path, operation] of operations(document)) {
      const name = `${method} ${path}`;
      if ("415" in operation.responses) {
        const response = await send(method, path, "application/xml", "<key/>");
        assert.equal(response.statusCode, 415, `${name}: ${response.body}`);
        checked++;
      }
      if (operation.requestBody && "application/json" in operation.requestBody.content) {
        const response = await send(method, path, "application/json", "{");
        assert.equal(response.statusCode, 400, `${name}: ${response.body}`);
        // The metadata route reads its body as an upload's metadata is read: VoiceBase's 10107 for bad JSON.
        const expected = path.endsWith("/metadata")
          ? errorCodes.metadataUnparseable
          : errorCodes.invalidRequest;
        assert.equal(response.json().errors[0].code, expected.code, name);
        assert.ok("400" in operation.responses, `${name} parses JSON but documents no 400`);
        checked++;
      }
    }
    assert.ok(checked > 10, `only ${checked} checks ran`);
  });

  test("error codes it mentions exist, under the status errors.ts gives them", () => {
    const known = new Set<number>([
      ...Object.values(errorCodes).map((entry) => entry.code),
      ...Object.values(messageCodes),
    ]);
    const mentioned = strings(document).flatMap((text) => [...text.matchAll(/\b1[0-2]\d{3}\b/g)]);
    assert.ok(mentioned.length > 0, "the document names error codes");
    for (const [code] of mentioned)
      assert.ok(known.has(Number(code)), `${code} is not in src/domain/errors.ts`);

    const statusOf = new Map<number, number>(
      Object.values(errorCodes).map((entry) => [entry.code, entry.status]),
    );
    for (const [method, path, operation] of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [code] of response.description.matchAll(/\b1[0-2]\d{3}\b/g)) {
          assert.equal(
            String(statusOf.get(Number(code))),
            status,
            `${method} ${path}: code ${code} documented under ${status}`,
          );
        }
      }
    }
  });

  test("every $ref points at a schema the document has", () => {
    const schemas = (document.components as { schemas: Json }).schemas;
    const refs = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (typeof value === "object" && value !== null) {
        for (const [key, inner] of Object.entries(value)) {
          if (key === "$ref" && typeof inner === "string") refs.add(inner);
          else walk(inner);
        }
      }
    };
    walk(document);
    assert.ok(refs.size > 20, "the document refers to its schemas");
    for (const ref of refs) {
      const name = ref.replace("#/components/schemas/", "");
      assert.ok(ref.startsWith("#/components/schemas/") && name in schemas, `${ref} points nowhere`);
    }
  });

  test("documents the path parameters of each path", () => {
    for (const [method, path, operation] of operations(document)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      const declared = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === "path")
        .map((parameter) => parameter.name);
      assert.deepEqual(declared.sort(), inPath.sort(), `${method} ${path}`);
    }
  });

  test("the analysis sections are typed, and every example is valid against its schema", async () => {
    const schemas = (
      document.components as { schemas: Record<string, { properties?: Json; examples?: unknown[] }> }
    ).schemas;
    const media = schemas.MediaDocument?.properties ?? {};
    for (const section of [
      "knowledge",
      "spotting",
      "prediction",
      "metrics",
      "categories",
      "conversation",
      "speakerSentiments",
      "transcript",
    ]) {
      assert.ok(JSON.stringify(media[section]).includes("#/components/schemas/"), `${section} is not typed`);
    }
    const examples = Object.entries(schemas).filter(([, schema]) => schema.examples !== undefined);
    const names = examples.map(([name]) => name);
    for (const main of ["Configuration", "Metadata", "MediaDocument"])
      assert.ok(names.includes(main), `${main} has no example`);
    for (const [name, schema] of examples) {
      for (const example of schema.examples ?? []) await assertDescribedBy(name, example, `${name} example`);
    }
  });

  test("describes the callbacks as webhooks, each Content-Type and the Standard Webhooks headers", () => {
    const webhooks = operations(document, "webhooks");
    const contentTypes = new Set(
      webhooks.flatMap(([, , operation]) => Object.keys(operation.requestBody?.content ?? {})),
    );
    for (const type of [
      "application/json",
      "text/plain",
      "text/srt",
      "text/vtt",
      "application/ttaf+xml",
      "application/octet-stream",
    ]) {
      assert.ok(contentTypes.has(type), `no webhook body is ${type}`);
    }
    for (const [method, name, operation] of webhooks) {
      assert.ok(["POST", "PUT"].includes(method), `${name}: ${method}`);
      const headers = (operation.parameters ?? []).filter((p) => p.in === "header").map((p) => p.name);
      for (const header of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
        assert.ok(headers.includes(header), `${method} ${name} does not document ${header}`);
      }
    }
    assert.deepEqual(Object.keys(document.webhooks as Json).sort(), [
      "analyticsCallback",
      "encryptedAnalyticsCallback",
      "mediaCallback",
      "transcriptCallback",
    ]);
  });
});

describe("a client of the description", () => {
  let dir: string;
  let file: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "hark-openapi-"));
    file = path.join(dir, "openapi.json");
    await writeFile(file, openApiFileText(await describeApi(loadSettings({ HARK_LOG_LEVEL: "silent" }))));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test("openapi-typescript types it so that sections and callback bodies can be read, and misreads cannot", async () => {
    const types = astToString(await openapiTS(new URL(`file://${file}`)));
    await writeFile(path.join(dir, "hark.d.ts"), types);
    const client = path.join(dir, "client.ts");
    await writeFile(
      client,
      `import type { paths, webhooks } from "./hark.d.ts";
type MediaDocument = paths["/v3/media/{mediaId}"]["get"]["responses"][200]["content"]["application/json"];
type AnalyticsBody = NonNullable<webhooks["analyticsCallback"]["post"]["requestBody"]>["content"]["application/json"];
type TranscriptBody = NonNullable<webhooks["transcriptCallback"]["put"]["requestBody"]>["content"]["text/vtt"];
declare const media: MediaDocument;
declare const body: AnalyticsBody;
declare const captions: TranscriptBody;
export const keyword: string | undefined = media.knowledge?.keywords[0]?.keyword;
export const relevance: number | undefined = body.knowledge?.keywords[0]?.relevance;
export const detections: number | undefined = body.prediction?.detectors?.[0]?.detections.length;
export const metric: number | undefined = body.metrics?.[0]?.metricValues[0]?.metricValue;
export const status: "accepted" | "running" | "finished" | "failed" = body.status;
export const word: string | undefined = body.transcript?.words[0]?.w;
export const text: string = captions;
// @ts-expect-error a keyword has no score
export const score = body.knowledge?.keywords[0]?.score;
// @ts-expect-error the status is one of four values
export const unknownStatus: "done" = body.status;
`,
    );
    const program = ts.createProgram([client], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    assert.deepEqual(problems, []);
  });
});
