/**
 * The definitions API's documents and bodies (api/definitions.ts), in VoiceBase's shapes: `VbKeywordGroup`,
 * `VbCategory`, `VbClassifierModel`, `VbDetectorModel`, `VbMetricGroupDef`. Bodies are closed (an unknown
 * property is refused) and carry every limit a schema can say; what only code can judge (a query that
 * parses, keywords with words to spot, examples a classifier can learn from) the routes check.
 */
import { Type } from "typebox";
import { DETECTOR_NAMES } from "../../analytics/detectors.ts";
import { MAX_GROUP_NAME_LENGTH, MAX_KEYWORD_LENGTH, MAX_KEYWORDS } from "../../analytics/spotting.ts";
import { MAX_SEARCHABLE_FIELDS } from "../../domain/searchable-fields.ts";
import { closed, DateTime, Links, ref, Uuid } from "./common.ts";

/** VoiceBase's limits on a category's bookkeeping fields (its categories guide). */
const MAX_NOTES_LENGTH = 4000;
const MAX_TAGS = 32;
const MAX_TAG_LENGTH = 64;
/** VoiceBase gives no limit here; these are generous for text people write by hand. */
const MAX_DESCRIPTION_LENGTH = 4000;
const MAX_VERSION_LENGTH = 100;

const MAX_CLASSIFIER_EXAMPLES = 10_000;
const MAX_LABEL_LENGTH = 128;

/**
 * Every definition's name (README, Definitions). Names go into URL paths, so they hold no spaces or
 * slashes; a classifier's path may also hold its `classifierId`, a UUID, which the rule allows.
 */
export const DefinitionName = (description: string) =>
  Type.String({
    pattern: "^[A-Za-z0-9._-]+$",
    maxLength: MAX_GROUP_NAME_LENGTH,
    "x-allowed": `1 to ${MAX_GROUP_NAME_LENGTH} letters, digits, ".", "_" or "-"`,
    description,
  });

/** The name, which a PUT body may repeat as VoiceBase's examples do. */
const NameInBody = Type.Optional(
  DefinitionName("The path's name again, or left out; another name is refused (11206)."),
);

/** Free text of at most `max` characters. */
const Text = (max: number) =>
  Type.String({ maxLength: max, "x-allowed": `a string of at most ${max} characters` });

/** Not only white space: a keyword, an example's text. */
const NOT_BLANK = "\\S";

export const SpottingGroup = Type.Object(
  { groupName: Type.String(), keywords: Type.Array(Type.String()) },
  { $id: "SpottingGroup", description: "VoiceBase's `VbKeywordGroup`: keywords as stored, cleaned up." },
);

export const SpottingGroupInput = closed(
  {
    groupName: NameInBody,
    keywords: Type.Array(
      Type.String({
        maxLength: MAX_KEYWORD_LENGTH,
        pattern: NOT_BLANK,
        "x-allowed": `a keyword or phrase: a string of at most ${MAX_KEYWORD_LENGTH} characters, not blank`,
      }),
      {
        minItems: 1,
        maxItems: MAX_KEYWORDS,
        "x-allowed": `a non-empty array of at most ${MAX_KEYWORDS} keywords or phrases`,
        description:
          "Keywords or phrases; any word form is spotted. Stored trimmed, inner spaces collapsed, repeats (ignoring case) dropped.",
      },
    ),
  },
  {
    $id: "SpottingGroupInput",
    description: "A keyword spotting group to store.",
    examples: [{ keywords: ["cancel", "close my account"] }],
  },
);

export const SpottingGroupList = Type.Object(
  { _links: ref(Links), groups: Type.Array(ref(SpottingGroup)) },
  { $id: "SpottingGroupList", description: "The account's keyword spotting groups, by name." },
);

/** VoiceBase's bookkeeping fields of a category: kept and shown, never used by processing. */
const categoryBookkeeping = {
  categoryDescription: Type.Optional(Text(MAX_DESCRIPTION_LENGTH)),
  tags: Type.Optional(
    Type.Array(
      Type.String({
        minLength: 1,
        maxLength: MAX_TAG_LENGTH,
        "x-allowed": `a tag of 1 to ${MAX_TAG_LENGTH} characters`,
      }),
      {
        maxItems: MAX_TAGS,
        "x-allowed": `an array of at most ${MAX_TAGS} non-empty strings of at most ${MAX_TAG_LENGTH} characters`,
      },
    ),
  ),
  notes: Type.Optional(Text(MAX_NOTES_LENGTH)),
  version: Type.Optional(Text(MAX_VERSION_LENGTH)),
};

export const Category = Type.Object(
  {
    categoryName: Type.String(),
    query: Type.String(),
    ...categoryBookkeeping,
    dateCreated: DateTime(),
    dateModified: DateTime("The last PUT."),
  },
  { $id: "Category", description: "VoiceBase's `VbCategory`." },
);

export const CategoryInput = closed(
  {
    categoryName: NameInBody,
    query: Type.String({
      "x-allowed": "a VBQL statement (SELECT … FROM media …) or a query in Hark's language (docs/queries.md)",
      description:
        "VoiceBase's VBQL as far as it is public (`SELECT * FROM media MATCH 'cancel' WHERE extended.queue = 'billing'`), or Hark's own query language (docs/queries.md); one Hark cannot read is refused (11203), naming the clause.",
    }),
    ...categoryBookkeeping,
  },
  {
    $id: "CategoryInput",
    description: "A category to store; fields left out are gone from one stored before.",
    examples: [
      {
        query: "SELECT * FROM media WHERE 'caller' SAYS 'cancel' AND extended.queue = 'billing'",
        tags: ["churn"],
      },
      { query: '[Caller] ("cancel" OR "close") AND "account"', tags: ["churn"] },
    ],
  },
);

export const CategoryList = Type.Object(
  { _links: ref(Links), categories: Type.Array(ref(Category)) },
  { $id: "CategoryList", description: "The account's categories, by name." },
);

export const Classifier = Type.Object(
  {
    classifierId: Uuid("Kept when the classifier is trained again under its name."),
    classifierName: Type.String(),
    classifierVersion: Type.String({ description: "Counts the trainings under this name, from 1." }),
    classifierType: Type.Literal("binary"),
    classes: Type.Array(Type.Object({ classLabel: Type.String(), classValue: Type.Enum([0, 1]) }), {
      description: "The positive class (1), then the negative one (0).",
    }),
    exampleCount: Type.Integer({ minimum: 1, description: "How many examples trained it." }),
    dateCreated: DateTime(),
    dateModified: DateTime("The last training."),
  },
  {
    $id: "Classifier",
    description:
      "VoiceBase's `VbClassifierModel`, without the model; `exampleCount` and the dates are Hark's additions.",
  },
);

export const ClassifierTraining = closed(
  {
    classifierName: NameInBody,
    examples: Type.Array(
      closed(
        {
          text: Type.String({ pattern: NOT_BLANK, "x-allowed": "a non-blank string" }),
          label: Type.String({
            minLength: 1,
            maxLength: MAX_LABEL_LENGTH,
            "x-allowed": `a string of 1 to ${MAX_LABEL_LENGTH} characters`,
          }),
        },
        { "x-allowed": 'an object {"text", "label"}' },
      ),
      {
        minItems: 1,
        maxItems: MAX_CLASSIFIER_EXAMPLES,
        "x-allowed": `a non-empty array of at most ${MAX_CLASSIFIER_EXAMPLES} examples, each an object {"text", "label"}`,
      },
    ),
    positiveLabel: Type.Optional(
      Type.String({
        "x-allowed": "a string: one of the examples' labels",
        description: "The label of class 1; by default the first example's.",
      }),
    ),
  },
  {
    $id: "ClassifierTraining",
    description: "Labelled examples to train a binary classifier from: exactly two labels.",
    examples: [
      {
        examples: [
          { text: "I want to cancel my account", label: "churn" },
          { text: "thanks, that fixed it", label: "stay" },
        ],
        positiveLabel: "churn",
      },
    ],
  },
);

export const ClassifierList = Type.Object(
  { _links: ref(Links), classifiers: Type.Array(ref(Classifier)) },
  { $id: "ClassifierList", description: "The account's classifiers, by name." },
);

export const Detector = Type.Object(
  {
    detectorId: Type.Enum(DETECTOR_NAMES, { description: "The detector's name." }),
    detectorName: Type.Enum(DETECTOR_NAMES),
    detectorVersion: Type.String({ description: "The version of Hark's rules." }),
    detectorDescription: Type.String(),
    detectorType: Type.Literal("binary"),
    classes: Type.Array(Type.Object({ classLabel: Type.String(), classValue: Type.Integer() }), {
      description: "The class its detections carry.",
    }),
    parameters: Type.Array(
      Type.Object({
        name: Type.String(),
        optional: Type.Boolean(),
        type: Type.Enum(["String", "Integer"]),
        valueSet: Type.Optional(Type.Array(Type.String())),
        defaultValue: Type.String(),
      }),
      { description: "What a configuration may give it in `parameters`." },
    ),
  },
  { $id: "Detector", description: "VoiceBase's `VbDetectorModel`, for a built-in detector." },
);

export const DetectorList = Type.Object(
  { _links: ref(Links), detectors: Type.Array(ref(Detector)) },
  { $id: "DetectorList", description: "Hark's built-in detectors." },
);

export const MetricGroupList = Type.Object(
  {
    _links: ref(Links),
    metricGroups: Type.Array(
      Type.Object({
        metricGroupName: Type.String(),
        metrics: Type.Array(Type.Object({ metricName: Type.String(), metricDescription: Type.String() }), {
          description: "In the order media results list them.",
        }),
      }),
    ),
  },
  {
    $id: "MetricGroupList",
    description: "VoiceBase's `VbMetricGroupDef`s: the metric groups Hark computes.",
  },
);

export const SearchableFields = closed(
  {
    fields: Type.Array(Type.String(), {
      maxItems: MAX_SEARCHABLE_FIELDS,
      "x-allowed": `an array of at most ${MAX_SEARCHABLE_FIELDS} field names, each extended.<name> (dotted for nested fields)`,
      description:
        "Fields of `metadata.extended` that `GET /v3/media?query=` searches, as `extended.customerId`.",
    }),
  },
  {
    $id: "SearchableFields",
    description: "VoiceBase's `VbSearchableFields`: the account's searchable extended metadata fields.",
    examples: [{ fields: ["extended.customerId", "extended.call.phone"] }],
  },
);

export const DEFINITION_SCHEMAS = [
  SearchableFields,
  SpottingGroup,
  SpottingGroupInput,
  SpottingGroupList,
  Category,
  CategoryInput,
  CategoryList,
  Classifier,
  ClassifierTraining,
  ClassifierList,
  Detector,
  DetectorList,
  MetricGroupList,
];
