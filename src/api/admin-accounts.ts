/** `POST /admin/accounts`: creates an account and shows its token, once. Needs `HARK_ADMIN_TOKEN`. */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { createAccount, hashToken } from "../store/accounts.ts";
import { bearerToken } from "./auth.ts";

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;

export function registerAdminRoutes(app: FastifyInstance, services: Services): void {
  const adminHash =
    services.settings.adminToken === undefined ? undefined : hashToken(services.settings.adminToken);

  app.post("/admin/accounts", async (request, reply) => {
    if (adminHash === undefined) {
      throw new ApiError(
        "adminDisabled",
        "The admin API is off; start Hark with HARK_ADMIN_TOKEN set to use it",
      );
    }
    const token = bearerToken(request);
    if (token === undefined)
      throw new ApiError("missingAuthorization", "Send the admin token as 'Authorization: Bearer <token>'");
    // Compare hashes, in constant time: the admin token must not leak through response timing.
    if (!timingSafeEqual(hashToken(token), adminHash)) {
      throw new ApiError("invalidAuthorization", "The bearer token is not the admin token");
    }
    const body = request.body as { accountName?: unknown } | undefined;
    const accountName = body?.accountName;
    if (typeof accountName !== "string" || !ACCOUNT_NAME.test(accountName)) {
      throw new ApiError(
        "invalidRequest",
        "accountName is required: 1 to 100 letters, digits, spaces, dots, underscores or dashes, starting with a letter or digit",
      );
    }
    const extra = Object.keys(body as object).filter((key) => key !== "accountName");
    if (extra.length > 0)
      throw new ApiError("invalidRequest", `Unknown properties: ${extra.join(", ")}; send only accountName`);
    const account = await createAccount(services.db, accountName);
    if (!account)
      throw new ApiError(
        "accountNameTaken",
        `An account named ${JSON.stringify(accountName)} exists already`,
      );
    return reply.status(201).send(account);
  });
}
