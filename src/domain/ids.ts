/**
 * Hark's ids (media, deliveries, definitions, secrets, keys) are UUIDs. A path or configuration value that
 * is not one names nothing: callers answer "not found" rather than send PostgreSQL a value its uuid type
 * refuses.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}
