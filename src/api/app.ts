/**
 * The HTTP API. `buildApp` wires routes to services and returns the Fastify instance; only `main`
 * listens. Each route declares its params, query, body and responses as schemas (TypeBox): they validate
 * the request, type it, and make the OpenAPI description (`@fastify/swagger`, served at `/openapi.json`
 * and browsable at `/docs`). Every error leaves as VoiceBase's envelope
 * `{status, errors: [{code, error}], reference}`, where `reference` is the request id the log carries too.
 */
import { randomUUID } from "node:crypto";
import multipart from "@fastify/multipart";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyReply,
  LogController,
} from "fastify";
import pino from "pino";
import { Type } from "typebox";
import { clientMessage } from "../domain/client-message.ts";
import { ApiError, type ErrorEnvelope, errorEntry } from "../domain/errors.ts";
import { serverFaultOf } from "../domain/server-faults.ts";
import { VERSION } from "../domain/version.ts";
import type { Services } from "../services.ts";
import type { Settings } from "../settings.ts";
import { registerAdminRoutes } from "./admin-accounts.ts";
import { requireAccount } from "./auth.ts";
import { AUTH_FAILURE_LIMITS, FailedAuthentications } from "./auth-throttle.ts";
import { bodyTimeouts } from "./body-timeouts.ts";
import { isClientDisconnect } from "./client-disconnects.ts";
import { clientErrorHandler } from "./client-errors.ts";
import { registerDefinitionRoutes } from "./definitions.ts";
import type { HarkApp } from "./hark-app.ts";
import { registerCallbackRoutes } from "./media-callbacks.ts";
import { registerMetadataRoutes } from "./media-metadata.ts";
import { registerMediaReadRoutes } from "./media-read.ts";
import { registerReprocessRoute } from "./media-reprocess.ts";
import { registerMediaSearchRoute } from "./media-search.ts";
import { registerStreamBytesRoute, registerStreamRoutes } from "./media-streams.ts";
import { registerTranscriptRoutes } from "./media-transcript.ts";
import { registerUploadRoute } from "./media-upload.ts";
import { baseDocument } from "./openapi.ts";
import { registerProfileKeyRoutes } from "./profile-keys.ts";
import { registerPublicKeyRoutes } from "./public-keys.ts";
import { registerSearchableFieldRoutes } from "./searchable-fields.ts";
import { harkAddition } from "./schemas/common.ts";
import { COMPONENTS } from "./schemas/components.ts";
import { registerSigningSecretRoutes } from "./signing-secrets.ts";
import { mediaTooLarge } from "./upload-parts.ts";
import { registerUsageRoutes } from "./usage.ts";
import { faults, validatorCompiler } from "./validation.ts";
import { registerVocabularyRoutes } from "./vocabularies.ts";
import { registerVbqlRoute } from "./vbql.ts";

export async function buildApp(services: Services): Promise<HarkApp> {
  const app = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    // Definition names in paths may be longer than find-my-way's default 100 characters; validation says
    // how long each may be, in the envelope.
    routerOptions: { maxParamLength: 1000 },
    // `request.ip` is the client's behind the proxies the operator named, and the connection's otherwise.
    ...(services.settings.trustProxy.length > 0 && { trustProxy: [...services.settings.trustProxy] }),
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
    schemaErrorFormatter: faults(),
    // Requests Node's parser refuses (bad HTTP, headers too large) get the envelope too.
    clientErrorHandler: clientErrorHandler(services.log as FastifyBaseLogger),
    logController: new LogController({
      requestIdLogLabel: "reference",
      disableRequestLogging: services.settings.logLevel !== "debug" && services.settings.logLevel !== "trace",
    }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // One process holds at most this many connections; more are closed as they are accepted (Node's
  // `server.maxConnections`), so a crowd of slow clients costs a bounded number of sockets and files.
  app.server.maxConnections = services.settings.maxConnections;
  app.decorate(
    "failedAuthentications",
    new FailedAuthentications({ ...AUTH_FAILURE_LIMITS, failures: services.settings.authFailuresPerMinute }),
  );

  // First of the hooks: a body that stops coming ends its request, whatever route it was sent to.
  app.addHook(
    "onRequest",
    bodyTimeouts({
      idleMs: services.settings.uploadIdleTimeoutSeconds * 1000,
      totalMs: services.settings.uploadTimeoutSeconds * 1000,
    }),
  );

  // A route that does not describe itself cannot be added: the description would miss it.
  app.addHook("onRoute", (route) => {
    if (route.schema?.hide || route.method === "HEAD") return;
    const { operationId, summary, tags, response } = route.schema ?? {};
    if (!operationId || !summary || !tags || !response) {
      throw new Error(
        `${String(route.method)} ${route.url} needs a schema with operationId, summary, tags and response (src/api/app.ts)`,
      );
    }
  });
  app.setValidatorCompiler(validatorCompiler(COMPONENTS));
  // Response schemas describe; they never filter. fast-json-stringify would drop every field a schema
  // does not name, and the media document's sections vary with the configuration.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  for (const schema of COMPONENTS) app.addSchema(schema);

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    // A request ended early (a body timeout answered 408) fails in its handler afterwards: nothing to say.
    if (reply.sent) return;
    // A client that went away mid-request has nobody to answer, and it is not a fault of Hark's.
    if (isClientDisconnect(error, request)) {
      request.log.info(
        { code: (error as { code?: unknown }).code },
        "client closed the connection mid-request",
      );
      return;
    }
    const apiError =
      error instanceof ApiError ? error : translateFrameworkError(error, services.settings.maxUploadBytes);
    if (apiError.status >= 500) request.log.error({ err: error }, "request failed");
    // Messages may quote a library or the system (a parser's complaint): never with a server path.
    const roots = [services.settings.dataDir];
    const errors = apiError.errors.map((entry) => ({
      ...entry,
      error: clientMessage(entry.error, { roots }),
    }));
    const body: ErrorEnvelope = { status: apiError.status, errors, reference: request.id };
    if (apiError.status === 401) reply.header("www-authenticate", 'Bearer realm="hark"');
    return reply.status(apiError.status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const body: ErrorEnvelope = {
      status: 404,
      errors: [
        errorEntry(
          "routeNotFound",
          `There is no ${request.method} ${request.url.split("?")[0]}; the routes are listed at /openapi.json and /docs`,
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
  await app.register(swagger, {
    openapi: baseDocument(services.settings.publicUrl, VERSION),
    // Shared schemas appear under `components.schemas` by their `$id`.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) =>
        typeof json.$id === "string" ? json.$id : `def-${index}`,
    },
  });
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    // The UI would otherwise fetch a badge from validator.swagger.io: Hark calls out to nobody.
    uiConfig: { validatorUrl: null, deepLinking: true },
  });

  app.get(
    "/openapi.json",
    {
      schema: {
        operationId: "getOpenApiDocument",
        tags: ["Service"],
        summary: "This OpenAPI description",
        ...harkAddition("Swagger UI shows it at `/docs`."),
        security: [],
        response: {
          200: Type.Unsafe<unknown>(Type.Object({}, { description: "The OpenAPI 3.1 document." })),
        },
      },
    },
    async () => app.swagger(),
  );
  registerAdminRoutes(app, services);
  registerStreamBytesRoute(app, services);
  await app.register(async (v3) => {
    v3.addHook("onRequest", requireAccount(services));
    registerUploadRoute(v3, services);
    registerMediaSearchRoute(v3, services);
    registerMediaReadRoutes(v3, services);
    registerReprocessRoute(v3, services);
    registerMetadataRoutes(v3, services);
    registerTranscriptRoutes(v3, services);
    registerStreamRoutes(v3, services);
    registerCallbackRoutes(v3, services);
    registerDefinitionRoutes(v3, services);
    registerVocabularyRoutes(v3, services);
    registerSearchableFieldRoutes(v3, services);
    registerSigningSecretRoutes(v3, services);
    registerPublicKeyRoutes(v3, services);
    registerProfileKeyRoutes(v3, services);
    registerUsageRoutes(v3, services);
    registerVbqlRoute(v3, services);
  });
  return app;
}

/**
 * The OpenAPI description of the routes `buildApp` registers, with no database or store behind them:
 * registering a route uses none of the services, only the settings. For `npm run openapi` and its test.
 */
export async function describeApi(
  settings: Settings,
): Promise<Exclude<ReturnType<HarkApp["swagger"]>, string>> {
  const unavailable = () => {
    throw new Error("describing the API uses no services");
  };
  const services = new Proxy(
    { settings, log: pino({ level: "silent" }) },
    { get: (known, name) => (name in known ? known[name as keyof typeof known] : unavailable) },
  ) as unknown as Services;
  const app = await buildApp(services);
  await app.ready();
  const document = app.swagger();
  await app.close();
  return document;
}

/** Errors raised by Fastify and its plugins, in the client's terms. */
function translateFrameworkError(error: FastifyError, maxUploadBytes: number): ApiError {
  switch (error.code) {
    case "FST_REQ_FILE_TOO_LARGE":
      return new ApiError("bodyTooLarge", mediaTooLarge(maxUploadBytes));
    case "FST_INVALID_MULTIPART_CONTENT_TYPE":
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new ApiError("unsupportedMediaType", `Content-Type not accepted here: ${error.message}`);
    case "FST_INVALID_JSON_FIELD_ERROR":
      return new ApiError("configurationUnparseable", "A part typed application/json is not valid JSON");
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
  if (serverFaultOf(error) === "storage-full") {
    return new ApiError(
      "storageFull",
      "Hark's storage is full, so nothing of the request was kept; send it again later",
    );
  }
  return new ApiError(
    "internal",
    "Something went wrong on our side; the reference identifies it in our logs",
  );
}
