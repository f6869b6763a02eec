/**
 * The parts of the OpenAPI 3.1 description that belong to no route: what the API is, how it
 * authenticates, its tags, and the callbacks Hark sends (as `webhooks`). `@fastify/swagger` adds every
 * route's operation from its schema. Operations VoiceBase's v3 API does not have carry
 * `x-hark-addition: true`.
 */
import type { FastifyDynamicSwaggerOptions } from "@fastify/swagger";
import { webhooks } from "./webhooks.ts";

/** The copy in the repository, for its readers (`npm run openapi` writes it; a test checks it). */
export const OPENAPI_FILE = "docs/openapi.json";
/** The server the copy names. */
export const DOCUMENTED_URL = "http://127.0.0.1:8080";

export function openApiFileText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

export function baseDocument(
  publicUrl: string,
  version: string,
): NonNullable<FastifyDynamicSwaggerOptions["openapi"]> {
  return {
    openapi: "3.1.0",
    info: {
      title: "Hark",
      version,
      summary: "Self-hosted, VoiceBase-v3-compatible speech analytics",
      description:
        "The `/v3` API follows VoiceBase's v3 API; operations marked `x-hark-addition` are Hark's own. Every error has VoiceBase's envelope, `ErrorEnvelope`; the codes are listed in docs/errors.md. When processing ends, Hark calls back every URL of `configuration.publish.callbacks`: those calls are described under `webhooks`.",
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    },
    servers: [{ url: publicUrl, description: "This Hark." }],
    security: [{ accountToken: [] }],
    tags: [
      {
        name: "Media",
        description: "Uploads, their processing, results and streams (VoiceBase's `/v3/media`).",
      },
      { name: "Callbacks", description: "The delivery log and redelivery of callbacks (Hark's own)." },
      {
        name: "Definitions",
        description: "Keyword spotting groups, categories, classifiers, detectors and metric groups.",
      },
      { name: "Search", description: "VBQL statements over the account's finished media (VoiceBase's)." },
      {
        name: "Security",
        description: "Signing secrets (Hark's own) and public keys for encrypted results.",
      },
      {
        name: "Key Management",
        description:
          "API keys an account makes with its user token (VoiceBase's `/v3/profile/keys`): expiring, scoped bearer tokens.",
      },
      {
        name: "Usage",
        description: "Media items and minutes processed, per UTC month and day (VoiceBase's `/v3/usage`).",
      },
      { name: "Admin", description: "Accounts (Hark's own); needs the server's admin token." },
      { name: "Service", description: "This description (Hark's own)." },
      { name: "Webhooks", description: "The calls Hark makes to the URLs a configuration names." },
    ],
    components: {
      securitySchemes: {
        accountToken: {
          type: "http" as const,
          scheme: "bearer",
          description:
            "An account's user token, as `POST /admin/accounts` answered it, or an API key made with it (`POST /v3/profile/keys`).",
        },
        adminToken: {
          type: "http" as const,
          scheme: "bearer",
          description: "The server's `HARK_ADMIN_TOKEN`.",
        },
      },
    },
    webhooks: webhooks(),
  };
}
