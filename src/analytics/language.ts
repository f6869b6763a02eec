/**
 * The English language model every text analysis shares: tokens, part-of-speech tags, lemmas, negation
 * and sentiment from wink-nlp with its lite English model (both from npm; nothing is downloaded at run
 * time). Loading the model takes a moment and some memory, so there is one instance per process.
 */
import winkNLP from "wink-nlp";
import model from "wink-eng-lite-web-model";

export const nlp = winkNLP(model);
export const its = nlp.its;
export const as = nlp.as;
