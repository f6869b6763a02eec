/**
 * The OpenAPI description of `/v3/security`: signing secrets (signing-secrets.ts, Hark's own) and public
 * keys for client-supplied encryption (public-keys.ts, VoiceBase's). Pure.
 */
import { MAX_PUBLIC_KEY_BYTES } from "../public-keys.ts";
import { MAX_ACTIVE_SECRETS, MAX_EXPIRY_SECONDS } from "../signing-secrets.ts";
import {
  accountOperation,
  dateTime,
  JSON_BODY_ERRORS,
  jsonBody,
  jsonResponse,
  links,
  listOf,
  type Paths,
  pathParameter,
  type Schemas,
  schemaRef,
} from "./shared.ts";

const SECRETS_TAG = "Signing secrets";
const KEYS_TAG = "Public keys";

const secretId = pathParameter("secretId", "The secret's `secretId`.", { type: "string", format: "uuid" });
const publicKeyId = pathParameter("publicKeyId", "The key's `publicKeyId`.", {
  type: "string",
  format: "uuid",
});

const noStore = {
  "Cache-Control": { description: "`no-store`: the answer holds the secret.", schema: { const: "no-store" } },
};

export function securityPaths(): Paths {
  return {
    "/v3/security/signing-secrets": {
      post: accountOperation({
        operationId: "createSigningSecret",
        tag: SECRETS_TAG,
        harkAddition: true,
        summary: "Create a signing secret",
        description: `A new \`whsec_...\` secret; from now on it signs every callback try of the account (\`webhook-signature\`, Standard Webhooks). At most ${MAX_ACTIVE_SECRETS} are active at once. Takes no body, or an empty JSON object.`,
        requestBody: jsonBody({ type: "object", maxProperties: 0 }, false),
        responses: {
          "201": {
            ...jsonResponse("The new secret, shown in full.", schemaRef("NewSigningSecret")),
            headers: noStore,
          },
        },
        errors: ["signingSecretLimit", ...JSON_BODY_ERRORS],
      }),
      get: accountOperation({
        operationId: "listSigningSecrets",
        tag: SECRETS_TAG,
        harkAddition: true,
        summary: "List the signing secrets (only the last 4 characters of each)",
        responses: { "200": jsonResponse("The secrets.", schemaRef("SigningSecretList")) },
      }),
    },
    "/v3/security/signing-secrets/{secretId}": {
      get: accountOperation({
        operationId: "getSigningSecret",
        tag: SECRETS_TAG,
        harkAddition: true,
        summary: "Get a signing secret, in full",
        parameters: [secretId],
        responses: {
          "200": { ...jsonResponse("The secret.", schemaRef("SigningSecret")), headers: noStore },
        },
        errors: ["notFound"],
      }),
      delete: accountOperation({
        operationId: "deleteSigningSecret",
        tag: SECRETS_TAG,
        harkAddition: true,
        summary: "Delete a signing secret: it signs no more",
        parameters: [secretId],
        responses: { "204": { description: "Deleted." } },
        errors: ["notFound"],
      }),
    },
    "/v3/security/signing-secrets/{secretId}/expire": {
      post: accountOperation({
        operationId: "expireSigningSecret",
        tag: SECRETS_TAG,
        harkAddition: true,
        summary: "Give a signing secret an expiry, for rotation",
        description:
          "It signs until then, never after; `afterSeconds: 0` expires it now. An expired secret stays expired.",
        parameters: [secretId],
        requestBody: jsonBody(schemaRef("SigningSecretExpiry")),
        responses: {
          "200": jsonResponse("The secret, as lists show it.", schemaRef("SigningSecretSummary")),
        },
        errors: ["signingSecretExpiryInvalid", "notFound", "signingSecretExpired", ...JSON_BODY_ERRORS],
      }),
    },
    "/v3/security/public-keys": {
      post: accountOperation({
        operationId: "registerPublicKey",
        tag: KEYS_TAG,
        summary: "Upload an OpenPGP public key",
        description: `The ASCII-armored public key (\`gpg --armor --export <key id>\`) as the body, at most ${MAX_PUBLIC_KEY_BYTES / 1024} KiB. Name its \`publicKeyId\` in an upload's \`configuration.encryption\` to have the results encrypted to it.`,
        requestBody: {
          required: true,
          content: Object.fromEntries(
            ["application/octet-stream", "application/pgp-keys", "text/plain"].map((type) => [
              type,
              { schema: { type: "string" } },
            ]),
          ),
        },
        responses: { "200": jsonResponse("The key's summary.", schemaRef("PublicKey")) },
        errors: ["invalidPublicKey", "unsupportedMediaType", "bodyTooLarge"],
      }),
      get: accountOperation({
        operationId: "listPublicKeys",
        tag: KEYS_TAG,
        summary: "List the public keys, oldest first",
        responses: { "200": jsonResponse("The keys.", schemaRef("PublicKeyList")) },
      }),
    },
    "/v3/security/public-keys/{publicKeyId}": {
      get: accountOperation({
        operationId: "retrievePublicKey",
        tag: KEYS_TAG,
        summary: "Get a public key exactly as uploaded",
        description: "Its SHA-256 is the `publicKeyHash`.",
        parameters: [publicKeyId],
        responses: {
          "200": {
            description: "The armored key.",
            content: { "application/pgp-keys": { schema: { type: "string" } } },
          },
        },
        errors: ["notFound"],
      }),
      delete: accountOperation({
        operationId: "deletePublicKey",
        tag: KEYS_TAG,
        summary: "Delete a public key",
        parameters: [publicKeyId],
        responses: { "204": { description: "Deleted." } },
        errors: ["notFound"],
      }),
    },
  };
}

export function securitySchemas(): Schemas {
  const secretFields = {
    secretId: { type: "string", format: "uuid" },
    dateCreated: dateTime,
    dateExpires: dateTime,
    active: { type: "boolean", description: "Whether it signs now: not expired." },
  };
  const secret = { type: "string", description: "`whsec_` and the base64 of 32 random bytes." };
  return {
    NewSigningSecret: {
      type: "object",
      properties: { secretId: secretFields.secretId, secret, dateCreated: dateTime },
      required: ["secretId", "secret", "dateCreated"],
    },
    SigningSecret: {
      type: "object",
      properties: { ...secretFields, secret },
      required: ["secretId", "secret", "dateCreated", "active"],
    },
    SigningSecretSummary: {
      type: "object",
      properties: {
        ...secretFields,
        last4: { type: "string", description: "The secret's last 4 characters." },
      },
      required: ["secretId", "dateCreated", "active", "last4"],
    },
    SigningSecretList: listOf("secrets", "SigningSecretSummary", "The account's signing secrets."),
    SigningSecretExpiry: {
      type: "object",
      properties: { afterSeconds: { type: "integer", minimum: 0, maximum: MAX_EXPIRY_SECONDS } },
      required: ["afterSeconds"],
      additionalProperties: false,
    },
    PublicKey: {
      type: "object",
      description: "VoiceBase's `VbPublicKey`, with Hark's `fingerprint`, `dateCreated` and `_links`.",
      properties: {
        publicKeyId: { type: "string", format: "uuid" },
        publicKeyHash: { type: "string", description: "SHA-256 of the key text as uploaded." },
        fingerprint: { type: "string" },
        dateCreated: dateTime,
        _links: links,
      },
      required: ["publicKeyId", "publicKeyHash", "fingerprint", "dateCreated", "_links"],
    },
    PublicKeyList: listOf("keys", "PublicKey", "VoiceBase's `VbPublicKeysResponse`."),
  };
}
