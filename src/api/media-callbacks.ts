/**
 * The delivery log and redelivery: `GET /v3/media/{mediaId}/callbacks` lists each callback of the item
 * with its state and every try; `POST .../callbacks/{deliveryId}/redeliver` starts a callback's schedule
 * again (new tries, the same body and `webhook-id`), also after it succeeded or was exhausted.
 */
import { Type } from "typebox";
import { deliveryLogEntry } from "../documents/callbacks-section.ts";
import { mediaUrl } from "../documents/media-document.ts";
import { REDELIVERY_INTERVAL_MS } from "../domain/delivery.ts";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { takeAllowance } from "../store/account-limits.ts";
import { attemptsOf, deliveriesOf, redeliver } from "../store/deliveries.ts";
import { requireAllowance } from "./account-limits.ts";
import type { HarkApp } from "./hark-app.ts";
import { findMedia, MediaParams } from "./media-lookup.ts";
import { accountRefusals, harkAddition, response, UuidParameter } from "./schemas/common.ts";
import { CallbackLog, CallbackLogEntry } from "./schemas/media.ts";

const TAGS = ["Callbacks"];

const DeliveryParams = Type.Object({
  ...MediaParams.properties,
  deliveryId: UuidParameter("The callback's `deliveryId`, as the delivery log gives it."),
});

export function registerCallbackRoutes(app: HarkApp, services: Services): void {
  const { db, settings, clock } = services;

  app.get(
    "/v3/media/:mediaId/callbacks",
    {
      schema: {
        operationId: "getCallbacksById",
        tags: TAGS,
        summary: "Get the delivery log: each callback, its state and every try",
        ...harkAddition(),
        params: MediaParams,
        response: { 200: response(CallbackLog, "The delivery log."), ...accountRefusals("notFound") },
      },
    },
    async (request) => {
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
      const [deliveries, attempts] = await Promise.all([
        deliveriesOf(db, media.mediaId),
        attemptsOf(db, media.mediaId),
      ]);
      return {
        _links: { self: { href: `${mediaUrl(settings.publicUrl, media.mediaId)}/callbacks` } },
        mediaId: media.mediaId,
        callbacks: deliveries.map((delivery) =>
          deliveryLogEntry(delivery, attempts.get(delivery.deliveryId) ?? []),
        ),
      };
    },
  );

  app.post(
    "/v3/media/:mediaId/callbacks/:deliveryId/redeliver",
    {
      schema: {
        operationId: "redeliverCallback",
        tags: TAGS,
        summary: "Send a callback again, from a fresh schedule",
        ...harkAddition(
          "The same body and `webhook-id` as before, also after the callback succeeded or was exhausted, or to bring forward a next scheduled attempt. Refused (409) while processing has not ended, for a skipped callback, while the callback is due to be sent or a burst of tries is running; of concurrent redeliveries one is accepted. Refused (429, with `Retry-After` in seconds) less than a minute after the callback's last accepted redelivery, and when the account has made as many redeliveries in the last minute as the server allows (`HARK_ACCOUNT_REDELIVERIES_PER_MINUTE`). Takes no body.",
        ),
        params: DeliveryParams,
        response: {
          202: response(CallbackLogEntry, "Scheduled; the callback's log entry."),
          ...accountRefusals(
            "notFound",
            "redeliveryRefused",
            "redeliveryTooSoon",
            "redeliveriesPerMinuteExceeded",
          ),
        },
      },
    },
    async (request, reply) => {
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
      const { deliveryId } = request.params;
      const perMinute = settings.accountRedeliveriesPerMinute;
      // One transaction: the account's count and the redelivery commit together, and a redelivery refused
      // for the callback's own reasons (thrown below) rolls its count back.
      const result = await db.transaction(async (sql) => {
        const now = clock.now();
        const allowance = await takeAllowance(sql, media.account.accountId, "redelivery", perMinute, now);
        requireAllowance(reply, "redelivery", perMinute, allowance);
        const outcome = await redeliver(
          sql,
          media.mediaId,
          deliveryId.toLowerCase(),
          now,
          REDELIVERY_INTERVAL_MS,
        );
        if (outcome === undefined) {
          throw new ApiError("notFound", `This media has no callback ${JSON.stringify(deliveryId)}`);
        }
        if ("retryAfterMs" in outcome) {
          const seconds = Math.ceil(outcome.retryAfterMs / 1000);
          reply.header("retry-after", String(seconds));
          throw new ApiError(
            "redeliveryTooSoon",
            `This callback was redelivered less than ${REDELIVERY_INTERVAL_MS / 1000} s ago; redeliver it again in ${seconds} s`,
          );
        }
        if (!("deliveryId" in outcome)) throw new ApiError("redeliveryRefused", refusal(outcome.state));
        return outcome;
      });
      services.events.emit("delivery.scheduled", { deliveryId: result.deliveryId, mediaId: media.mediaId });
      const attempts = (await attemptsOf(db, media.mediaId)).get(result.deliveryId) ?? [];
      return reply.status(202).send(deliveryLogEntry(result, attempts));
    },
  );
}

/** Why a redelivery was refused, by the state the callback was in. */
function refusal(state: string): string {
  switch (state) {
    case "waiting":
      return "Processing has not ended yet; the callback goes out when it does";
    case "skipped":
      return "This callback was skipped (nothing to send: failed processing, or a stream the media does not have)";
    case "pending":
    case "will-retry":
      return "This callback is due to be sent now (another redelivery may have just been accepted); read the delivery log once its burst has ended";
    case "trying":
      return "A burst of tries of this callback is running; redeliver once it has ended";
    default:
      return "The callback changed meanwhile; try again";
  }
}
