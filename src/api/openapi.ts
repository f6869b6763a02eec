/**
 * The OpenAPI 3.1 description of every route Hark registers, served at `GET /openapi.json`: VoiceBase's
 * `/v3` API as Hark has it, and Hark's own additions beside it, each marked `x-hark-addition`. The paths
 * of each route group are in `openapi/`; test/api/openapi.test.ts checks that they and the registered
 * routes are the same. Pure.
 */
import { VERSION } from "../domain/version.ts";
import { callbackPaths, callbackSchemas } from "./openapi/callbacks.ts";
import { definitionPaths, definitionSchemas } from "./openapi/definitions.ts";
import { mediaPaths, mediaSchemas } from "./openapi/media.ts";
import { securityPaths, securitySchemas } from "./openapi/security.ts";
import {
  type JsonObject,
  jsonBody,
  jsonResponse,
  JSON_BODY_ERRORS,
  LINKS_SCHEMA,
  operation,
  type Paths,
  schemaRef,
} from "./openapi/shared.ts";

/** The copy in the repository, for its readers (`npm run openapi` writes it), and its text. */
export const OPENAPI_FILE = "docs/openapi.json";
export function openApiFileText(): string {
  return `${JSON.stringify(openApiDocument("http://127.0.0.1:8080", VERSION), null, 2)}\n`;
}

export function openApiDocument(publicUrl: string, version: string): JsonObject {
  return {
    openapi: "3.1.0",
    info: {
      title: "Hark",
      version,
      summary: "Self-hosted, VoiceBase-v3-compatible speech analytics",
      description:
        "The `/v3` API follows VoiceBase's v3 API; operations marked `x-hark-addition` are Hark's own. Every error has VoiceBase's envelope, `ErrorEnvelope`; the codes are listed in docs/errors.md.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [{ url: publicUrl }],
    security: [{ accountToken: [] }],
    paths: { ...ownPaths(), ...mediaPaths(), ...callbackPaths(), ...definitionPaths(), ...securityPaths() },
    components: {
      securitySchemes: {
        accountToken: {
          type: "http",
          scheme: "bearer",
          description: "An account's token, as `POST /admin/accounts` answered it.",
        },
        adminToken: { type: "http", scheme: "bearer", description: "The server's `HARK_ADMIN_TOKEN`." },
      },
      schemas: {
        ErrorEnvelope: {
          type: "object",
          description: "VoiceBase's error envelope. A request with several faults lists them all.",
          properties: {
            status: { type: "integer", description: "The HTTP status." },
            errors: { type: "array", items: schemaRef("Error"), minItems: 1 },
            reference: { type: "string", description: "The request id; Hark's log carries it too." },
          },
          required: ["status", "errors", "reference"],
        },
        Error: {
          type: "object",
          properties: { code: { type: "integer" }, error: { type: "string" } },
          required: ["code", "error"],
        },
        Links: LINKS_SCHEMA,
        NewAccount: {
          type: "object",
          properties: { accountName: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$" } },
          required: ["accountName"],
          additionalProperties: false,
        },
        Account: {
          type: "object",
          properties: {
            accountId: { type: "string", format: "uuid" },
            accountName: { type: "string" },
            token: { type: "string", description: "The account token; shown this once only." },
          },
          required: ["accountId", "accountName", "token"],
        },
        ...mediaSchemas(),
        ...callbackSchemas(),
        ...definitionSchemas(),
        ...securitySchemas(),
      },
    },
  };
}

/** The routes outside `/v3`: this document, and the admin API. */
function ownPaths(): Paths {
  return {
    "/openapi.json": {
      get: operation({
        operationId: "getOpenApiDocument",
        tag: "Service",
        harkAddition: true,
        summary: "This OpenAPI description",
        security: [],
        responses: { "200": jsonResponse("The OpenAPI 3.1 document.", { type: "object" }) },
      }),
    },
    "/admin/accounts": {
      post: operation({
        operationId: "createAccount",
        tag: "Admin",
        harkAddition: true,
        summary: "Create an account",
        description:
          "Answers the account's token, once. Needs the admin token; the admin API is off (403) unless Hark was started with `HARK_ADMIN_TOKEN`.",
        security: [{ adminToken: [] }],
        requestBody: jsonBody(schemaRef("NewAccount")),
        responses: { "201": jsonResponse("The account and its token.", schemaRef("Account")) },
        errors: [
          "missingAuthorization",
          "invalidAuthorization",
          "adminDisabled",
          "accountNameTaken",
          ...JSON_BODY_ERRORS,
        ],
      }),
    },
  };
}
