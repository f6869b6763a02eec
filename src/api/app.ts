/**
 * The HTTP API. `buildApp` wires routes to services and returns the Fastify instance; only `main`
 * listens. Every error leaves as VoiceBase's envelope `{status, errors: [{code, error}], reference}`,
 * where `reference` is the request id that the log carries too.
 */
import { randomUUID } from "node:crypto";
import multipart from "@fastify/multipart";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from "fastify";
import { ApiError, type ErrorEnvelope, errorEntry } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { VERSION } from "../domain/version.ts";
import { registerAdminRoutes } from "./admin-accounts.ts";
import { requireAccount } from "./auth.ts";
import { registerDefinitionRoutes } from "./definitions.ts";
import { registerMediaReadRoutes } from "./media-read.ts";
import { openApiDocument } from "./openapi.ts";
import { registerStreamRoutes } from "./media-streams.ts";
import { registerTranscriptRoutes } from "./media-transcript.ts";
import { registerCallbackRoutes } from "./media-callbacks.ts";
import { registerUploadRoute } from "./media-upload.ts";
import { registerPublicKeyRoutes } from "./public-keys.ts";
import { registerSigningSecretRoutes } from "./signing-secrets.ts";

export async function buildApp(services: Services): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    // Definition names in paths may be longer than find-my-way's default 100 characters; validation says
    // how long each may be, in the envelope.
    routerOptions: { maxParamLength: 1000 },
    // A URL the router cannot take apart (bad escapes, an overlong segment) still gets the envelope.
    frameworkErrors: (error, request, reply) => {
      const body: ErrorEnvelope = {
        status: 400,
        errors: [errorEntry("invalidRequest", `The URL cannot be routed: ${error.message}`)],
        reference: request.id,
      };
      // The reply's generics here describe no route; it is an ordinary reply.
      return (reply as FastifyReply).status(400).send(body);
    },
    logController: new LogController({
      requestIdLogLabel: "reference",
      disableRequestLogging: services.settings.logLevel !== "debug" && services.settings.logLevel !== "trace",
    }),
  });

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const apiError = error instanceof ApiError ? error : translateFrameworkError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, "request failed");
    const body: ErrorEnvelope = { status: apiError.status, errors: apiError.errors, reference: request.id };
    if (apiError.status === 401) reply.header("www-authenticate", 'Bearer realm="hark"');
    return reply.status(apiError.status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const body: ErrorEnvelope = {
      status: 404,
      errors: [
        errorEntry(
          "routeNotFound",
          `There is no ${request.method} ${request.url.split("?")[0]}; the routes are listed at /openapi.json`,
        ),
      ],
      reference: request.id,
    };
    return reply.status(404).send(body);
  });

  await app.register(multipart, {
    // Per-request limits are set by the upload route; these bound everything else in a multipart body.
    limits: { fieldSize: 1024 * 1024, fields: 10, parts: 20, headerPairs: 100 },
  });

  const description = openApiDocument(services.settings.publicUrl, VERSION);
  app.get("/openapi.json", async () => description);
  registerAdminRoutes(app, services);
  await app.register(async (v3) => {
    v3.addHook("onRequest", requireAccount(services));
    registerUploadRoute(v3, services);
    registerMediaReadRoutes(v3, services);
    registerTranscriptRoutes(v3, services);
    registerStreamRoutes(v3, services);
    registerCallbackRoutes(v3, services);
    registerDefinitionRoutes(v3, services);
    registerSigningSecretRoutes(v3, services);
    registerPublicKeyRoutes(v3, services);
  });
  return app;
}

/** Errors raised by Fastify and its plugins, in the client's terms. */
function translateFrameworkError(error: FastifyError): ApiError {
  switch (error.code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return new ApiError(
        "uploadTooLarge",
        "The media file is larger than this server accepts (HARK_MAX_UPLOAD_BYTES)",
      );
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("unsupportedMediaType", `Content-Type not accepted here: ${error.message}`);
    case "FST_PARTS_LIMIT":
    case "FST_FILES_LIMIT":
    case "FST_FIELDS_LIMIT":
      return new ApiError("invalidMultipart", `The multipart request has too many parts: ${error.message}`);
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return new ApiError("invalidRequest", error.message);
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new ApiError(
        "bodyTooLarge",
        `The request body is larger than this route takes: ${error.message}`,
      );
    case "FST_ERR_VALIDATION":
      return new ApiError("invalidRequest", `request ${error.message}`);
  }
  // busboy's own faults (a truncated body, a malformed part) carry no code.
  if (error.statusCode === 400 || /multipart|boundary|Unexpected end of form/i.test(error.message)) {
    return new ApiError("invalidMultipart", `The multipart request is malformed: ${error.message}`);
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError("invalidRequest", error.message);
  }
  return new ApiError(
    "internal",
    "Something went wrong on our side; the reference identifies it in our logs",
  );
}
