/**
 * Hark's ids (media, deliveries, definitions, secrets, keys) are UUIDs. A path or configuration value that
 * is not one names nothing: callers answer "not found" rather than send PostgreSQL a value its uuid type
 * refuses.
 */
export const UUID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";
const UUID = new RegExp(UUID_PATTERN);

export function isUuid(text: string): boolean {
  return UUID.test(text);
}
