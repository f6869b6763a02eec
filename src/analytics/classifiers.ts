/**
 * The `prediction.classifiers[]` analysis: binary classifiers an account trains on labelled example
 * texts (a complaint or not, a sale or not), run over a call's words. Naive Bayes from
 * wink-naive-bayes-text-classifier over word stems from the shared wink-nlp model. Pure.
 */
import naiveBayes from "wink-naive-bayes-text-classifier";
import type { ItemToken } from "wink-nlp";
import type { ClassifierModel, ClassifierIdentity } from "../domain/definitions.ts";
import type { Transcript } from "../domain/transcript.ts";
import { its, nlp } from "./language.ts";
import { spokenWords } from "./turns.ts";

export interface TrainingExample {
  text: string;
  label: string;
}

/** A `prediction.classifiers[]` element of the media results (VoiceBase's `VbClassifier`). */
export interface ClassifierResult extends ClassifierIdentity {
  classifierType: "binary";
  predictedClassLabel: string;
  /** Probability of the predicted class, 0.5..1, to three decimals as in VoiceBase's examples. */
  predictionScore: number;
  predictedClass: 0 | 1;
}

export interface TrainOptions {
  /** The label reported as class 1; by default the label of the first example. */
  positiveLabel?: string;
}

/** The examples cannot make a binary classifier; the message says what to change. */
export class ClassifierTrainingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClassifierTrainingError";
  }
}

/**
 * Every token carries this prefix: wink's `importJSON` parses the counts into ordinary objects, where a
 * word such as "constructor" would find `Object.prototype.constructor` and turn every score into NaN.
 */
const TOKEN_PREFIX = "w:";

/**
 * Trains a binary classifier on examples of exactly two labels. Throws a `ClassifierTrainingError` for
 * any other number of labels, a `positiveLabel` that no example has, or examples with fewer than 10
 * distinct words between them (too few for naive Bayes to learn from).
 */
export function trainClassifier(
  examples: readonly TrainingExample[],
  options: TrainOptions = {},
): ClassifierModel {
  for (const example of examples) {
    if (typeof example.text !== "string" || typeof example.label !== "string" || example.label === "") {
      throw new ClassifierTrainingError("every example needs a text and a non-empty label");
    }
  }
  const labels = [...new Set(examples.map((example) => example.label))];
  if (labels.length !== 2) {
    const found = labels.length === 0 ? "none" : labels.map((label) => JSON.stringify(label)).join(", ");
    throw new ClassifierTrainingError(
      `a binary classifier needs examples of exactly two labels, found ${labels.length} (${found})`,
    );
  }
  const positive = options.positiveLabel ?? (labels[0] as string);
  const negative = labels.find((label) => label !== positive);
  if (!labels.includes(positive) || negative === undefined) {
    throw new ClassifierTrainingError(
      `positiveLabel ${JSON.stringify(positive)} is not one of the labels ${labels.map((label) => JSON.stringify(label)).join(", ")}`,
    );
  }

  const classifier = newClassifier();
  // Binarised multinomial naive Bayes does better than counting repeats on short texts (Jurafsky &
  // Martin, ch. 4); a smoothing factor of 0.5 is what wink's own examples use.
  classifier.defineConfig({ considerOnlyPresence: true, smoothingFactor: 0.5 });
  for (const { text, label } of examples) classifier.learn(text, label);
  try {
    classifier.consolidate();
  } catch (error) {
    throw new ClassifierTrainingError(
      `the examples are too few or too short to learn from (${(error as Error).message}); add more examples`,
    );
  }
  return {
    kind: "naive-bayes",
    v: 1,
    classes: [
      { classLabel: positive, classValue: 1 },
      { classLabel: negative, classValue: 0 },
    ],
    learning: JSON.parse(classifier.exportJSON()) as unknown[],
  };
}

/**
 * The classifier's prediction for the whole transcript (all speakers' words). When the call has no word
 * the model knows, the prediction falls back on the more frequent label in training, as naive Bayes
 * without evidence does.
 */
export function classify(
  model: ClassifierModel,
  transcript: Pick<Transcript, "words">,
  identity: ClassifierIdentity,
): ClassifierResult {
  const text = spokenWords(transcript)
    .map((word) => word.w)
    .join(" ");
  const { label, probability } = predict(model, text);
  const predicted = model.classes.find((known) => known.classLabel === label) ?? model.classes[1];
  return {
    classifierId: identity.classifierId,
    classifierName: identity.classifierName,
    classifierVersion: identity.classifierVersion,
    ...(identity.classifierDisplayName === undefined
      ? {}
      : { classifierDisplayName: identity.classifierDisplayName }),
    classifierType: "binary",
    predictedClassLabel: predicted.classLabel,
    predictionScore: Math.round(probability * 1000) / 1000,
    predictedClass: predicted.classValue,
  };
}

/** The most probable label for `text` and its probability. */
export function predict(model: ClassifierModel, text: string): { label: string; probability: number } {
  if (model.kind !== "naive-bayes" || model.v !== 1) {
    throw new Error(
      `cannot use a classifier model of kind ${String(model.kind)} v${String(model.v)}; train it again`,
    );
  }
  const classifier = newClassifier();
  classifier.importJSON(JSON.stringify(model.learning));
  classifier.consolidate();
  const [best] = classifier.computeOdds(text);
  const [label, odds] = best ?? ["unknown", 0];
  if (odds === 0 || !Number.isFinite(odds)) return prior(model);
  // wink's odds are log2 P(label | words) / P(other | words); with two labels that gives the probability.
  return { label, probability: 1 / (1 + 2 ** -odds) };
}

function prior(model: ClassifierModel): { label: string; probability: number } {
  const samples = (model.learning[1] ?? {}) as Record<string, number>;
  const [positive, negative] = model.classes;
  const p = samples[positive.classLabel] ?? 0;
  const n = samples[negative.classLabel] ?? 0;
  const total = p + n;
  if (total === 0) return { label: negative.classLabel, probability: 0.5 };
  // A tie goes to the negative class: without evidence, "not a complaint" is the safer claim.
  return p > n
    ? { label: positive.classLabel, probability: p / total }
    : { label: negative.classLabel, probability: n / total };
}

function newClassifier() {
  const classifier = naiveBayes();
  classifier.definePrepTasks([prepare]);
  return classifier;
}

/** Word stems without stop words, negated ones marked ("not happy" → "!happi"), as wink recommends. */
function prepare(text: string): string[] {
  const tokens: string[] = [];
  nlp
    .readDoc(text)
    .tokens()
    .filter((token) => token.out(its.type) === "word" && token.out(its.stopWordFlag) !== true)
    .each((token: ItemToken) => {
      // wink-nlp declares `its.stem` with a signature its own `out` does not accept; it works at run time.
      const stem = String(token.out(its.stem as unknown as typeof its.normal));
      tokens.push(TOKEN_PREFIX + (token.out(its.negationFlag) === true ? `!${stem}` : stem));
    });
  return tokens;
}
