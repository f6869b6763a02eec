/** `POST /admin/accounts`: creates an account and shows its token, once. Needs `HARK_ADMIN_TOKEN`. */
import { timingSafeEqual } from "node:crypto";
import { Type } from "typebox";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { createAccount, hashToken } from "../store/accounts.ts";
import { bearerToken } from "./auth.ts";
import { refuseWhileThrottled } from "./auth-throttle.ts";
import type { HarkApp } from "./hark-app.ts";
import { closed, harkAddition, JSON_BODY_ERRORS, refusals, Uuid } from "./schemas/common.ts";

const NewAccount = closed(
  {
    accountName: Type.String({
      pattern: "^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$",
      "x-allowed":
        "1 to 100 letters, digits, spaces, dots, underscores or dashes, starting with a letter or digit",
    }),
  },
  { examples: [{ accountName: "acme" }] },
);

const Account = Type.Object({
  accountId: Uuid(),
  accountName: Type.String(),
  token: Type.String({ description: "The account token; shown this once only." }),
});

export function registerAdminRoutes(app: HarkApp, services: Services): void {
  const adminHash =
    services.settings.adminToken === undefined ? undefined : hashToken(services.settings.adminToken);

  app.post(
    "/admin/accounts",
    {
      schema: {
        operationId: "createAccount",
        tags: ["Admin"],
        summary: "Create an account",
        ...harkAddition(
          "Answers the account's token, once. Needs the admin token; the admin API is off (403) unless Hark was started with `HARK_ADMIN_TOKEN`.",
        ),
        security: [{ adminToken: [] }],
        body: NewAccount,
        response: {
          201: { ...Account, description: "The account and its token." },
          ...refusals(
            "missingAuthorization",
            "invalidAuthorization",
            "authenticationThrottled",
            "adminDisabled",
            "accountNameTaken",
            ...JSON_BODY_ERRORS,
          ),
        },
      },
      // The admin token is checked before the body: a caller without it learns nothing of what it takes.
      preValidation: async (request, reply) => {
        if (adminHash === undefined) {
          throw new ApiError(
            "adminDisabled",
            "The admin API is off; start Hark with HARK_ADMIN_TOKEN set to use it",
          );
        }
        const token = bearerToken(request);
        if (token === undefined)
          throw new ApiError(
            "missingAuthorization",
            "Send the admin token as 'Authorization: Bearer <token>'",
          );
        const failed = request.server.failedAuthentications;
        const nowMs = services.clock.now().getTime();
        refuseWhileThrottled(failed, request, reply, nowMs);
        // Compare hashes, in constant time: the admin token must not leak through response timing.
        if (!timingSafeEqual(hashToken(token), adminHash)) {
          failed.record(request.ip, nowMs);
          throw new ApiError("invalidAuthorization", "The bearer token is not the admin token");
        }
      },
    },
    async (request, reply) => {
      const { accountName } = request.body;
      const account = await createAccount(services.db, accountName);
      if (!account)
        throw new ApiError(
          "accountNameTaken",
          `An account named ${JSON.stringify(accountName)} exists already`,
        );
      return reply.status(201).send(account);
    },
  );
}
