/**
 * `GET /openapi.json`, and that the description stays honest: the routes it documents and the routes
 * the app registers are the same, and what it says of errors agrees with errors.ts.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance, HTTPMethods, LightMyRequestResponse } from "fastify";
import { OPENAPI_FILE, openApiFileText } from "../../src/api/openapi.ts";
import { errorCodes, messageCodes } from "../../src/domain/errors.ts";
import { ADMIN_TOKEN, startTestHark, type TestHark } from "../support/harness.ts";

const PUBLIC_URL = "https://hark.example.com";
const METHODS = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

type Json = { [key: string]: unknown };
interface Operation {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Json };
  responses: Record<string, { description: string }>;
}

/**
 * Every (method, path) the app registers, read from `printRoutes()`: a tree whose lines are a path
 * segment, indented 4 characters a level, and the methods of the route ending there, if any.
 */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    if (line.trim() === "") continue;
    const match = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    assert.ok(match, `printRoutes line not understood: ${JSON.stringify(line)}`);
    const [, indent = "", segment = "", methods] = match;
    const depth = indent.length / 4;
    stack.length = depth;
    stack.push(segment);
    for (const method of methods?.split(", ") ?? []) routes.push(`${method} ${stack.join("")}`);
  }
  return routes;
}

/** `/v3/media/{mediaId}` → `/v3/media/:mediaId`, as routes are registered. */
function routePath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ":$1");
}

function operations(document: Json): [string, string, Operation][] {
  return Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
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
    assert.deepEqual(document.servers, [{ url: PUBLIC_URL }]);
    const info = document.info as Json;
    assert.equal(info.title, "Hark");
    const pkg = await import("../../package.json", { with: { type: "json" } });
    assert.equal(info.version, pkg.default.version);
  });

  test("is what the repository's copy says (npm run openapi writes it)", async () => {
    const copy = await readFile(path.join(import.meta.dirname, "..", "..", OPENAPI_FILE), "utf8");
    assert.ok(copy === openApiFileText(), `${OPENAPI_FILE} is out of date: run npm run openapi`);
  });

  test("documents every registered route, and only those", async () => {
    await hark.app.ready();
    const registered = registeredRoutes(hark.app);
    // The parse is checked against the router itself, so a misread tree cannot pass unnoticed.
    for (const route of registered) {
      const [method, url] = route.split(" ") as [HTTPMethods, string];
      assert.ok(hark.app.hasRoute({ method, url }), `printRoutes gave ${route}, which the router lacks`);
    }
    assert.ok(registered.includes("POST /v3/media"), "the upload route is among those read");

    const documented = operations(document).map(([method, path]) => `${method} ${routePath(path)}`);
    for (const route of documented) {
      const [method, url] = route.split(" ") as [HTTPMethods, string];
      assert.ok(hark.app.hasRoute({ method, url }), `documented ${route} is not a route`);
    }
    // Fastify adds a HEAD route for each GET by itself; documenting the GET covers it.
    const registeredByHand = registered.filter(
      (route) => !(route.startsWith("HEAD ") && registered.includes(route.replace(/^HEAD /, "GET "))),
    );
    assert.deepEqual([...documented].sort(), [...registeredByHand].sort());
  });

  test("every operation has a summary, a 2xx answer, and a 401 when it takes a token", () => {
    const ids = new Set<string>();
    for (const [method, path, operation] of operations(document)) {
      const name = `${method} ${path}`;
      const id = operation.operationId;
      assert.ok(id && !ids.has(id), `${name}: operationId ${id} missing or used twice`);
      ids.add(id);
      assert.ok(operation.summary, `${name} has no summary`);
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
      const url = path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000");
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
        url: path.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000"),
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
        assert.equal(response.json().errors[0].code, errorCodes.invalidRequest.code, name);
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
    for (const [code] of mentioned) assert.ok(known.has(Number(code)), `${code} is not in src/errors.ts`);

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
});
