/**
 * The definitions API, per account: keyword spotting groups (`/v3/definition/spotting/groups`),
 * categories (`/v3/definition/categories`) and trained classifiers (`/v3/definition/prediction/classifiers`),
 * stored in PostgreSQL; and what Hark has built in, read-only: the detectors
 * (`/v3/definition/prediction/detectors`) and the metric groups (`/v3/definition/metrics`).
 *
 * Shapes are VoiceBase's (`VbKeywordGroup`, `VbCategory`, `VbClassifierModel`, `VbDetectorModel`,
 * `VbMetricGroupDef`); lists carry `_links.self` as VoiceBase's classifier list shows. Training a
 * classifier with `PUT .../classifiers/{classifierName}` is Hark's own: VoiceBase trains them for you.
 * The schemas (schemas/definitions.ts) check names and bodies strictly, an unknown property refused rather
 * than ignored; the handlers check what no schema can say: a name repeated in the body, a query that
 * parses, keywords with words to spot, examples a classifier can learn from.
 */
import { randomUUID } from "node:crypto";
import type { ErrorObject } from "ajv";
import { Type } from "typebox";
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
import type { ClassifierModel } from "../domain/definitions.ts";
import { ApiError, type ErrorName } from "../domain/errors.ts";
import { isUuid } from "../domain/ids.ts";
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
import type { HarkApp } from "./hark-app.ts";
import {
  accountRefusals,
  harkAddition,
  JSON_BODY_ERRORS,
  NoContent,
  ref,
  response,
} from "./schemas/common.ts";
import {
  Category,
  CategoryInput,
  CategoryList,
  Classifier,
  ClassifierList,
  ClassifierTraining,
  DefinitionName,
  Detector,
  DetectorList,
  MetricGroupList,
  SpottingGroup,
  SpottingGroupInput,
  SpottingGroupList,
} from "./schemas/definitions.ts";
import { faults, isNoBody } from "./validation.ts";

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

const TAGS = ["Definitions"];

const GroupParams = Type.Object({ groupName: DefinitionName("The group's name; compared exactly.") });
const CategoryParams = Type.Object({
  categoryName: DefinitionName("The category's name; compared exactly."),
});
const ClassifierParams = Type.Object({
  classifier: DefinitionName(
    "The classifier's `classifierId` or its `classifierName`; to train, its name (not a UUID).",
  ),
});
const DetectorParams = Type.Object({
  detectorId: Type.Enum(DETECTOR_NAMES, { description: "The detector's id, which is its name." }),
});

/** Said of each PUT: VoiceBase's examples repeat the name in the body. */
const repeatedName = (field: string) =>
  `A \`${field}\` in the body must be the path's (11206); it may be left out.`;

export function registerDefinitionRoutes(app: HarkApp, services: Services): void {
  const { db, clock, settings } = services;
  const links = (path: string) => ({ self: { href: `${settings.publicUrl}${path}` } });

  // Keyword spotting groups

  app.get(
    GROUPS,
    {
      schema: {
        operationId: "getKeywordSpottingGroups",
        tags: TAGS,
        summary: "List the keyword spotting groups, by name",
        response: { 200: response(SpottingGroupList, "The groups."), ...accountRefusals() },
      },
    },
    async (request) => ({
      _links: links(GROUPS),
      groups: await listSpottingGroups(db, request.account.accountId),
    }),
  );

  app.get(
    `${GROUPS}/:groupName`,
    {
      schema: {
        operationId: "getKeywordSpottingGroupById",
        tags: TAGS,
        summary: "Get a keyword spotting group",
        params: GroupParams,
        response: { 200: response(SpottingGroup, "The group."), ...accountRefusals("notFound") },
      },
    },
    async (request) => {
      const { groupName } = request.params;
      const [group] = await getSpottingGroups(db, request.account.accountId, [groupName]);
      if (group === undefined) throw notFound("keyword spotting group", groupName, GROUPS);
      return group;
    },
  );

  app.put(
    `${GROUPS}/:groupName`,
    {
      schema: {
        operationId: "createKeywordSpottingGroup",
        tags: TAGS,
        summary: "Create or replace a keyword spotting group",
        description: `${repeatedName("groupName")} Keywords are cleaned up as stored; one with no words to spot (only punctuation, say) is refused.`,
        params: GroupParams,
        body: ref(SpottingGroupInput),
        response: {
          200: response(SpottingGroup, "The group as stored."),
          ...accountRefusals(
            "keywordGroupMissing",
            "keywordGroupEmpty",
            "keywordGroupNameMismatch",
            "keywordInvalid",
            "spottingGroupInvalid",
            ...JSON_BODY_ERRORS,
          ),
        },
      },
      schemaErrorFormatter: spottingGroupFaults,
      // A body of no bytes is VoiceBase's missing keyword group, not a malformed request.
      errorHandler: (error) => {
        if ((error as { code?: string }).code === "FST_ERR_CTP_EMPTY_JSON_BODY") throw noKeywordGroup();
        throw error;
      },
    },
    async (request) => {
      const { groupName } = request.params;
      const { groupName: nameInBody, keywords } = request.body;
      sameName(nameInBody, "groupName", groupName, "keywordGroupNameMismatch");
      // The schema has checked the shape; what is left is cleaning the keywords and finding words in each.
      const validation = validateSpottingGroup({ groupName, keywords });
      if (!validation.ok) throw new ApiError("keywordInvalid", validation.error);
      await putSpottingGroup(db, request.account.accountId, validation.group, clock.now());
      return validation.group;
    },
  );

  app.delete(
    `${GROUPS}/:groupName`,
    {
      schema: {
        operationId: "deleteKeywordSpottingGroupById",
        tags: TAGS,
        summary: "Delete a keyword spotting group",
        params: GroupParams,
        response: { 204: NoContent("Deleted."), ...accountRefusals("notFound") },
      },
    },
    async (request, reply) => {
      const { groupName } = request.params;
      if (!(await deleteSpottingGroup(db, request.account.accountId, groupName)))
        throw notFound("keyword spotting group", groupName, GROUPS);
      return reply.status(204).send();
    },
  );

  // Categories

  app.get(
    CATEGORIES,
    {
      schema: {
        operationId: "getCategories",
        tags: TAGS,
        summary: "List the categories, by name",
        response: { 200: response(CategoryList, "The categories."), ...accountRefusals() },
      },
    },
    async (request) => ({
      _links: links(CATEGORIES),
      categories: (await listCategories(db, request.account.accountId)).map(categoryDocument),
    }),
  );

  app.get(
    `${CATEGORIES}/:categoryName`,
    {
      schema: {
        operationId: "getCategoryByName",
        tags: TAGS,
        summary: "Get a category",
        params: CategoryParams,
        response: { 200: response(Category, "The category."), ...accountRefusals("notFound") },
      },
    },
    async (request) => {
      const { categoryName } = request.params;
      const category = await getCategory(db, request.account.accountId, categoryName);
      if (category === undefined) throw notFound("category", categoryName, CATEGORIES);
      return categoryDocument(category);
    },
  );

  app.put(
    `${CATEGORIES}/:categoryName`,
    {
      schema: {
        operationId: "createCategory",
        tags: TAGS,
        summary: "Create or replace a category",
        description: `The \`query\` is a VBQL statement (\`SELECT * FROM media MATCH 'cancel'\`), as far as VoiceBase's VBQL is public, or in Hark's own query language (docs/queries.md). ${repeatedName("categoryName")}`,
        params: CategoryParams,
        body: ref(CategoryInput),
        response: {
          200: response(Category, "The category as stored."),
          ...accountRefusals(
            "categoryInvalid",
            "categoryQueryInvalid",
            "definitionNameMismatch",
            ...JSON_BODY_ERRORS,
          ),
        },
      },
      schemaErrorFormatter: faults({ body: "categoryInvalid", params: "categoryInvalid" }),
    },
    async (request) => {
      const { categoryName } = request.params;
      const { categoryName: nameInBody, ...category } = request.body;
      sameName(nameInBody, "categoryName", categoryName);
      const parsed = parseCategoryQuery(category.query);
      if (!parsed.ok) throw new ApiError("categoryQueryInvalid", `"query" cannot be used: ${parsed.error}`);
      const stored = await putCategory(
        db,
        request.account.accountId,
        { ...category, categoryName },
        clock.now(),
      );
      return categoryDocument(stored);
    },
  );

  app.delete(
    `${CATEGORIES}/:categoryName`,
    {
      schema: {
        operationId: "deleteCategoryByName",
        tags: TAGS,
        summary: "Delete a category",
        params: CategoryParams,
        response: { 204: NoContent("Deleted."), ...accountRefusals("notFound") },
      },
    },
    async (request, reply) => {
      const { categoryName } = request.params;
      if (!(await deleteCategory(db, request.account.accountId, categoryName)))
        throw notFound("category", categoryName, CATEGORIES);
      return reply.status(204).send();
    },
  );

  // Classifiers

  app.get(
    CLASSIFIERS,
    {
      schema: {
        operationId: "getClassifiers",
        tags: TAGS,
        summary: "List the classifiers, by name",
        response: { 200: response(ClassifierList, "The classifiers."), ...accountRefusals() },
      },
    },
    async (request) => ({
      _links: links(CLASSIFIERS),
      classifiers: (await listClassifiers(db, request.account.accountId)).map(classifierDocument),
    }),
  );

  app.get(
    `${CLASSIFIERS}/:classifier`,
    {
      schema: {
        operationId: "getClassifier",
        tags: TAGS,
        summary: "Get a classifier",
        params: ClassifierParams,
        response: { 200: response(Classifier, "The classifier."), ...accountRefusals("notFound") },
      },
    },
    async (request) => {
      const { classifier: idOrName } = request.params;
      const classifier = await getClassifier(db, request.account.accountId, idOrName);
      if (classifier === undefined) throw notFound("classifier", idOrName, CLASSIFIERS);
      return classifierDocument(classifier);
    },
  );

  app.put(
    `${CLASSIFIERS}/:classifier`,
    {
      schema: {
        operationId: "trainClassifier",
        tags: TAGS,
        summary: "Train a binary classifier from labelled examples",
        ...harkAddition(
          `The path names the classifier (a name, not a UUID). Training again under the same name keeps the \`classifierId\` and adds one to \`classifierVersion\`. The body is at most ${CLASSIFIER_BODY_LIMIT / (1024 * 1024)} MiB; training runs in the request. ${repeatedName("classifierName")}`,
        ),
        params: ClassifierParams,
        body: ref(ClassifierTraining),
        response: {
          200: response(Classifier, "The trained classifier."),
          ...accountRefusals(
            "classifierInvalid",
            "classifierTrainingFailed",
            "definitionNameMismatch",
            ...JSON_BODY_ERRORS,
          ),
        },
      },
      bodyLimit: CLASSIFIER_BODY_LIMIT,
      schemaErrorFormatter: faults({ body: "classifierInvalid", params: "classifierInvalid" }),
    },
    async (request) => {
      const classifierName = request.params.classifier;
      const { classifierName: nameInBody, examples, positiveLabel } = request.body;
      sameName(nameInBody, "classifierName", classifierName);
      if (isUuid(classifierName)) {
        throw new ApiError(
          "classifierInvalid",
          '"classifierName" must not have the form of a classifier id (a UUID): a classifier is looked up by either',
        );
      }
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

  app.delete(
    `${CLASSIFIERS}/:classifier`,
    {
      schema: {
        operationId: "deleteClassifier",
        tags: TAGS,
        summary: "Delete a classifier",
        ...harkAddition(),
        params: ClassifierParams,
        response: { 204: NoContent("Deleted."), ...accountRefusals("notFound") },
      },
    },
    async (request, reply) => {
      const { classifier: idOrName } = request.params;
      if (!(await deleteClassifier(db, request.account.accountId, idOrName)))
        throw notFound("classifier", idOrName, CLASSIFIERS);
      return reply.status(204).send();
    },
  );

  // Built in: detectors and metric groups

  app.get(
    DETECTORS,
    {
      schema: {
        operationId: "getDetectors",
        tags: TAGS,
        summary: "List the built-in detectors",
        response: { 200: response(DetectorList, "The detectors."), ...accountRefusals() },
      },
    },
    async () => ({ _links: links(DETECTORS), detectors: DETECTOR_NAMES.map(detectorDefinition) }),
  );

  app.get(
    `${DETECTORS}/:detectorId`,
    {
      schema: {
        operationId: "getDetector",
        tags: TAGS,
        summary: "Get a built-in detector",
        params: DetectorParams,
        response: { 200: response(Detector, "The detector."), ...accountRefusals("notFound") },
      },
    },
    async (request) => detectorDefinition(request.params.detectorId),
  );

  app.get(
    METRICS,
    {
      schema: {
        operationId: "listMetricGroups",
        tags: TAGS,
        summary: "List the metric groups Hark computes, with their metrics",
        response: { 200: response(MetricGroupList, "The metric groups."), ...accountRefusals() },
      },
    },
    async () => ({ _links: links(METRICS), metricGroups: METRIC_GROUPS }),
  );
}

/** A definition this account does not have, and where to list those it has. */
export function notFound(what: string, name: string, listPath: string): ApiError {
  return new ApiError(
    "notFound",
    `This account has no ${what} ${JSON.stringify(name)}; GET ${listPath} lists those it has`,
  );
}

/** The name may be repeated in the body, as VoiceBase's examples do; then it must be the path's. */
function sameName(
  given: string | undefined,
  field: string,
  pathName: string,
  errorName: ErrorName = "definitionNameMismatch",
): void {
  if (given !== undefined && given !== pathName) {
    throw new ApiError(
      errorName,
      `"${field}" in the body (${JSON.stringify(given)}) is not the name in the path (${JSON.stringify(pathName)}); leave it out or make them the same`,
    );
  }
}

/**
 * A keyword group's schema faults in VoiceBase's codes where it has one: no group (80100), no keywords
 * (80101), a bad keyword (80103); the rest (a bad name, too many keywords, an unknown property) are
 * Hark's 11201.
 */
function spottingGroupFaults(errors: readonly ErrorObject[], part: string): ApiError {
  if (part === "body" && errors.some(isNoBody)) return noKeywordGroup();
  return faults({ body: spottingGroupFaultName, params: "spottingGroupInvalid" })(errors, part);
}

function spottingGroupFaultName(error: ErrorObject): ErrorName {
  const path = error.instancePath;
  if (path === "" && error.keyword === "required") return "keywordGroupEmpty";
  if (path === "/keywords" && error.keyword !== "maxItems") return "keywordGroupEmpty";
  if (path.startsWith("/keywords/")) return "keywordInvalid";
  return "spottingGroupInvalid";
}

function noKeywordGroup(): ApiError {
  return new ApiError(
    "keywordGroupMissing",
    'The request has no keyword group; send one as the body, such as {"keywords": ["cancel"]}',
  );
}

// Categories

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
 * VoiceBase's `VbDetectorModel` of a built-in detector. A detector's id is its name: Hark's detectors are
 * fixed rules, not models an account trains, so there is no other identity to give them.
 */
function detectorDefinition(detectorName: DetectorName) {
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
}

// Metric groups

/**
 * VoiceBase's `VbMetricGroupDef` for each metric group Hark computes, its metrics in the order media
 * results list them (a test checks both against metricsOf). Definitions follow VoiceBase's
 * conversation-metrics guide, as Hark computes them.
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
    metricGroupName: "talk-style-tone-and-volume",
    metrics: [
      metricDef(
        "agent-intra-call-change-in-pitch",
        "The agent's mean pitch over the last third of their words over that of the first third: 1 is steady.",
      ),
      metricDef(
        "agent-intra-call-change-in-relative-voice-volume-energy",
        "The agent's mean word volume over the last third of their words over that of the first third.",
      ),
      metricDef(
        "agent-relative-voice-volume-energy",
        "The agent's mean word volume over that of a good agent (4.33): above 1 is more energetic.",
      ),
      metricDef(
        "agent-voice-dynamism-std-dev-score",
        "The standard deviation of the agent's word volumes: how much their volume varies.",
      ),
      metricDef(
        "caller-intra-call-change-in-pitch",
        "The caller's mean pitch over the last third of their words over that of the first third.",
      ),
      metricDef(
        "caller-intra-call-change-in-relative-voice-volume-energy",
        "The caller's mean word volume over the last third of their words over that of the first third.",
      ),
      metricDef(
        "caller-relative-voice-volume-energy",
        "The caller's mean word volume over that of a good caller (7.57).",
      ),
      metricDef(
        "caller-voice-dynamism-std-dev-score",
        "The standard deviation of the caller's word volumes.",
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
