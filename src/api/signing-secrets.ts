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
import type { FastifyInstance } from "fastify";
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
  type SigningSecret,
} from "../store/signing-secrets.ts";
import { isUuid } from "../domain/ids.ts";

const SECRETS = "/v3/security/signing-secrets";

/** Every active secret adds about 50 bytes to each try's headers; a rotation needs two. */
export const MAX_ACTIVE_SECRETS = 10;
/** A rotation long enough for any receiver to deploy its new secret; longer is a secret left behind. */
export const MAX_EXPIRY_SECONDS = 7 * 24 * 60 * 60;
/** A response carrying a secret in full is kept by no cache on the way. */
const NO_STORE = "no-store";

export function registerSigningSecretRoutes(app: FastifyInstance, services: Services): void {
  const { db, clock, settings } = services;

  app.post(SECRETS, async (request, reply) => {
    const body = request.body;
    // No options yet; a body is allowed so that clients sending `{}` work, but nothing in it is ignored.
    if (body !== undefined && body !== null) {
      if (typeof body !== "object" || Array.isArray(body) || Object.keys(body).length > 0)
        throw new ApiError("invalidRequest", "Creating a signing secret takes no body (or an empty object)");
    }
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
  });

  app.get(SECRETS, async (request) => {
    const now = clock.now();
    return {
      _links: { self: { href: `${settings.publicUrl}${SECRETS}` } },
      secrets: (await listSigningSecrets(db, request.account.accountId)).map((secret) =>
        summaryOf(secret, now),
      ),
    };
  });

  app.get<{ Params: { secretId: string } }>(`${SECRETS}/:secretId`, async (request, reply) => {
    const { secretId } = request.params;
    const secret = isUuid(secretId)
      ? await getSigningSecret(db, request.account.accountId, secretId)
      : undefined;
    if (!secret) throw notFound(secretId);
    return reply.header("cache-control", NO_STORE).send(documentOf(secret, clock.now()));
  });

  app.delete<{ Params: { secretId: string } }>(`${SECRETS}/:secretId`, async (request, reply) => {
    const { secretId } = request.params;
    if (!isUuid(secretId) || !(await deleteSigningSecret(db, request.account.accountId, secretId)))
      throw notFound(secretId);
    return reply.status(204).send();
  });

  app.post<{ Params: { secretId: string } }>(`${SECRETS}/:secretId/expire`, async (request) => {
    const { secretId } = request.params;
    if (!isUuid(secretId)) throw notFound(secretId);
    const afterSeconds = parseExpiry(request.body);
    const now = clock.now();
    const result = await expireSigningSecret(
      db,
      request.account.accountId,
      secretId,
      new Date(now.getTime() + afterSeconds * 1000),
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
  });
}

/** `{"afterSeconds": N}`, N a whole number of seconds from 0 (now) to 7 days. Pure. */
export function parseExpiry(body: unknown): number {
  const shape = `a JSON object {"afterSeconds": N}, N whole seconds from 0 to ${MAX_EXPIRY_SECONDS} (7 days)`;
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ApiError("signingSecretExpiryInvalid", `The body must be ${shape}`);
  const unknown = Object.keys(body).filter((key) => key !== "afterSeconds");
  if (unknown.length > 0) {
    throw new ApiError(
      "signingSecretExpiryInvalid",
      `Unknown properties ${unknown.map((key) => `"${key}"`).join(", ")}; the body must be ${shape}`,
    );
  }
  const { afterSeconds } = body as { afterSeconds?: unknown };
  if (
    typeof afterSeconds !== "number" ||
    !Number.isInteger(afterSeconds) ||
    afterSeconds < 0 ||
    afterSeconds > MAX_EXPIRY_SECONDS
  ) {
    throw new ApiError(
      "signingSecretExpiryInvalid",
      `"afterSeconds" must be a whole number from 0 to ${MAX_EXPIRY_SECONDS}; got ${JSON.stringify(afterSeconds) ?? "nothing"}`,
    );
  }
  return afterSeconds;
}

/** A secret as its own GET shows it, the secret in full. */
function documentOf(secret: SigningSecret, now: Date) {
  return {
    secretId: secret.secretId,
    secret: secret.secret,
    dateCreated: secret.dateCreated.toISOString(),
    ...(secret.dateExpires && { dateExpires: secret.dateExpires.toISOString() }),
    active: isActive(secret, now),
  };
}

/** A secret as lists show it: never the secret itself, only enough of it to tell which one it is. */
function summaryOf(secret: SigningSecret, now: Date) {
  const { secret: full, ...rest } = documentOf(secret, now);
  return { ...rest, last4: full.slice(-4) };
}

function notFound(secretId: string): ApiError {
  return new ApiError(
    "notFound",
    `This account has no signing secret ${JSON.stringify(secretId)}; GET ${SECRETS} lists those it has`,
  );
}
