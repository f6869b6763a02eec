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
import { Type } from "typebox";
import { ApiError } from "../domain/errors.ts";
import { InvalidPublicKeyError, readPublicKey } from "../security/openpgp.ts";
import type { Services } from "../services.ts";
import {
  createPublicKey,
  deletePublicKey,
  getPublicKey,
  listPublicKeys,
  type PublicKey as StoredPublicKey,
} from "../store/public-keys.ts";
import type { HarkApp } from "./hark-app.ts";
import { accountRefusals, Binary, NoContent, response, UuidParameter } from "./schemas/common.ts";
import { PublicKey, PublicKeyList } from "./schemas/security.ts";

const KEYS = "/v3/security/public-keys";
/** Far more than an exported key with its subkeys and self-signatures (RSA 4096: about 3 KiB). */
export const MAX_PUBLIC_KEY_BYTES = 64 * 1024;
/** What the body may be sent as; VoiceBase documents `application/octet-stream`. */
const KEY_CONTENT_TYPES = ["application/octet-stream", "application/pgp-keys", "text/plain"];
// A byte-order mark is kept: the text is stored, shown and hashed exactly as sent.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const TAGS = ["Security"];

const KeyParams = Type.Object({
  publicKeyId: UuidParameter("The key's `publicKeyId`.", `a UUID, a publicKeyId as GET ${KEYS} lists them`),
});

export function registerPublicKeyRoutes(app: HarkApp, services: Services): void {
  const { db, clock, settings } = services;
  const keyUrl = (publicKeyId: string) => `${settings.publicUrl}${KEYS}/${publicKeyId}`;
  const summaryOf = (key: StoredPublicKey) => ({
    publicKeyId: key.publicKeyId,
    publicKeyHash: key.publicKeyHash,
    fingerprint: key.fingerprint,
    dateCreated: key.dateCreated.toISOString(),
    _links: { self: { href: keyUrl(key.publicKeyId) } },
  });

  // Its own scope, so that the body parsers below apply to these routes only.
  void app.register(async (scope: HarkApp) => {
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

    scope.post(
      KEYS,
      {
        schema: {
          operationId: "registerPublicKey",
          tags: TAGS,
          summary: "Upload an OpenPGP public key",
          description: `The ASCII-armored public key (\`gpg --armor --export <key id>\`) as the body, at most ${MAX_PUBLIC_KEY_BYTES / 1024} KiB, as ${KEY_CONTENT_TYPES.join(", ")}. Name its \`publicKeyId\` in an upload's \`configuration.encryption\` to have the results encrypted to it. The key must be able to encrypt now: not a private key, not revoked or expired, with an encryption subkey.`,
          body: {
            content: Object.fromEntries(KEY_CONTENT_TYPES.map((type) => [type, { schema: Binary(type) }])),
          },
          response: {
            // 200, not 201: VoiceBase's swagger answers registerPublicKey with 200, and clients check for it.
            200: response(PublicKey, "The key's summary."),
            ...accountRefusals("invalidPublicKey", "unsupportedMediaType", "bodyTooLarge"),
          },
        },
        bodyLimit: MAX_PUBLIC_KEY_BYTES,
        // The body is bytes, whatever they are: the handler reads the key from them, or says why not.
        validatorCompiler: () => () => true,
      },
      async (request, reply) => {
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
        return reply.status(200).send(summaryOf(created));
      },
    );

    scope.get(
      KEYS,
      {
        schema: {
          operationId: "listPublicKeys",
          tags: TAGS,
          summary: "List the public keys, oldest first",
          response: { 200: response(PublicKeyList, "The keys."), ...accountRefusals() },
        },
      },
      async (request) => ({
        _links: { self: { href: `${settings.publicUrl}${KEYS}` } },
        keys: (await listPublicKeys(db, request.account.accountId)).map(summaryOf),
      }),
    );

    scope.get(
      `${KEYS}/:publicKeyId`,
      {
        schema: {
          operationId: "retrievePublicKey",
          tags: TAGS,
          summary: "Get a public key exactly as uploaded",
          description: "Byte for byte as uploaded: its SHA-256 is the `publicKeyHash`.",
          params: KeyParams,
          response: {
            200: {
              description: "The armored key.",
              content: { "application/pgp-keys": { schema: Type.String() } },
            },
            ...accountRefusals("notFound"),
          },
        },
      },
      async (request, reply) => {
        const { publicKeyId } = request.params;
        const key = await getPublicKey(db, request.account.accountId, publicKeyId);
        if (!key) throw notFound(publicKeyId);
        return reply.type("application/pgp-keys").send(key.armored);
      },
    );

    scope.delete(
      `${KEYS}/:publicKeyId`,
      {
        schema: {
          operationId: "deletePublicKey",
          tags: TAGS,
          summary: "Delete a public key",
          description:
            "An item encrypted to it whose processing has not ended fails (11502) rather than keep its results unencrypted.",
          params: KeyParams,
          response: { 204: NoContent("Deleted."), ...accountRefusals("notFound") },
        },
      },
      async (request, reply) => {
        const { publicKeyId } = request.params;
        if (!(await deletePublicKey(db, request.account.accountId, publicKeyId))) throw notFound(publicKeyId);
        return reply.status(204).send();
      },
    );
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
