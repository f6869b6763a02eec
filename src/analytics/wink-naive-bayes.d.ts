/** The part of wink-naive-bayes-text-classifier's API that Hark uses (the package ships no types). */
declare module "wink-naive-bayes-text-classifier" {
  interface NaiveBayesTextClassifier {
    definePrepTasks(tasks: ((input: string) => string[])[]): number;
    defineConfig(config: { considerOnlyPresence?: boolean; smoothingFactor?: number }): boolean;
    learn(input: string, label: string): boolean;
    consolidate(): boolean;
    /** `[label, log2 odds]` pairs, most likely first; `[["unknown", 0]]` when no word is known. */
    computeOdds(input: string): [string, number][];
    predict(input: string): string;
    exportJSON(): string;
    importJSON(json: string): boolean;
  }
  function naiveBayesTextClassifier(): NaiveBayesTextClassifier;
  export = naiveBayesTextClassifier;
}
