/**
 * Custom vocabularies' documents and bodies (api/vocabularies.ts), in VoiceBase's shapes: `VbVocabulary`,
 * `VbVocabularyTerm`, `VbVocabularyScript`, `VbVocabulariesResponse`. The body is closed (an unknown
 * property is refused) and carries every limit a schema can say; which kind the vocabulary is, and
 * repeats, the route checks, as only code can.
 */
import { Type } from "typebox";
import {
  MAX_SCRIPT_LENGTH,
  MAX_SOUNDS_LIKE,
  MAX_TERM_LENGTH,
  MAX_TERM_WEIGHT,
  MAX_VOCABULARY_SCRIPTS,
  MAX_VOCABULARY_TERMS,
  MIN_TERM_WEIGHT,
  VOCABULARY_TYPES,
} from "../../domain/vocabularies.ts";
import { closed, Links, ref } from "./common.ts";
import { DefinitionName } from "./definitions.ts";

/** Not only white space. */
const NOT_BLANK = "\\S";

const TermText = (what: string) =>
  Type.String({
    pattern: NOT_BLANK,
    maxLength: MAX_TERM_LENGTH,
    "x-allowed": `${what}: a string of at most ${MAX_TERM_LENGTH} characters, not blank`,
  });

const soundsLike = Type.Array(TermText("a spelling of how the term sounds"), {
  maxItems: MAX_SOUNDS_LIKE,
  "x-allowed": `an array of at most ${MAX_SOUNDS_LIKE} spellings of how the term sounds`,
  description: "Spellings of how the term sounds, such as a mistranscription to correct.",
});

const weight = Type.Integer({
  minimum: MIN_TERM_WEIGHT,
  maximum: MAX_TERM_WEIGHT,
  "x-allowed": `a whole number from ${MIN_TERM_WEIGHT} to ${MAX_TERM_WEIGHT}`,
  description: `How strongly recognition prefers the term, ${MIN_TERM_WEIGHT} (the default) to ${MAX_TERM_WEIGHT}.`,
});

const TermInput = closed(
  {
    term: TermText("a word or phrase"),
    soundsLike: Type.Optional(soundsLike),
    weight: Type.Optional(weight),
  },
  { "x-allowed": 'an object {"term", "soundsLike"?, "weight"?}' },
);

const ScriptInput = closed(
  {
    script: Type.String({
      pattern: NOT_BLANK,
      maxLength: MAX_SCRIPT_LENGTH,
      "x-allowed": `a phrase or sentence: a string of at most ${MAX_SCRIPT_LENGTH} characters, not blank`,
    }),
  },
  { "x-allowed": 'an object {"script"}' },
);

export const VocabularyInput = closed(
  {
    vocabularyName: Type.Optional(
      DefinitionName("The path's name again, or left out; another name is refused (80202)."),
    ),
    vocabularyType: Type.Optional(
      Type.Enum(VOCABULARY_TYPES, {
        description: 'Required as "scripts" for a vocabulary of scripts (80205); "terms" when left out.',
      }),
    ),
    terms: Type.Optional(
      Type.Array(TermInput, {
        maxItems: MAX_VOCABULARY_TERMS,
        "x-allowed": `an array of at most ${MAX_VOCABULARY_TERMS} terms, each an object {"term", "soundsLike"?, "weight"?}`,
        description:
          "Words or phrases to recognise. Stored trimmed, inner spaces collapsed; a term given twice (ignoring letter case) is refused (80209). An empty array keeps an empty vocabulary, which uploads cannot use (20009).",
      }),
    ),
    scripts: Type.Optional(
      Type.Array(ScriptInput, {
        maxItems: MAX_VOCABULARY_SCRIPTS,
        "x-allowed": `an array of at most ${MAX_VOCABULARY_SCRIPTS} scripts, each an object {"script"}`,
        description: "Phrases whose word order matters; instead of terms, never beside them (80204).",
      }),
    ),
  },
  {
    $id: "VocabularyInput",
    description: "VoiceBase's `VbVocabulary`, to store: terms or scripts.",
    examples: [
      {
        vocabularyName: "earningsCalls",
        terms: [{ term: "AFFO", soundsLike: ["A.F.F.O."], weight: 2 }, { term: "CapEx" }],
      },
    ],
  },
);

export const Vocabulary = Type.Object(
  {
    _links: ref(Links),
    vocabularyName: Type.String(),
    vocabularyType: Type.Enum(VOCABULARY_TYPES),
    terms: Type.Optional(
      Type.Array(
        Type.Object({
          term: Type.String(),
          soundsLike: Type.Optional(Type.Array(Type.String())),
          weight: Type.Optional(Type.Integer()),
        }),
        { description: "A vocabulary of terms has them, as stored; one of scripts has none." },
      ),
    ),
    scripts: Type.Optional(
      Type.Array(Type.Object({ script: Type.String() }), {
        description: "A vocabulary of scripts has them, as stored; one of terms has none.",
      }),
    ),
  },
  { $id: "Vocabulary", description: "VoiceBase's `VbVocabulary`, with a link to itself." },
);

export const VocabularyList = Type.Object(
  { _links: ref(Links), vocabularies: Type.Array(ref(Vocabulary)) },
  {
    $id: "VocabularyList",
    description: "VoiceBase's `VbVocabulariesResponse`: the account's vocabularies, by name.",
  },
);

export const VOCABULARY_SCHEMAS = [VocabularyInput, Vocabulary, VocabularyList];
