/**
 * The VoiceBase features a configuration asks for that Hark does not compute yet. Each is accepted and
 * named in a warning (code 12003), so a VoiceBase client runs unchanged and its owner can see what its
 * results lack; none is refused, none is dropped in silence. Refused are only names VoiceBase itself
 * would refuse (an unknown feature or extension) and what would give wrong results rather than fewer
 * (a language the recogniser cannot hear, a track Hark cannot pick). Pure.
 */
import { SPEECH_MODEL_EXTENSIONS, SPEECH_MODEL_FEATURES } from "../domain/configuration.ts";
import { type ErrorEntry, errorEntry, type Message, messageCodes } from "../domain/errors.ts";
import type { ConfigurationInput } from "./configuration-schema.ts";

const NOT_YET: Partial<
  Record<(typeof SPEECH_MODEL_FEATURES)[number] | (typeof SPEECH_MODEL_EXTENSIONS)[number], string>
> = {
  voicemail:
    "configuration.speechModel.extensions voicemail is not available: the general model transcribed this item",
};

export function featureWarnings(config: ConfigurationInput): Message[] {
  const texts: string[] = [];
  const model = config.speechModel?.model;
  if (model !== undefined) {
    texts.push(
      `configuration.speechModel.model ${JSON.stringify(model)} is not available: Hark's one engine (pocketsphinx, US English) transcribed this item`,
    );
  }
  if (config.additionalSpeechModels?.length) {
    texts.push(
      "configuration.additionalSpeechModels is not used: Hark transcribes in the one language of speechModel",
    );
  }
  for (const name of [...(config.speechModel?.features ?? []), ...(config.speechModel?.extensions ?? [])]) {
    const warning = NOT_YET[name as keyof typeof NOT_YET];
    if (warning !== undefined) texts.push(warning);
  }
  if (config.publish?.enableAnalyticIndexing === true) {
    texts.push(
      "configuration.publish.enableAnalyticIndexing: Hark has no Analytics Workbench; search items with GET /v3/media and POST /v3/analytics/vbql",
    );
  }
  return texts.map((message) => ({ code: messageCodes.featureNotComputed, message }));
}

export function featureFaults(config: ConfigurationInput): ErrorEntry[] {
  const errors: ErrorEntry[] = [];
  const language = config.speechModel?.language;
  if (language !== undefined && !/^en(-[A-Za-z]{2})?$/.test(language)) {
    errors.push(
      errorEntry(
        "languageUnsupported",
        `configuration.speechModel.language ${JSON.stringify(language)} is not supported: Hark transcribes English; use en-US`,
      ),
    );
  }
  const unknown = (field: string, given: readonly string[] = [], known: readonly string[]) =>
    given
      .filter((name) => !known.includes(name))
      .map(
        (name) =>
          `configuration.speechModel.${field} ${JSON.stringify(name)} is unknown; use any of ${known.join(", ")}`,
      );
  for (const message of unknown("features", config.speechModel?.features, SPEECH_MODEL_FEATURES)) {
    errors.push(errorEntry("speechModelFeatureUnknown", message));
  }
  for (const message of unknown("extensions", config.speechModel?.extensions, SPEECH_MODEL_EXTENSIONS)) {
    errors.push(errorEntry("speechModelExtensionUnknown", message));
  }
  const tracks = config.ingest?.tracks;
  if (tracks !== undefined && (tracks.length !== 1 || (tracks[0]?.trackIndex ?? 0) !== 0)) {
    errors.push(
      errorEntry(
        "featureUnsupported",
        "configuration.ingest.tracks may name only the first track (trackIndex 0): Hark reads one audio track",
      ),
    );
  }
  return errors;
}
