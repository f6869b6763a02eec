/**
 * The `/v3/profile/keys` documents and body (api/profile-keys.ts): VoiceBase's `VbKey`, `VbKeysResponse`
 * and `VbKeyConfiguration`, with the names and types its Swagger gives them.
 */
import { type Static, Type } from "typebox";
import { MAX_KEY_LIFE_MS, SCOPE_METHODS, SCOPE_RESOURCES } from "../../domain/api-key.ts";
import { DateTime, ref, Uuid } from "./common.ts";

const Scope = Type.String({
  description: `Limits what the key may send: \`resource:method\` items separated by spaces (\`media:get media:post\`), resources ${SCOPE_RESOURCES.join(", ")}, methods ${SCOPE_METHODS.join(", ")}. Absent: everything but the keys API. VoiceBase's \`?extendedFilter=\` is refused (70008): Hark cannot limit a key to some media.`,
});

const configurationProperties = {
  ttlMillis: Type.Optional(
    Type.Integer({ description: `Milliseconds the key works for, 1 to ${MAX_KEY_LIFE_MS} (2 hours).` }),
  ),
  expirationDate: Type.Optional(DateTime("When the key stops working, within 2 hours from now (ISO 8601).")),
  ephemeral: Type.Optional(
    Type.Boolean({ description: "An ephemeral key must be given `expirationDate` or `ttlMillis`." }),
  ),
  scope: Type.Optional(Scope),
};

type ConfigurationObject = Static<ReturnType<typeof Type.Object<typeof configurationProperties>>>;

/**
 * The body of `POST /v3/profile/keys`. No body is taken too, so that it can be refused with VoiceBase's
 * 70000 rather than a generic fault; an unknown property is refused.
 */
export const ApiKeyConfiguration = Type.Unsafe<ConfigurationObject | null>({
  $id: "ApiKeyConfiguration",
  type: ["object", "null"],
  properties: configurationProperties,
  additionalProperties: false,
  description:
    "VoiceBase's `VbKeyConfiguration`. At least one property (70000); `expirationDate` or `ttlMillis`, not both (70001); either at most 2 hours ahead. Without either, the key works until deleted, unless `ephemeral` (70006).",
  examples: [{ ttlMillis: 3600000, ephemeral: true, scope: "media:get" }, { ephemeral: false }],
});

const keyState = {
  id: Uuid("The key's id: `keyId` in `/v3/profile/keys/{keyId}`."),
  lastSix: Type.String({ description: "The token's last six characters, to tell keys apart." }),
  issued: DateTime("When the key was made."),
  expirationDate: Type.Optional(DateTime("When the key stops working; absent: when it is deleted.")),
  expired: Type.Boolean({ description: "Whether the key has stopped working (by its expiry)." }),
  scope: Type.Optional(Scope),
  ephemeral: Type.Boolean({ description: "Hark's addition: as the key was made." }),
};

export const ApiKey = Type.Object(keyState, {
  $id: "ApiKey",
  description: "VoiceBase's `VbKey`, without its token: a token is shown once, when the key is made.",
});

export const NewApiKey = Type.Object(
  {
    ...keyState,
    bearerToken: Type.String({
      description: "The key's token, for `Authorization: Bearer ...`; shown this once only.",
    }),
  },
  { $id: "NewApiKey", description: "VoiceBase's `VbKey` of a key just made, with its `bearerToken`." },
);

export const ApiKeyList = Type.Object(
  { keys: Type.Array(ref(ApiKey)) },
  {
    $id: "ApiKeyList",
    description: "VoiceBase's `VbKeysResponse`: the account's keys, expired ones included, oldest first.",
  },
);

export const PROFILE_SCHEMAS = [ApiKeyConfiguration, ApiKey, NewApiKey, ApiKeyList];
