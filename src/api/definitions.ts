/**
 * The definitions API, per account: keyword spotting groups (`/v3/definition/spotting/groups`),
 * categories (`/v3/definition/categories`) and trained classifiers (`/v3/definition/prediction/classifiers`),
 * stored in PostgreSQL; and what Hark has built in, read-only: the detectors
 * (`/v3/definition/prediction/detectors`) and the metric groups (`/v3/definition/metrics`).
 *
 * Shapes are VoiceBase's (`VbKeywordGroup`, `VbCategory`, `VbClassifierModel`, `VbDetectorModel`,
 * `VbMetricGroupDef`); lists carry `_links.self` as VoiceBase's classifier list shows. Training a
 * classifier with `PUT .../classifiers/{classifierName}` is Hark's own: VoiceBase trains them for you.
 * Bodies are checked strictly: an unknown property is refused rather than ignored.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { parseCategoryQuery } from "../analytics/categories.ts";
import { ClassifierTrainingError, trainClassifier, type TrainingExample } from "../analytics/classifiers.ts";
import {
  DETECTION_LEVELS,
  DETECTOR_NAMES,
  DETECTOR_VERSION,
  detect,
  type DetectionLevel,
  type DetectorName,
} from "../analytics/detectors.ts";
import { validateSpottingGroup } from "../analytics/spotting.ts";
import { ApiError, type ErrorName } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import {
  type ClassifierSummary,
  deleteCategory,
  deleteClassifier,
  deleteSpottingGroup,
  getCategory,
  getClassifier,
  getSpottingGroups,
  listCategories,
  listClassifiers,
  listSpottingGroups,
  putCategory,
  putClassifier,
  putSpottingGroup,
  type StoredCategory,
} from "../store/definitions.ts";
import { isUuid } from "../domain/ids.ts";
import type { ClassifierModel, Category } from "../domain/definitions.ts";

/** Category and classifier names follow the rule of group names: they go into URL paths. */
const NAME = /^[A-Za-z0-9._-]+$/;
/**
 * Fastify's router refuses a longer path parameter (its `maxParamLength`) before a route runs, so no
 * longer name could be read or deleted. Group names are bound by it too, below their own limit of 128.
 */
const MAX_NAME_LENGTH = 100;

/** VoiceBase's limits on a category's bookkeeping fields (its categories guide). */
const MAX_NOTES_LENGTH = 4000;
const MAX_TAGS = 32;
const MAX_TAG_LENGTH = 64;
/** VoiceBase gives no limit here; these are generous for text people write by hand. */
const MAX_DESCRIPTION_LENGTH = 4000;
const MAX_VERSION_LENGTH = 100;

export const MAX_CLASSIFIER_EXAMPLES = 10_000;
const MAX_LABEL_LENGTH = 128;
/**
 * Training runs in the request, on the event loop, at about 200,000 words a second: 4 MiB of examples
 * (some 700,000 words) holds the process for a few seconds, which is as long as it should.
 */
export const CLASSIFIER_BODY_LIMIT = 4 * 1024 * 1024;

const GROUPS = "/v3/definition/spotting/groups";
const CATEGORIES = "/v3/definition/categories";
const CLASSIFIERS = "/v3/definition/prediction/classifiers";
const DETECTORS = "/v3/definition/prediction/detectors";
const METRICS = "/v3/definition/metrics";

export function registerDefinitionRoutes(app: FastifyInstance, services: Services): void {
  const { db, clock, settings } = services;
  const links = (path: string) => ({ self: { href: `${settings.publicUrl}${path}` } });

  // Keyword spotting groups

  app.get(GROUPS, async (request) => ({
    _links: links(GROUPS),
    groups: await listSpottingGroups(db, request.account.accountId),
  }));

  app.get<{ Params: { groupName: string } }>(`${GROUPS}/:groupName`, async (request) => {
    const { groupName } = request.params;
    const [group] = await getSpottingGroups(db, request.account.accountId, [groupName]);
    if (group === undefined) throw notFound("keyword spotting group", groupName, GROUPS);
    return group;
  });

  app.put<{ Params: { groupName: string } }>(`${GROUPS}/:groupName`, async (request) => {
    const pathName = request.params.groupName;
    const body = objectBody(request.body, "spottingGroupInvalid", '"groupName" and "keywords"');
    refuseUnknown(body, ["groupName", "keywords"], "spottingGroupInvalid");
    sameName(body, "groupName", pathName);
    const validation = validateSpottingGroup({ ...body, groupName: pathName });
    if (!validation.ok) throw new ApiError("spottingGroupInvalid", validation.error);
    await putSpottingGroup(db, request.account.accountId, validation.group, clock.now());
    return validation.group;
  });

  app.delete<{ Params: { groupName: string } }>(`${GROUPS}/:groupName`, async (request, reply) => {
    const { groupName } = request.params;
    if (!(await deleteSpottingGroup(db, request.account.accountId, groupName)))
      throw notFound("keyword spotting group", groupName, GROUPS);
    return reply.status(204).send();
  });

  // Categories

  app.get(CATEGORIES, async (request) => ({
    _links: links(CATEGORIES),
    categories: (await listCategories(db, request.account.accountId)).map(categoryDocument),
  }));

  app.get<{ Params: { categoryName: string } }>(`${CATEGORIES}/:categoryName`, async (request) => {
    const { categoryName } = request.params;
    const category = await getCategory(db, request.account.accountId, categoryName);
    if (category === undefined) throw notFound("category", categoryName, CATEGORIES);
    return categoryDocument(category);
  });

  app.put<{ Params: { categoryName: string } }>(`${CATEGORIES}/:categoryName`, async (request) => {
    const category = parseCategory(request.body, request.params.categoryName);
    return categoryDocument(await putCategory(db, request.account.accountId, category, clock.now()));
  });

  app.delete<{ Params: { categoryName: string } }>(`${CATEGORIES}/:categoryName`, async (request, reply) => {
    const { categoryName } = request.params;
    if (!(await deleteCategory(db, request.account.accountId, categoryName)))
      throw notFound("category", categoryName, CATEGORIES);
    return reply.status(204).send();
  });

  // Classifiers

  app.get(CLASSIFIERS, async (request) => ({
    _links: links(CLASSIFIERS),
    classifiers: (await listClassifiers(db, request.account.accountId)).map(classifierDocument),
  }));

  app.get<{ Params: { classifier: string } }>(`${CLASSIFIERS}/:classifier`, async (request) => {
    const { classifier: ref } = request.params;
    const classifier = await getClassifier(db, request.account.accountId, ref);
    if (classifier === undefined) throw notFound("classifier", ref, CLASSIFIERS);
    return classifierDocument(classifier);
  });

  app.put<{ Params: { classifier: string } }>(
    `${CLASSIFIERS}/:classifier`,
    { bodyLimit: CLASSIFIER_BODY_LIMIT },
    async (request) => {
      const classifierName = request.params.classifier;
      const { examples, positiveLabel } = parseTraining(request.body, classifierName);
      const model = train(examples, positiveLabel);
      const stored = await putClassifier(
        db,
        request.account.accountId,
        { classifierName, model, exampleCount: examples.length },
        randomUUID(),
        clock.now(),
      );
      return classifierDocument(stored);
    },
  );

  app.delete<{ Params: { classifier: string } }>(`${CLASSIFIERS}/:classifier`, async (request, reply) => {
    const { classifier: ref } = request.params;
    if (!(await deleteClassifier(db, request.account.accountId, ref)))
      throw notFound("classifier", ref, CLASSIFIERS);
    return reply.status(204).send();
  });

  // Built in: detectors and metric groups

  const detectors = detectorDefinitions();

  app.get(DETECTORS, async () => ({ _links: links(DETECTORS), detectors }));

  app.get<{ Params: { detectorId: string } }>(`${DETECTORS}/:detectorId`, async (request) => {
    const { detectorId } = request.params;
    const detector = detectors.find((known) => known.detectorId === detectorId);
    if (detector === undefined) throw notFound("detector", detectorId, DETECTORS);
    return detector;
  });

  app.get(METRICS, async () => ({ _links: links(METRICS), metricGroups: METRIC_GROUPS }));
}

function notFound(what: string, name: string, listPath: string): ApiError {
  return new ApiError(
    "notFound",
    `This account has no ${what} ${JSON.stringify(name)}; GET ${listPath} lists those it has`,
  );
}

/** The body as a JSON object, or a 400 saying what it should hold. */
function objectBody(body: unknown, errorName: ErrorName, holding: string): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ApiError(errorName, `The body must be a JSON object with ${holding}`);
  return body as Record<string, unknown>;
}

function refuseUnknown(
  body: Record<string, unknown>,
  allowed: readonly string[],
  errorName: ErrorName,
): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new ApiError(
      errorName,
      `Unknown properties ${unknown.map((key) => `"${key}"`).join(", ")}; the body takes ${allowed.map((key) => `"${key}"`).join(", ")}`,
    );
  }
}

/** The name may be repeated in the body, as VoiceBase's examples do; then it must be the path's. */
function sameName(body: Record<string, unknown>, field: string, pathName: string): void {
  const given = body[field];
  if (given !== undefined && given !== pathName) {
    throw new ApiError(
      "definitionNameMismatch",
      `"${field}" in the body (${JSON.stringify(given)}) is not the name in the path (${JSON.stringify(pathName)}); leave it out or make them the same`,
    );
  }
}

function checkName(name: string, field: string, errorName: ErrorName): void {
  if (name.length > MAX_NAME_LENGTH)
    throw new ApiError(errorName, `"${field}" must be at most ${MAX_NAME_LENGTH} characters`);
  if (!NAME.test(name))
    throw new ApiError(errorName, `"${field}" may contain only letters, digits, ".", "_" and "-"`);
}

/** An optional string property, at most `max` characters. */
function optionalText(
  body: Record<string, unknown>,
  field: string,
  max: number,
  errorName: ErrorName,
): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new ApiError(errorName, `"${field}" must be a string`);
  if (value.length > max) throw new ApiError(errorName, `"${field}" must be at most ${max} characters`);
  return value;
}

// Categories

const CATEGORY_FIELDS = ["categoryName", "categoryDescription", "query", "tags", "notes", "version"];

function parseCategory(raw: unknown, categoryName: string): Category {
  const body = objectBody(raw, "categoryInvalid", '"query" (and optionally "categoryDescription")');
  refuseUnknown(body, CATEGORY_FIELDS, "categoryInvalid");
  sameName(body, "categoryName", categoryName);
  checkName(categoryName, "categoryName", "categoryInvalid");
  const { query, tags } = body;
  if (typeof query !== "string")
    throw new ApiError("categoryInvalid", '"query" is required: a string in Hark\'s query language');
  const parsed = parseCategoryQuery(query);
  if (!parsed.ok) throw new ApiError("categoryQueryInvalid", `"query" cannot be used: ${parsed.error}`);
  if (
    tags !== undefined &&
    (!Array.isArray(tags) ||
      tags.length > MAX_TAGS ||
      !tags.every((tag) => typeof tag === "string" && tag !== "" && tag.length <= MAX_TAG_LENGTH))
  ) {
    throw new ApiError(
      "categoryInvalid",
      `"tags" must be an array of at most ${MAX_TAGS} non-empty strings of at most ${MAX_TAG_LENGTH} characters`,
    );
  }
  const categoryDescription = optionalText(
    body,
    "categoryDescription",
    MAX_DESCRIPTION_LENGTH,
    "categoryInvalid",
  );
  const notes = optionalText(body, "notes", MAX_NOTES_LENGTH, "categoryInvalid");
  const version = optionalText(body, "version", MAX_VERSION_LENGTH, "categoryInvalid");
  return {
    categoryName,
    query,
    ...(categoryDescription !== undefined && { categoryDescription }),
    ...(tags !== undefined && { tags: tags as string[] }),
    ...(notes !== undefined && { notes }),
    ...(version !== undefined && { version }),
  };
}

/** VoiceBase's `VbCategory`. */
function categoryDocument(category: StoredCategory) {
  return {
    categoryName: category.categoryName,
    ...(category.categoryDescription !== undefined && { categoryDescription: category.categoryDescription }),
    ...(category.tags !== undefined && { tags: category.tags }),
    query: category.query,
    ...(category.version !== undefined && { version: category.version }),
    ...(category.notes !== undefined && { notes: category.notes }),
    dateCreated: category.dateCreated.toISOString(),
    dateModified: category.dateModified.toISOString(),
  };
}

// Classifiers

function parseTraining(
  raw: unknown,
  classifierName: string,
): { examples: TrainingExample[]; positiveLabel?: string } {
  const body = objectBody(raw, "classifierInvalid", '"examples": [{"text", "label"}, ...]');
  refuseUnknown(body, ["classifierName", "examples", "positiveLabel"], "classifierInvalid");
  sameName(body, "classifierName", classifierName);
  checkName(classifierName, "classifierName", "classifierInvalid");
  if (isUuid(classifierName)) {
    throw new ApiError(
      "classifierInvalid",
      '"classifierName" must not have the form of a classifier id (a UUID): a classifier is looked up by either',
    );
  }
  const { examples, positiveLabel } = body;
  if (!Array.isArray(examples) || examples.length === 0)
    throw new ApiError(
      "classifierInvalid",
      '"examples" must be a non-empty array of {"text", "label"} objects',
    );
  if (examples.length > MAX_CLASSIFIER_EXAMPLES)
    throw new ApiError(
      "classifierInvalid",
      `"examples" may hold at most ${MAX_CLASSIFIER_EXAMPLES} examples`,
    );
  const checked: TrainingExample[] = examples.map((example: unknown, position) => {
    const where = `"examples[${position}]"`;
    if (typeof example !== "object" || example === null || Array.isArray(example))
      throw new ApiError("classifierInvalid", `${where} must be an object with "text" and "label"`);
    const { text, label, ...rest } = example as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0)
      throw new ApiError(
        "classifierInvalid",
        `${where} has unknown properties ${extra.join(", ")}; give only "text" and "label"`,
      );
    if (typeof text !== "string" || text.trim() === "")
      throw new ApiError("classifierInvalid", `${where}.text must be a non-empty string`);
    if (typeof label !== "string" || label === "" || label.length > MAX_LABEL_LENGTH)
      throw new ApiError(
        "classifierInvalid",
        `${where}.label must be a string of 1 to ${MAX_LABEL_LENGTH} characters`,
      );
    return { text, label };
  });
  if (positiveLabel !== undefined && typeof positiveLabel !== "string")
    throw new ApiError("classifierInvalid", '"positiveLabel" must be a string: one of the examples\' labels');
  return { examples: checked, ...(positiveLabel !== undefined && { positiveLabel }) };
}

function train(examples: readonly TrainingExample[], positiveLabel: string | undefined): ClassifierModel {
  try {
    return trainClassifier(examples, positiveLabel === undefined ? {} : { positiveLabel });
  } catch (error) {
    if (error instanceof ClassifierTrainingError)
      throw new ApiError("classifierTrainingFailed", `Cannot train the classifier: ${error.message}`);
    throw error;
  }
}

/**
 * VoiceBase's `VbClassifierModel`, with Hark's additions: how many examples trained it and when.
 * `classifierVersion` is a string there; it counts trainings under this name.
 */
function classifierDocument(classifier: ClassifierSummary) {
  return {
    classifierId: classifier.classifierId,
    classifierName: classifier.classifierName,
    classifierVersion: String(classifier.version),
    classifierType: "binary",
    classes: classifier.classes,
    exampleCount: classifier.exampleCount,
    dateCreated: classifier.dateCreated.toISOString(),
    dateModified: classifier.dateModified.toISOString(),
  };
}

// Detectors

/** Class labels of the detections, as detect() reports them (a test checks they agree). */
const DETECTOR_CLASS_LABELS: Readonly<Record<DetectorName, string>> = {
  PCI: "pci",
  SSN: "ssn",
  Number: "Number",
};

/** The detection level each detector uses when a configuration gives none (a test checks they agree). */
const DEFAULT_DETECTION_LEVELS: Readonly<Record<DetectorName, DetectionLevel>> = {
  PCI: "entireRegion",
  SSN: "entireRegion",
  Number: "numbersOnly",
};

/**
 * VoiceBase's `VbDetectorModel` for each built-in detector. A detector's id is its name: Hark's detectors
 * are fixed rules, not models an account trains, so there is no other identity to give them.
 */
function detectorDefinitions() {
  return DETECTOR_NAMES.map((detectorName) => {
    // The display name is detect()'s own; running a detector over no words is how to read it.
    const [described] = detect({ words: [] }, [{ detectorName }]);
    return {
      detectorId: detectorName,
      detectorName,
      detectorVersion: DETECTOR_VERSION,
      detectorDescription: described?.detectorDisplayName ?? detectorName,
      detectorType: "binary",
      classes: [{ classLabel: DETECTOR_CLASS_LABELS[detectorName], classValue: 1 }],
      parameters: [
        {
          name: "detectionLevel",
          optional: true,
          type: "String",
          valueSet: [...DETECTION_LEVELS],
          defaultValue: DEFAULT_DETECTION_LEVELS[detectorName],
        },
        ...(detectorName === "Number"
          ? [{ name: "minimumDigits", optional: true, type: "Integer", defaultValue: "1" }]
          : []),
      ],
    };
  });
}

// Metric groups

/**
 * VoiceBase's `VbMetricGroupDef` for each metric group Hark computes, its metrics in the order media
 * results list them (a test checks both against metricsOf). Definitions follow VoiceBase's
 * conversation-metrics guide, as Hark computes them. `talk-style-tone-and-volume` needs voice features
 * Hark does not measure, so it is not offered.
 */
export const METRIC_GROUPS = [
  {
    metricGroupName: "overtalk",
    metrics: [
      metricDef("overtalk-incidents", "Times both parties talked at once for 250 ms or more; an integer."),
      metricDef(
        "agent-overtalk-incidents",
        "Times the agent began talking while the caller was talking; an integer.",
      ),
      metricDef(
        "caller-overtalk-incidents",
        "Times the caller began talking while the agent was talking; an integer.",
      ),
      metricDef(
        "overtalk-ratio",
        "Share of the call during which both parties talked at once, 0 to 1 (.01 resolution).",
      ),
      metricDef(
        "agent-overtalk-ratio",
        "Share of the call during which the agent talked over the caller (the caller began first), 0 to 1.",
      ),
      metricDef(
        "caller-overtalk-ratio",
        "Share of the call during which the caller talked over the agent (the agent began first), 0 to 1.",
      ),
    ],
  },
  {
    metricGroupName: "sentiment",
    metrics: [
      metricDef(
        "call-sentiment",
        "Mean sentiment of all sentences, -1 (very negative) to 1 (very positive).",
      ),
      metricDef("start-sentiment", "Mean sentiment of the first third of the sentences, -1 to 1."),
      metricDef("end-sentiment", "Mean sentiment of the last third of the sentences, -1 to 1."),
      metricDef(
        "call-change-in-sentiment",
        "End sentiment minus start sentiment, -2 to 2; negative when the call ended worse than it began.",
      ),
      metricDef("agent-sentiment", "Mean sentiment of the agent's sentences, -1 to 1."),
      metricDef(
        "agent-start-sentiment",
        "Mean sentiment of the first third of the agent's sentences, -1 to 1.",
      ),
      metricDef("agent-end-sentiment", "Mean sentiment of the last third of the agent's sentences, -1 to 1."),
      metricDef(
        "agent-intra-call-change-in-sentiment",
        "Agent end sentiment minus agent start sentiment, -2 to 2.",
      ),
      metricDef("caller-sentiment", "Mean sentiment of the caller's sentences, -1 to 1."),
      metricDef(
        "caller-start-sentiment",
        "Mean sentiment of the first third of the caller's sentences, -1 to 1.",
      ),
      metricDef(
        "caller-end-sentiment",
        "Mean sentiment of the last third of the caller's sentences, -1 to 1.",
      ),
      metricDef(
        "caller-intra-call-change-in-sentiment",
        "Caller end sentiment minus caller start sentiment, -2 to 2.",
      ),
    ],
  },
  {
    metricGroupName: "talk-time-and-rate",
    metrics: [
      metricDef("agent-talk-ratio", "Share of the time anyone talked during which the agent talked, 0 to 1."),
      metricDef(
        "caller-talk-ratio",
        "Share of the time anyone talked during which the caller talked, 0 to 1.",
      ),
      metricDef("silence-ratio", "Share of the call during which nobody talked, 0 to 1."),
      metricDef("silence-incidents", "Times nobody talked for more than 4 seconds; an integer."),
      metricDef(
        "agent-talk-rate",
        "The agent's words per minute, leaving out pauses and the times the caller talked; an integer.",
      ),
      metricDef(
        "caller-talk-rate",
        "The caller's words per minute, leaving out pauses and the times the agent talked; an integer.",
      ),
      metricDef("agent-to-caller-talk-rate-ratio", "The agent's talk rate over the caller's."),
      metricDef(
        "agent-intra-call-change-in-talk-rate",
        "The agent's talk rate in the last third of the call over that in the first third: 1 is steady, 0.3 a 70% slowdown.",
      ),
      metricDef(
        "caller-intra-call-change-in-talk-rate",
        "The caller's talk rate in the last third of the call over that in the first third.",
      ),
      metricDef(
        "agent-average-streak",
        "Mean length in seconds of the agent's streaks (talking without a pause of 3 seconds or more).",
      ),
      metricDef("agent-longest-streak", "Length in seconds of the agent's longest streak."),
      metricDef("agent-median-streak", "Median length in seconds of the agent's streaks."),
      metricDef("average-streak", "Mean length in seconds of everyone's streaks."),
      metricDef("caller-average-streak", "Mean length in seconds of the caller's streaks."),
      metricDef("caller-longest-streak", "Length in seconds of the caller's longest streak."),
      metricDef("caller-median-streak", "Median length in seconds of the caller's streaks."),
      metricDef("longest-streak", "Length in seconds of the longest streak of anyone."),
      metricDef("median-streak", "Median length in seconds of everyone's streaks."),
    ],
  },
] as const;

function metricDef(metricName: string, metricDescription: string) {
  return { metricName, metricDescription };
}
