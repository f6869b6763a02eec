/**
 * Public keys, per account (`/v3/security/public-keys`): VoiceBase's client-supplied encryption. The client
 * uploads the ASCII-armored OpenPGP public key as the body; an upload naming its `publicKeyId` in
 * `configuration.encryption` has its results stored and delivered encrypted to it.
 *
 * Shapes follow VoiceBase's swagger (`VbPublicKey`: `publicKeyId`, `publicKeyHash`; the list under `keys`),
 * with `_links` to each key, which is all VoiceBase's list gives. A GET of one key answers the key text as it
 * was uploaded, byte for byte: its SHA-256 is the `publicKeyHash` that callbacks carry.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../domain/errors.ts";
import { InvalidPublicKeyError, readPublicKey } from "../security/openpgp.ts";
import type { Services } from "../services.ts";
import {
  createPublicKey,
  deletePublicKey,
  getPublicKey,
  listPublicKeys,
  type PublicKey,
} from "../store/public-keys.ts";

const KEYS = "/v3/security/public-keys";
/** Far more than an exported key with its subkeys and self-signatures (RSA 4096: about 3 KiB). */
export const MAX_PUBLIC_KEY_BYTES = 64 * 1024;
/** What the body may be sent as; VoiceBase documents `application/octet-stream`. */
const KEY_CONTENT_TYPES = ["application/octet-stream", "application/pgp-keys", "text/plain"];
// A byte-order mark is kept: the text is stored, shown and hashed exactly as sent.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function registerPublicKeyRoutes(app: FastifyInstance, services: Services): void {
  const { db, clock, settings } = services;
  const keyUrl = (publicKeyId: string) => `${settings.publicUrl}${KEYS}/${publicKeyId}`;
  const summaryOf = (key: PublicKey) => ({
    publicKeyId: key.publicKeyId,
    publicKeyHash: key.publicKeyHash,
    fingerprint: key.fingerprint,
    dateCreated: key.dateCreated.toISOString(),
    _links: { self: { href: keyUrl(key.publicKeyId) } },
  });

  // Its own scope, so that the body parsers below apply to these routes only.
  void app.register(async (scope) => {
    // The key is taken as raw bytes, whatever it is labelled; JSON and forms are not a key upload.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(KEY_CONTENT_TYPES, { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );
    scope.addContentTypeParser("*", (request, _payload, done) =>
      done(
        new ApiError(
          "unsupportedMediaType",
          `Send the ASCII-armored public key as the body, with Content-Type ${KEY_CONTENT_TYPES.join(", ")}; got ${request.headers["content-type"] ?? "none"}`,
        ),
      ),
    );

    scope.post(KEYS, { bodyLimit: MAX_PUBLIC_KEY_BYTES }, async (request, reply) => {
      const info = await readPublicKey(keyText(request.body)).catch((error: unknown) => {
        if (error instanceof InvalidPublicKeyError) throw new ApiError("invalidPublicKey", error.message);
        throw error;
      });
      const created = await createPublicKey(
        db,
        request.account.accountId,
        {
          publicKeyId: randomUUID(),
          armored: info.armored,
          fingerprint: info.fingerprint,
          publicKeyHash: info.publicKeyHash,
        },
        clock.now(),
      );
      // 200, not 201: VoiceBase's swagger answers registerPublicKey with 200, and clients check for it.
      return reply.status(200).send(summaryOf(created));
    });

    scope.get(KEYS, async (request) => ({
      _links: { self: { href: `${settings.publicUrl}${KEYS}` } },
      keys: (await listPublicKeys(db, request.account.accountId)).map(summaryOf),
    }));

    scope.get<{ Params: { publicKeyId: string } }>(`${KEYS}/:publicKeyId`, async (request, reply) => {
      const { publicKeyId } = request.params;
      const key = await getPublicKey(db, request.account.accountId, publicKeyId);
      if (!key) throw notFound(publicKeyId);
      return reply.type("application/pgp-keys").send(key.armored);
    });

    scope.delete<{ Params: { publicKeyId: string } }>(`${KEYS}/:publicKeyId`, async (request, reply) => {
      const { publicKeyId } = request.params;
      if (!(await deletePublicKey(db, request.account.accountId, publicKeyId))) throw notFound(publicKeyId);
      return reply.status(204).send();
    });
  });
}

/** The body as text; bytes that are not UTF-8 are no armored key (a binary export, say). */
function keyText(body: unknown): string {
  if (body === undefined || body === null) return "";
  if (!Buffer.isBuffer(body)) throw new Error("the public-key body parser gave no Buffer");
  try {
    return UTF8.decode(body);
  } catch {
    throw new ApiError(
      "invalidPublicKey",
      "The body is binary, not an ASCII-armored OpenPGP public key; export it with `gpg --armor --export <key id>`",
    );
  }
}

function notFound(publicKeyId: string): ApiError {
  return new ApiError(
    "notFound",
    `This account has no public key ${JSON.stringify(publicKeyId)}; GET ${KEYS} lists those it has`,
  );
}
