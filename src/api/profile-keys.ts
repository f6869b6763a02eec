/**
 * API keys an account manages itself (`/v3/profile/keys`), as VoiceBase's key management has them.
 *
 * The account's user token is the one made with the account (`POST /admin/accounts`); it may do
 * everything. A key made here authenticates like it until it expires or is deleted, limited by its scope,
 * and is refused by these routes (10012): a key that could make keys could outlive its own limits. A
 * key's token is shown once, in the answer that makes it, and stored only as its SHA-256.
 */
import { randomUUID } from "node:crypto";
import { Type } from "typebox";
import { keyExpiry, parseScope } from "../domain/api-key.ts";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import {
  type ApiKey as StoredApiKey,
  createApiKey,
  deleteApiKey,
  getApiKey,
  listApiKeys,
} from "../store/api-keys.ts";
import { requireUserToken } from "./auth.ts";
import type { HarkApp } from "./hark-app.ts";
import {
  accountRefusals,
  JSON_BODY_ERRORS,
  NoContent,
  ref,
  response,
  UuidParameter,
} from "./schemas/common.ts";
import { ApiKey, ApiKeyConfiguration, ApiKeyList, NewApiKey } from "./schemas/profile.ts";
import { faults } from "./validation.ts";

const KEYS = "/v3/profile/keys";
const TAGS = ["Key Management"];
const NO_STORE = "no-store";

const USER_TOKEN_ONLY =
  "Takes the account's user token (the one `POST /admin/accounts` gave); an API key is refused with 10012.";

const KeyParams = Type.Object({
  keyId: UuidParameter("The key's `id`.", `a UUID, a key id as GET ${KEYS} lists them`),
});

/** Every key route: the user token only, checked before the body so that a key learns nothing of it. */
const userTokenOnly = { preValidation: requireUserToken };

export function registerProfileKeyRoutes(app: HarkApp, services: Services): void {
  const { db, clock } = services;

  app.get(
    KEYS,
    {
      schema: {
        operationId: "getKeys",
        tags: TAGS,
        summary: "List API keys",
        description: `The account's API keys, expired ones included (\`expired: true\`), oldest first; never a token. ${USER_TOKEN_ONLY}`,
        response: { 200: response(ApiKeyList, "The keys."), ...accountRefusals("apiKeyNotAllowed") },
      },
      ...userTokenOnly,
    },
    async (request) => {
      const now = clock.now();
      return { keys: (await listApiKeys(db, request.account.accountId)).map((key) => keyDocument(key, now)) };
    },
  );

  app.post(
    KEYS,
    {
      schema: {
        operationId: "createKey",
        tags: TAGS,
        summary: "Create API key",
        description: `A new bearer token for this account, answered once as \`bearerToken\` (Hark keeps only its hash). It works like the user token until its expiry (\`expirationDate\` or \`ttlMillis\`, at most 2 hours ahead; none: until deleted), within its \`scope\` (10006 outside it), and never on these key routes. ${USER_TOKEN_ONLY}`,
        body: ref(ApiKeyConfiguration),
        response: {
          200: {
            ...response(NewApiKey, "The key and its token, shown this once."),
            headers: {
              "cache-control": Type.Literal(NO_STORE, { description: "The answer holds a token." }),
            },
          },
          ...accountRefusals(
            "apiKeyNotAllowed",
            "apiKeyConfigurationEmpty",
            "apiKeyExpiryAmbiguous",
            "apiKeyExpirationPast",
            "apiKeyExpirationTooLate",
            "apiKeyTtlNotPositive",
            "apiKeyTtlTooLong",
            "apiKeyEphemeralWithoutExpiry",
            "apiKeyScopeInvalid",
            ...JSON_BODY_ERRORS,
          ),
        },
      },
      ...userTokenOnly,
    },
    async (request, reply) => {
      // No body at all arrives as undefined, whatever the schema says: it is refused as empty (70000).
      const configuration = request.body ?? null;
      const now = clock.now();
      const expirationDate = keyExpiry(configuration, now);
      const scope = configuration?.scope;
      if (scope !== undefined) parseScope(scope);
      const created = await createApiKey(db, request.account.accountId, {
        keyId: randomUUID(),
        ephemeral: configuration?.ephemeral ?? false,
        scope,
        issued: now,
        expirationDate,
      });
      return reply
        .header("cache-control", NO_STORE)
        .send({ ...keyDocument(created, now), bearerToken: created.bearerToken });
    },
  );

  app.get(
    `${KEYS}/:keyId`,
    {
      schema: {
        operationId: "getKeyById",
        tags: TAGS,
        summary: "Retrieve details about an API key",
        description: `Never its token. ${USER_TOKEN_ONLY}`,
        params: KeyParams,
        response: {
          200: response(ApiKey, "The key."),
          ...accountRefusals("apiKeyNotAllowed", "apiKeyNotFound"),
        },
      },
      schemaErrorFormatter: faults({ params: "apiKeyNotFound" }),
      ...userTokenOnly,
    },
    async (request) => {
      const { keyId } = request.params;
      const key = await getApiKey(db, request.account.accountId, keyId);
      if (!key) throw notFound(keyId);
      return keyDocument(key, clock.now());
    },
  );

  app.delete(
    `${KEYS}/:keyId`,
    {
      schema: {
        operationId: "deleteKeyById",
        tags: TAGS,
        summary: "Delete API key",
        description: `Deletes and revokes the key: its token is refused (401) from the next request on. ${USER_TOKEN_ONLY}`,
        params: KeyParams,
        response: { 204: NoContent("Deleted."), ...accountRefusals("apiKeyNotAllowed", "apiKeyNotFound") },
      },
      schemaErrorFormatter: faults({ params: "apiKeyNotFound" }),
      ...userTokenOnly,
    },
    async (request, reply) => {
      const { keyId } = request.params;
      if (!(await deleteApiKey(db, request.account.accountId, keyId))) throw notFound(keyId);
      return reply.status(204).send();
    },
  );
}

/** A key as VoiceBase's `VbKey` shows it, without its token. */
function keyDocument(key: StoredApiKey, now: Date) {
  return {
    id: key.keyId,
    lastSix: key.lastSix,
    issued: key.issued.toISOString(),
    ...(key.expirationDate && { expirationDate: key.expirationDate.toISOString() }),
    expired: key.expirationDate !== undefined && key.expirationDate.getTime() <= now.getTime(),
    ...(key.scope !== undefined && { scope: key.scope }),
    ephemeral: key.ephemeral,
  };
}

function notFound(keyId: string): ApiError {
  return new ApiError(
    "apiKeyNotFound",
    `This account has no API key ${JSON.stringify(keyId)}; GET ${KEYS} lists those it has`,
  );
}
