/**
 * Every shared schema (one with an `$id`): routes refer to them with `ref()`, the validators know them,
 * and the OpenAPI description lists them under `components.schemas` by their `$id`.
 */
import type { TSchema } from "typebox";
import { ConfigurationSchema, MetadataSchema } from "../../intake/configuration-schema.ts";
import { ANALYTICS_SCHEMAS } from "./analytics.ts";
import { ErrorEnvelope, ErrorSchema, Links } from "./common.ts";
import { DEFINITION_SCHEMAS } from "./definitions.ts";
import { MEDIA_SCHEMAS } from "./media.ts";
import { PROFILE_SCHEMAS } from "./profile.ts";
import { SEARCH_SCHEMAS } from "./search.ts";
import { SECURITY_SCHEMAS } from "./security.ts";
import { VOCABULARY_SCHEMAS } from "./vocabularies.ts";
import { USAGE_SCHEMAS } from "./usage.ts";

export const COMPONENTS: readonly TSchema[] = [
  Links,
  ErrorSchema,
  ErrorEnvelope,
  ConfigurationSchema,
  MetadataSchema,
  ...ANALYTICS_SCHEMAS,
  ...MEDIA_SCHEMAS,
  ...DEFINITION_SCHEMAS,
  ...VOCABULARY_SCHEMAS,
  ...SECURITY_SCHEMAS,
  ...PROFILE_SCHEMAS,
  ...USAGE_SCHEMAS,
  ...SEARCH_SCHEMAS,
];
