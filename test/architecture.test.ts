/**
 * Layers point one way (docs/architecture.md): the table in eslint.config.js is complete and has no
 * circle, ESLint refuses an import against it (type-only ones too) and a cast of a request, and a worker
 * process loads neither the HTTP layer nor the upload's configuration schema.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { ESLint } from "eslint";
import { LAYERS } from "../eslint.config.js";

const ROOT = path.join(import.meta.dirname, "..");
const SRC = path.join(ROOT, "src");
const layers: Record<string, readonly string[] | null> = LAYERS;

/** The top-level entries of src/: folders as `name/`, files as `name.ts`. */
function entries(): string[] {
  return readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() || entry.name.endsWith(".ts"))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name));
}

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe("layers", () => {
  test("every top-level entry of src/ has its place in the table, and the table names only those", () => {
    assert.deepEqual(Object.keys(layers).sort(), entries().sort());
  });

  test("the table has no circle: every entry imports only entries below it", () => {
    const placed: string[] = [];
    const remaining = new Map(Object.entries(layers).map(([entry, allowed]) => [entry, allowed ?? []]));
    while (remaining.size > 0) {
      const ready = [...remaining].filter(([, allowed]) => allowed.every((other) => placed.includes(other)));
      assert.ok(ready.length > 0, `a circle among ${[...remaining.keys()].join(", ")}`);
      for (const [entry] of ready) {
        placed.push(entry);
        remaining.delete(entry);
      }
    }
    // Nothing may import the composition root.
    for (const [entry, allowed] of Object.entries(layers)) {
      assert.ok(!allowed?.some((other) => other === "main.ts" || other === "server.ts"), entry);
    }
  });

  test("ESLint refuses an import against the layers, type-only ones too, and lets the others through", async () => {
    const refused: [string, string][] = [
      ["src/store/x.ts", 'import type { HarkApp } from "../api/hark-app.ts";\nexport type X = HarkApp;\n'],
      ["src/domain/x.ts", 'import type { Settings } from "../settings.ts";\nexport type X = Settings;\n'],
      ["src/processing/x.ts", 'export { parseConfiguration } from "../intake/configuration.ts";\n'],
      [
        "src/callbacks/x.ts",
        'import { processMedia } from "../processing/process-media.ts";\nexport const x = processMedia;\n',
      ],
      ["src/analytics/x.ts", 'import { run } from "../pipeline/run.ts";\nexport const x = run;\n'],
      ["src/api/x.ts", 'import { startHark } from "../server.ts";\nexport const x = startHark;\n'],
    ];
    for (const [file, code] of refused) {
      const problems = await lint(file, code);
      assert.ok(
        problems.some((problem) => problem.startsWith("no-restricted-imports: ")),
        `${file}: ${code.split("\n")[0]} was not refused`,
      );
    }
    const allowed = await lint(
      "src/processing/x.ts",
      'import { getMedia } from "../store/media.ts";\nimport type { Transcript } from "../domain/transcript.ts";\nexport const x = getMedia;\nexport type T = Transcript;\n',
    );
    assert.deepEqual(allowed, []);
  });

  test("ESLint refuses a cast of a request's params, query or body in a route", async () => {
    const problems = await lint(
      "src/api/x.ts",
      'import type { FastifyRequest } from "fastify";\nexport const id = (request: FastifyRequest) => (request.params as { id: string }).id;\n',
    );
    assert.ok(
      problems.some((problem) => problem.startsWith("no-restricted-syntax: ")),
      problems.join("\n"),
    );
  });

  test("a worker process loads neither the HTTP layer nor the upload's configuration schema", () => {
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      const text = readFileSync(file, "utf8");
      // Static imports only: the HTTP layer is imported dynamically, by the roles that serve HTTP.
      for (const [, specifier] of text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+\.ts)"/gm)) {
        visit(path.resolve(path.dirname(file), specifier as string));
      }
    };
    visit(path.join(SRC, "main.ts"));
    assert.ok(loaded.has(path.join(SRC, "processing", "process-media.ts")), "the walk reaches the worker");
    const layerOf = (file: string) => path.relative(SRC, file).split(path.sep)[0];
    const http = [...loaded].filter((file) => ["api", "intake"].includes(layerOf(file) ?? ""));
    assert.deepEqual(http, []);
  });
});
