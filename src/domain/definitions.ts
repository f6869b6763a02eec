/**
 * Definitions: what an account defines once and names in many uploads (keyword spotting groups,
 * categories, trained classifiers), as the definitions API stores them and processing reads them.
 */

/** A keyword group as defined by `PUT /v3/definition/spotting/groups/{groupName}`. */
export interface SpottingGroup {
  groupName: string;
  keywords: string[];
}

/** What a category is to processing: its name and its query. */
export interface CategoryDefinition {
  categoryName: string;
  query: string;
}

/** A category as the API stores and shows it; the optional fields are VoiceBase's bookkeeping. */
export interface Category extends CategoryDefinition {
  categoryDescription?: string;
  tags?: string[];
  notes?: string;
  version?: string;
}

/** A class a classifier predicts, named as VoiceBase's `VbClass`. */
export interface ClassifierClass {
  classLabel: string;
  classValue: 0 | 1;
}

/**
 * A trained classifier as plain JSON, to store and load as it is. Versioned: a model trained with other
 * text preparation would quietly predict nonsense, so `classify` refuses it instead.
 */
export interface ClassifierModel {
  kind: "naive-bayes";
  v: 1;
  /** The positive class (1) first, then the negative one (0). */
  classes: [ClassifierClass, ClassifierClass];
  /** Word counts per label, as wink's `exportJSON` writes them. */
  learning: unknown[];
}

/** Who the classifier is, as the media results name it; Hark keeps these beside the model. */
export interface ClassifierIdentity {
  classifierId: string;
  classifierName: string;
  classifierVersion: string;
  classifierDisplayName?: string;
}

export type NamedClassifier = ClassifierIdentity & { model: ClassifierModel };

/** The account's definitions an analysis plan names, as found when processing runs. */
export interface Definitions {
  spottingGroups: SpottingGroup[];
  categories: CategoryDefinition[];
  classifiers: NamedClassifier[];
}
