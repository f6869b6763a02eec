/**
 * The OpenAPI description of the definitions (definitions.ts): keyword spotting groups, categories,
 * classifiers, and the built-in detectors and metric groups. Pure.
 */
import { MAX_KEYWORD_LENGTH, MAX_KEYWORDS } from "../../analytics/spotting.ts";
import { CLASSIFIER_BODY_LIMIT, MAX_CLASSIFIER_EXAMPLES } from "../definitions.ts";
import {
  accountOperation,
  dateTime,
  JSON_BODY_ERRORS,
  type JsonObject,
  jsonBody,
  jsonResponse,
  links,
  listOf,
  type Paths,
  pathParameter,
  type Schemas,
  schemaRef,
} from "./shared.ts";

const TAG = "Definitions";
const NAME_RULE = "1 to 100 letters, digits, `.`, `_` or `-`; compared exactly.";

const groupName = pathParameter("groupName", `The group's name: ${NAME_RULE}`);
const categoryName = pathParameter("categoryName", `The category's name: ${NAME_RULE}`);
const classifier = pathParameter("classifier", "The classifier's `classifierId` or its `classifierName`.");
const detectorId = pathParameter("detectorId", "The detector's id, which is its name.", {
  enum: ["PCI", "SSN", "Number"],
});

const nameInBody = (field: string) =>
  `A \`${field}\` in the body must be the path's (11206); it may be left out.`;

export function definitionPaths(): Paths {
  return {
    "/v3/definition/spotting/groups": {
      get: accountOperation({
        operationId: "getKeywordSpottingGroups",
        tag: TAG,
        summary: "List the keyword spotting groups, by name",
        responses: { "200": jsonResponse("The groups.", schemaRef("SpottingGroupList")) },
      }),
    },
    "/v3/definition/spotting/groups/{groupName}": {
      get: accountOperation({
        operationId: "getKeywordSpottingGroupById",
        tag: TAG,
        summary: "Get a keyword spotting group",
        parameters: [groupName],
        responses: { "200": jsonResponse("The group.", schemaRef("SpottingGroup")) },
        errors: ["notFound"],
      }),
      put: accountOperation({
        operationId: "createKeywordSpottingGroup",
        tag: TAG,
        summary: "Create or replace a keyword spotting group",
        description: `${nameInBody("groupName")} Keywords are cleaned up as stored.`,
        parameters: [groupName],
        requestBody: jsonBody(schemaRef("SpottingGroupInput")),
        responses: { "200": jsonResponse("The group as stored.", schemaRef("SpottingGroup")) },
        errors: ["spottingGroupInvalid", "definitionNameMismatch", ...JSON_BODY_ERRORS],
      }),
      delete: accountOperation({
        operationId: "deleteKeywordSpottingGroupById",
        tag: TAG,
        summary: "Delete a keyword spotting group",
        parameters: [groupName],
        responses: { "204": { description: "Deleted." } },
        errors: ["notFound"],
      }),
    },
    "/v3/definition/categories": {
      get: accountOperation({
        operationId: "getCategories",
        tag: TAG,
        summary: "List the categories, by name",
        responses: { "200": jsonResponse("The categories.", schemaRef("CategoryList")) },
      }),
    },
    "/v3/definition/categories/{categoryName}": {
      get: accountOperation({
        operationId: "getCategoryByName",
        tag: TAG,
        summary: "Get a category",
        parameters: [categoryName],
        responses: { "200": jsonResponse("The category.", schemaRef("Category")) },
        errors: ["notFound"],
      }),
      put: accountOperation({
        operationId: "createCategory",
        tag: TAG,
        summary: "Create or replace a category",
        description: `The \`query\` is in Hark's own query language (README, Definitions), not VoiceBase's VBQL. ${nameInBody("categoryName")}`,
        parameters: [categoryName],
        requestBody: jsonBody(schemaRef("CategoryInput")),
        responses: { "200": jsonResponse("The category as stored.", schemaRef("Category")) },
        errors: ["categoryInvalid", "categoryQueryInvalid", "definitionNameMismatch", ...JSON_BODY_ERRORS],
      }),
      delete: accountOperation({
        operationId: "deleteCategoryByName",
        tag: TAG,
        summary: "Delete a category",
        parameters: [categoryName],
        responses: { "204": { description: "Deleted." } },
        errors: ["notFound"],
      }),
    },
    "/v3/definition/prediction/classifiers": {
      get: accountOperation({
        operationId: "getClassifiers",
        tag: TAG,
        summary: "List the classifiers, by name",
        responses: { "200": jsonResponse("The classifiers.", schemaRef("ClassifierList")) },
      }),
    },
    "/v3/definition/prediction/classifiers/{classifier}": {
      get: accountOperation({
        operationId: "getClassifier",
        tag: TAG,
        summary: "Get a classifier",
        parameters: [classifier],
        responses: { "200": jsonResponse("The classifier.", schemaRef("Classifier")) },
        errors: ["notFound"],
      }),
      put: accountOperation({
        operationId: "trainClassifier",
        tag: TAG,
        harkAddition: true,
        summary: "Train a binary classifier from labelled examples",
        description: `The path names the classifier (a name, not a UUID). Training again under the same name keeps the \`classifierId\` and adds one to \`classifierVersion\`. The body is at most ${CLASSIFIER_BODY_LIMIT / (1024 * 1024)} MiB; training runs in the request. ${nameInBody("classifierName")}`,
        parameters: [classifier],
        requestBody: jsonBody(schemaRef("ClassifierTraining")),
        responses: { "200": jsonResponse("The trained classifier.", schemaRef("Classifier")) },
        errors: [
          "classifierInvalid",
          "classifierTrainingFailed",
          "definitionNameMismatch",
          ...JSON_BODY_ERRORS,
        ],
      }),
      delete: accountOperation({
        operationId: "deleteClassifier",
        tag: TAG,
        harkAddition: true,
        summary: "Delete a classifier",
        parameters: [classifier],
        responses: { "204": { description: "Deleted." } },
        errors: ["notFound"],
      }),
    },
    "/v3/definition/prediction/detectors": {
      get: accountOperation({
        operationId: "getDetectors",
        tag: TAG,
        summary: "List the built-in detectors",
        responses: { "200": jsonResponse("The detectors.", schemaRef("DetectorList")) },
      }),
    },
    "/v3/definition/prediction/detectors/{detectorId}": {
      get: accountOperation({
        operationId: "getDetector",
        tag: TAG,
        summary: "Get a built-in detector",
        parameters: [detectorId],
        responses: { "200": jsonResponse("The detector.", schemaRef("Detector")) },
        errors: ["notFound"],
      }),
    },
    "/v3/definition/metrics": {
      get: accountOperation({
        operationId: "listMetricGroups",
        tag: TAG,
        summary: "List the metric groups Hark computes, with their metrics",
        responses: { "200": jsonResponse("The metric groups.", schemaRef("MetricGroupList")) },
      }),
    },
  };
}

const string: JsonObject = { type: "string" };

export function definitionSchemas(): Schemas {
  const spottingGroup = {
    groupName: string,
    keywords: {
      type: "array",
      minItems: 1,
      maxItems: MAX_KEYWORDS,
      items: { type: "string", maxLength: MAX_KEYWORD_LENGTH },
      description: "Keywords or phrases; any word form is spotted.",
    },
  };
  const categoryFields = {
    categoryName: string,
    categoryDescription: string,
    tags: { type: "array", items: string },
    query: string,
    version: string,
    notes: string,
  };
  return {
    SpottingGroup: {
      type: "object",
      description: "VoiceBase's `VbKeywordGroup`.",
      properties: spottingGroup,
      required: ["groupName", "keywords"],
    },
    SpottingGroupInput: {
      type: "object",
      properties: spottingGroup,
      required: ["keywords"],
      additionalProperties: false,
    },
    SpottingGroupList: listOf("groups", "SpottingGroup", "The account's keyword spotting groups."),
    Category: {
      type: "object",
      description: "VoiceBase's `VbCategory`.",
      properties: { ...categoryFields, dateCreated: dateTime, dateModified: dateTime },
      required: ["categoryName", "query", "dateCreated", "dateModified"],
    },
    CategoryInput: {
      type: "object",
      properties: categoryFields,
      required: ["query"],
      additionalProperties: false,
    },
    CategoryList: listOf("categories", "Category", "The account's categories."),
    Classifier: {
      type: "object",
      description:
        "VoiceBase's `VbClassifierModel`; `exampleCount` and the dates are Hark's additions. `classifierVersion` counts trainings under this name.",
      properties: {
        classifierId: { type: "string", format: "uuid" },
        classifierName: string,
        classifierVersion: string,
        classifierType: { const: "binary" },
        classes: {
          type: "array",
          description: "The positive class (1), then the negative one (0).",
          items: {
            type: "object",
            properties: { classLabel: string, classValue: { enum: [0, 1] } },
          },
        },
        exampleCount: { type: "integer" },
        dateCreated: dateTime,
        dateModified: dateTime,
      },
    },
    ClassifierTraining: {
      type: "object",
      description:
        "Examples of exactly two labels; `positiveLabel` (default: the first example's) is class 1.",
      properties: {
        classifierName: string,
        examples: {
          type: "array",
          minItems: 1,
          maxItems: MAX_CLASSIFIER_EXAMPLES,
          items: {
            type: "object",
            properties: { text: string, label: string },
            required: ["text", "label"],
            additionalProperties: false,
          },
        },
        positiveLabel: string,
      },
      required: ["examples"],
      additionalProperties: false,
    },
    ClassifierList: listOf("classifiers", "Classifier", "The account's classifiers."),
    Detector: {
      type: "object",
      description: "VoiceBase's `VbDetectorModel`.",
      properties: {
        detectorId: string,
        detectorName: string,
        detectorVersion: string,
        detectorDescription: string,
        detectorType: { const: "binary" },
        classes: { type: "array", items: { type: "object" } },
        parameters: {
          type: "array",
          description: "`name`, `optional`, `type`, `valueSet`, `defaultValue`.",
          items: { type: "object" },
        },
      },
    },
    DetectorList: listOf("detectors", "Detector", "Hark's built-in detectors."),
    MetricGroupList: {
      type: "object",
      description: "VoiceBase's `VbMetricGroupDef`s.",
      properties: {
        _links: links,
        metricGroups: {
          type: "array",
          items: {
            type: "object",
            properties: {
              metricGroupName: string,
              metrics: {
                type: "array",
                items: {
                  type: "object",
                  properties: { metricName: string, metricDescription: string },
                },
              },
            },
          },
        },
      },
    },
  };
}
