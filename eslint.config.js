// One linter (ESLint with typescript-eslint's recommended rules); formatting is Prettier's job.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** What processing may use; the HTTP routes use all of it too, and processing and intake besides. */
const PROCESSING = [
  "domain/",
  "documents/",
  "formats/",
  "store/",
  "blobs/",
  "net/",
  "pipeline/",
  "analytics/",
  "security/",
  "callbacks/",
  "services.ts",
  "settings.ts",
];

/**
 * Layers point one way (docs/architecture.md): each top-level entry of src/ and the entries it may import.
 * Anything not listed is refused, type-only imports included, so an upward import or a circle fails
 * `npm test`. The composition root (`main.ts`, `server.ts`) may import everything and nothing imports it.
 */
export const LAYERS = {
  "domain/": [],
  "formats/": ["domain/"],
  "net/": ["domain/"],
  "blobs/": ["domain/"],
  "security/": ["domain/"],
  "pipeline/": ["domain/"],
  "analytics/": ["domain/", "formats/"],
  "store/": ["domain/", "net/"],
  "documents/": ["domain/", "formats/"],
  "intake/": ["domain/", "analytics/", "net/"],
  "settings.ts": ["domain/", "net/"],
  "services.ts": ["domain/", "settings.ts", "store/", "blobs/", "net/", "pipeline/"],
  "callbacks/": [
    "domain/",
    "documents/",
    "formats/",
    "store/",
    "blobs/",
    "net/",
    "services.ts",
    "settings.ts",
  ],
  "processing/": PROCESSING,
  "api/": [...PROCESSING, "processing/", "intake/"],
  "roles.ts": ["settings.ts"],
  "server.ts": null,
  "main.ts": null,
};

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A pattern matching the relative specifiers that reach `entry` from inside src/. */
function reaching(entry) {
  return entry.endsWith("/") ? `^(\\.\\./)+${escape(entry)}` : `^(\\.\\./)+${escape(entry)}$`;
}

function layerRules(entry, allowed) {
  const files = entry.endsWith("/") ? [`src/${entry}**/*.ts`] : [`src/${entry}`];
  const others = Object.keys(LAYERS).filter((other) => other !== entry && !allowed.includes(other));
  const patterns =
    allowed.length === 0
      ? // Nothing of src/ at all (package.json, for the version, is outside it).
        [
          {
            regex: "^\\.\\./(?!\\.\\./package\\.json$)",
            message: `src/${entry} imports nothing else of src/ (docs/architecture.md)`,
          },
        ]
      : others.map((other) => ({
          regex: reaching(other),
          message: `src/${entry} may import only ${allowed.join(", ")}; not src/${other} (layers: eslint.config.js, docs/architecture.md)`,
        }));
  return { files, rules: { "no-restricted-imports": ["error", { patterns }] } };
}

export default tseslint.config(
  { ignores: ["node_modules/", "data/", "scratch/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // Requests are typed by their route's schema (src/api/hark-app.ts); a cast would bypass it.
    files: ["src/api/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "TSAsExpression > MemberExpression.expression[object.name='request'][property.name=/^(params|query|body)$/]",
          message: "Declare the route's params, querystring or body schema instead of casting the request",
        },
      ],
    },
  },
  ...Object.entries(LAYERS)
    .filter(([, allowed]) => allowed !== null)
    .map(([entry, allowed]) => layerRules(entry, allowed)),
);
