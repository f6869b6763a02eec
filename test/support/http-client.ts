/**
 * Hark driven over real HTTP, as a client on another machine would: for tests and benchmarks that run Hark
 * as processes of its own (`startMain`) rather than through `inject()`.
 */
import { openAsBlob } from "node:fs";
import path from "node:path";

/** Creates an account through the admin API; resolves to its token. */
export async function createAccountOver(address: string, adminToken: string, name: string): Promise<string> {
  const response = await fetch(`${address}/admin/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ accountName: name }),
  });
  if (response.status !== 201)
    throw new Error(`creating an account: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** Uploads the WAV `file` with `configuration`; resolves to the media id. */
export async function uploadOver(
  address: string,
  token: string,
  file: string,
  configuration: unknown,
): Promise<string> {
  const form = new FormData();
  form.append("media", await openAsBlob(file, { type: "audio/x-wav" }), path.basename(file));
  form.append("configuration", JSON.stringify(configuration));
  const response = await fetch(`${address}/v3/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (response.status !== 200) throw new Error(`upload: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { mediaId: string }).mediaId;
}
