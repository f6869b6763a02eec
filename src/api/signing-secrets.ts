/**
 * Signing secrets, per account (`/v3/security/signing-secrets`): Hark's own addition, for the Standard
 * Webhooks signature on every callback try (callbacks/signature.ts). While an account has active
 * secrets, each signs every try; rotation is creating a new secret, then giving the old one an expiry
 * (`.../{secretId}/expire`) so both sign until receivers have the new one.
 *
 * The secret is shown in full on creation and on a GET of its id: the receiver needs it to verify, and
 * Hark keeps it to sign. The list shows only its last 4 characters.
 */
import { randomUUID } from "node:crypto";
import { Type } from "typebox";
import { newSecret } from "../callbacks/signature.ts";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import {
  createSigningSecret,
  deleteSigningSecret,
  expireSigningSecret,
  getSigningSecret,
  isActive,
  listSigningSecrets,
  type SigningSecret as StoredSigningSecret,
} from "../store/signing-secrets.ts";
import type { HarkApp } from "./hark-app.ts";
import {
  accountRefusals,
  harkAddition,
  JSON_BODY_ERRORS,
  NoContent,
  ref,
  response,
  UuidParameter,
} from "./schemas/common.ts";
import {
  NewSigningSecret,
  SigningSecret,
  SigningSecretExpiry,
  SigningSecretList,
  SigningSecretSummary,
} from "./schemas/security.ts";
import { faults } from "./validation.ts";

const SECRETS = "/v3/security/signing-secrets";

/** Every active secret adds about 50 bytes to each try's headers; a rotation needs two. */
export const MAX_ACTIVE_SECRETS = 10;
/** A response carrying a secret in full is kept by no cache on the way. */
const NO_STORE = "no-store";

const TAGS = ["Security"];

const SecretParams = Type.Object({
  secretId: UuidParameter("The secret's `secretId`.", `a UUID, a secretId as GET ${SECRETS} lists them`),
});

/**
 * Creating a secret has no options yet. No body is taken, or an empty object, so that clients sending `{}`
 * work; anything in it is refused rather than ignored. Fastify validates a missing body as `null`.
 */
const NoOptions = Type.Unsafe<Record<string, never> | null>({
  type: ["object", "null"],
  maxProperties: 0,
  "x-allowed": "empty (no body, or {}): creating a signing secret takes no options",
});

const NoStoreHeader = {
  "cache-control": Type.Literal(NO_STORE, { description: "The answer holds the secret: no cache keeps it." }),
};

export function registerSigningSecretRoutes(app: HarkApp, services: Services): void {
  const { db, clock, settings } = services;

  app.post(
    SECRETS,
    {
      schema: {
        operationId: "createSigningSecret",
        tags: TAGS,
        summary: "Create a signing secret",
        ...harkAddition(
          `A new \`whsec_...\` secret; from now on it signs every callback try of the account (\`webhook-signature\`, Standard Webhooks). At most ${MAX_ACTIVE_SECRETS} are active at once. Takes no body, or an empty JSON object.`,
        ),
        body: NoOptions,
        response: {
          201: { ...response(NewSigningSecret, "The new secret, shown in full."), headers: NoStoreHeader },
          ...accountRefusals("signingSecretLimit", ...JSON_BODY_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const created = await createSigningSecret(
        db,
        request.account.accountId,
        { secretId: randomUUID(), secret: newSecret() },
        clock.now(),
        MAX_ACTIVE_SECRETS,
      );
      if (!created) {
        throw new ApiError(
          "signingSecretLimit",
          `This account has ${MAX_ACTIVE_SECRETS} active signing secrets, the most a callback is signed with; delete or expire one first`,
        );
      }
      return reply.status(201).header("cache-control", NO_STORE).send({
        secretId: created.secretId,
        secret: created.secret,
        dateCreated: created.dateCreated.toISOString(),
      });
    },
  );

  app.get(
    SECRETS,
    {
      schema: {
        operationId: "listSigningSecrets",
        tags: TAGS,
        summary: "List the signing secrets (only the last 4 characters of each)",
        ...harkAddition(),
        response: { 200: response(SigningSecretList, "The secrets."), ...accountRefusals() },
      },
    },
    async (request) => {
      const now = clock.now();
      return {
        _links: { self: { href: `${settings.publicUrl}${SECRETS}` } },
        secrets: (await listSigningSecrets(db, request.account.accountId)).map((secret) =>
          summaryOf(secret, now),
        ),
      };
    },
  );

  app.get(
    `${SECRETS}/:secretId`,
    {
      schema: {
        operationId: "getSigningSecret",
        tags: TAGS,
        summary: "Get a signing secret, in full",
        ...harkAddition(),
        params: SecretParams,
        response: {
          200: { ...response(SigningSecret, "The secret."), headers: NoStoreHeader },
          ...accountRefusals("notFound"),
        },
      },
    },
    async (request, reply) => {
      const { secretId } = request.params;
      const secret = await getSigningSecret(db, request.account.accountId, secretId);
      if (!secret) throw notFound(secretId);
      return reply.header("cache-control", NO_STORE).send(documentOf(secret, clock.now()));
    },
  );

  app.delete(
    `${SECRETS}/:secretId`,
    {
      schema: {
        operationId: "deleteSigningSecret",
        tags: TAGS,
        summary: "Delete a signing secret: it signs no more",
        ...harkAddition(),
        params: SecretParams,
        response: { 204: NoContent("Deleted."), ...accountRefusals("notFound") },
      },
    },
    async (request, reply) => {
      const { secretId } = request.params;
      if (!(await deleteSigningSecret(db, request.account.accountId, secretId))) throw notFound(secretId);
      return reply.status(204).send();
    },
  );

  app.post(
    `${SECRETS}/:secretId/expire`,
    {
      schema: {
        operationId: "expireSigningSecret",
        tags: TAGS,
        summary: "Give a signing secret an expiry, for rotation",
        ...harkAddition(
          "It signs until then, never after; `afterSeconds: 0` expires it now. An expiring secret may be given another time; an expired secret stays expired.",
        ),
        params: SecretParams,
        body: ref(SigningSecretExpiry),
        response: {
          200: response(SigningSecretSummary, "The secret, as lists show it."),
          ...accountRefusals(
            "signingSecretExpiryInvalid",
            "notFound",
            "signingSecretExpired",
            ...JSON_BODY_ERRORS,
          ),
        },
      },
      schemaErrorFormatter: faults({ body: "signingSecretExpiryInvalid" }),
    },
    async (request) => {
      const { secretId } = request.params;
      const now = clock.now();
      const result = await expireSigningSecret(
        db,
        request.account.accountId,
        secretId,
        new Date(now.getTime() + request.body.afterSeconds * 1000),
        now,
      );
      if (!result) throw notFound(secretId);
      if (!result.changed) {
        throw new ApiError(
          "signingSecretExpired",
          `The signing secret ${secretId} expired at ${result.secret.dateExpires?.toISOString()}; an expired secret stays expired (delete it, or create a new one)`,
        );
      }
      return summaryOf(result.secret, now);
    },
  );
}

/** A secret as its own GET shows it, the secret in full. */
function documentOf(secret: StoredSigningSecret, now: Date) {
  return {
    secretId: secret.secretId,
    secret: secret.secret,
    dateCreated: secret.dateCreated.toISOString(),
    ...(secret.dateExpires && { dateExpires: secret.dateExpires.toISOString() }),
    active: isActive(secret, now),
  };
}

/** A secret as lists show it: never the secret itself, only enough of it to tell which one it is. */
function summaryOf(secret: StoredSigningSecret, now: Date) {
  const { secret: full, ...rest } = documentOf(secret, now);
  return { ...rest, last4: full.slice(-4) };
}

function notFound(secretId: string): ApiError {
  return new ApiError(
    "notFound",
    `This account has no signing secret ${JSON.stringify(secretId)}; GET ${SECRETS} lists those it has`,
  );
}
