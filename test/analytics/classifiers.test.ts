import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  classify,
  ClassifierTrainingError,
  trainClassifier,
  type TrainingExample,
} from "../../src/analytics/classifiers.ts";
import type { ClassifierModel } from "../../src/domain/definitions.ts";
import { predictionTranscript } from "./prediction-transcript.ts";

const complaint = (text: string): TrainingExample => ({ text, label: "complaint" });
const other = (text: string): TrainingExample => ({ text, label: "not-a-complaint" });

const EXAMPLES: TrainingExample[] = [
  complaint("I am very unhappy with the service I received"),
  complaint("this is the third time my order arrived broken"),
  complaint("your agent was rude and hung up on me"),
  complaint("I want to complain about the late delivery"),
  complaint("the product stopped working after two days and I want a refund"),
  complaint("I have been waiting on hold for an hour this is unacceptable"),
  complaint("you charged me twice and nobody will fix it"),
  complaint("terrible experience I am cancelling my account"),
  complaint("the package was damaged and the box was wet"),
  complaint("I am disappointed and angry about this bill"),
  other("I would like to check the status of my order"),
  other("can you tell me your opening hours"),
  other("thanks so much everything works great"),
  other("I want to update my address please"),
  other("how do I reset my password"),
  other("I would like to buy a second phone for my wife"),
  other("just calling to confirm my appointment tomorrow"),
  other("the delivery came early thank you"),
  other("what plans do you offer for families"),
  other("I am happy with the new phone"),
];

const IDENTITY = {
  classifierId: "3e8dee45-ae2a-432f-b5ff-aa2513986f23",
  classifierName: "complaints",
  classifierVersion: "1.0",
};

function callSaying(text: string) {
  return predictionTranscript({ speaker: "Caller", at: 0, text });
}

describe("trainClassifier / classify", () => {
  const model = trainClassifier(EXAMPLES);

  it("classifies clear new calls the way a person would", () => {
    const angry = classify(
      model,
      callSaying("I am angry the order arrived broken and I want a refund"),
      IDENTITY,
    );
    assert.deepEqual(
      { ...angry, predictionScore: undefined },
      {
        ...IDENTITY,
        classifierType: "binary",
        predictedClassLabel: "complaint",
        predictionScore: undefined,
        predictedClass: 1,
      },
    );
    assert.ok(angry.predictionScore > 0.5 && angry.predictionScore <= 1, String(angry.predictionScore));

    const calm = classify(
      model,
      callSaying("hi I would like to check my appointment and update my address"),
      IDENTITY,
    );
    assert.equal(calm.predictedClassLabel, "not-a-complaint");
    assert.equal(calm.predictedClass, 0);
    assert.ok(calm.predictionScore > 0.5, String(calm.predictionScore));
  });

  it("reads the words of every speaker", () => {
    const transcript = predictionTranscript(
      { speaker: "Agent", at: 0, text: "how can I help" },
      { speaker: "Caller", at: 2000, text: "your service is terrible and the agent was rude" },
    );
    assert.equal(classify(model, transcript, IDENTITY).predictedClassLabel, "complaint");
  });

  it("works the same after a round trip through JSON", () => {
    const stored = JSON.parse(JSON.stringify(model)) as ClassifierModel;
    for (const text of ["the bill is wrong and I am angry", "thank you the phone works great"]) {
      assert.deepEqual(
        classify(stored, callSaying(text), IDENTITY),
        classify(model, callSaying(text), IDENTITY),
      );
    }
  });

  it("reports the chosen label as class 1", () => {
    const flipped = trainClassifier(EXAMPLES, { positiveLabel: "not-a-complaint" });
    const result = classify(flipped, callSaying("your agent was rude and I want a refund"), IDENTITY);
    assert.deepEqual([result.predictedClassLabel, result.predictedClass], ["complaint", 0]);
  });

  it("is not thrown by words that name JavaScript object properties", () => {
    const trained = trainClassifier([
      ...EXAMPLES,
      complaint("the constructor damaged my wall"),
      complaint("the constructor never came back"),
      // More of the other label, so that a model that fails to score falls back on the wrong answer.
      other("please send me the catalogue"),
      other("I need the opening hours of the shop"),
      other("can I pay by bank transfer"),
    ]);
    const result = classify(trained, callSaying("the constructor damaged everything"), IDENTITY);
    assert.equal(result.predictedClassLabel, "complaint");
    assert.ok(Number.isFinite(result.predictionScore));
  });

  it("falls back on the more common label when no word is known", () => {
    const skewed = trainClassifier([...EXAMPLES, other("please send me a brochure about your plans")]);
    const result = classify(skewed, predictionTranscript(), {
      ...IDENTITY,
      classifierDisplayName: "Complaints",
    });
    assert.equal(result.classifierDisplayName, "Complaints");
    assert.equal(result.predictedClassLabel, "not-a-complaint");
    assert.equal(result.predictionScore, Math.round((11 / 21) * 1000) / 1000);
  });

  it("needs exactly two labels, and a positive label among them", () => {
    assert.throws(() => trainClassifier(EXAMPLES.filter((example) => example.label === "complaint")), {
      name: "ClassifierTrainingError",
      message: /exactly two labels, found 1 \("complaint"\)/u,
    });
    assert.throws(() => trainClassifier([...EXAMPLES, { text: "maybe", label: "unsure" }]), /found 3/u);
    assert.throws(() => trainClassifier([]), /found 0/u);
    assert.throws(() => trainClassifier(EXAMPLES, { positiveLabel: "sale" }), ClassifierTrainingError);
    assert.throws(() => trainClassifier([complaint("bad"), other("good")]), /too few or too short/u);
  });
});
