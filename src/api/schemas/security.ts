/**
 * The `/v3/security` documents and bodies: signing secrets (api/signing-secrets.ts, Hark's own) and the
 * public keys of client-supplied encryption (api/public-keys.ts, VoiceBase's `VbPublicKey`).
 */
import { Type } from "typebox";
import { closed, DateTime, Links, ref, Uuid } from "./common.ts";

/** A rotation long enough for any receiver to deploy its new secret; longer is a secret left behind. */
export const MAX_EXPIRY_SECONDS = 7 * 24 * 60 * 60;

const Secret = Type.String({ description: "`whsec_` and the base64 of 32 random bytes." });

const secretState = {
  dateExpires: Type.Optional(DateTime("When it stops signing; absent until it is given an expiry.")),
  active: Type.Boolean({ description: "Whether it signs now: not expired." }),
};

export const NewSigningSecret = Type.Object(
  { secretId: Uuid(), secret: Secret, dateCreated: DateTime() },
  { $id: "NewSigningSecret", description: "A secret just created, shown in full." },
);

export const SigningSecret = Type.Object(
  { secretId: Uuid(), secret: Secret, dateCreated: DateTime(), ...secretState },
  { $id: "SigningSecret", description: "A secret, shown in full." },
);

export const SigningSecretSummary = Type.Object(
  {
    secretId: Uuid(),
    last4: Type.String({ description: "The secret's last 4 characters, to tell which one it is." }),
    dateCreated: DateTime(),
    ...secretState,
  },
  { $id: "SigningSecretSummary", description: "A secret as lists show it: never the secret itself." },
);

export const SigningSecretList = Type.Object(
  { _links: ref(Links), secrets: Type.Array(ref(SigningSecretSummary)) },
  { $id: "SigningSecretList", description: "The account's signing secrets." },
);

export const SigningSecretExpiry = closed(
  {
    afterSeconds: Type.Integer({
      minimum: 0,
      maximum: MAX_EXPIRY_SECONDS,
      "x-allowed": `a whole number of seconds from 0 (now) to ${MAX_EXPIRY_SECONDS} (7 days)`,
      description: "Seconds from now; 0 expires the secret at once.",
    }),
  },
  {
    $id: "SigningSecretExpiry",
    description: "When the secret stops signing.",
    examples: [{ afterSeconds: 86400 }],
  },
);

export const PublicKey = Type.Object(
  {
    publicKeyId: Uuid("What `configuration.encryption.publicKeyId` names."),
    publicKeyHash: Type.String({ description: "SHA-256 of the key text as uploaded, hex." }),
    fingerprint: Type.String({ description: "The OpenPGP fingerprint of the primary key, hex." }),
    dateCreated: DateTime(),
    _links: ref(Links),
  },
  {
    $id: "PublicKey",
    description: "VoiceBase's `VbPublicKey`, with Hark's `fingerprint`, `dateCreated` and `_links`.",
  },
);

export const PublicKeyList = Type.Object(
  { _links: ref(Links), keys: Type.Array(ref(PublicKey)) },
  { $id: "PublicKeyList", description: "VoiceBase's `VbPublicKeysResponse`, oldest first." },
);

export const SECURITY_SCHEMAS = [
  NewSigningSecret,
  SigningSecret,
  SigningSecretSummary,
  SigningSecretList,
  SigningSecretExpiry,
  PublicKey,
  PublicKeyList,
];
