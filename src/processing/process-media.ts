/**
 * The "process" job: from an accepted upload to a finished (or failed) media item. Fetches a `mediaUrl`
 * when there is one, probes and transcribes the audio, assembles the transcript, runs the analyses the
 * configuration asks for (making the redacted audio when a detector says so), and ends with the
 * "processing ended" statement.
 *
 * A job may run more than once (a worker killed mid-way hands it to another): an item that has already
 * ended is left alone, and everything before the final transaction can be redone.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { type Analysis, analyse } from "../analytics/analyse.ts";
import { conversationRoles } from "../analytics/metrics.ts";
import { punctuate } from "../analytics/punctuation.ts";
import { mediaPrefix, originalKey, redactedAudioKey } from "../blobs/blob-store.ts";
import { type AnalysisPlan, NO_ANALYSES } from "../domain/configuration.ts";
import { clientMessage } from "../domain/client-message.ts";
import { errorEntry, messageCodes, type ErrorEntry, type Message } from "../domain/errors.ts";
import type { MediaRecord } from "../domain/media.ts";
import { serverFaultOf, type ServerFaultKind } from "../domain/server-faults.ts";
import type { Transcript } from "../domain/transcript.ts";
import { alternateFormats } from "../formats/index.ts";
import { AlignmentTooLargeError, alignTranscript } from "../pipeline/align.ts";
import { type AssembledTranscript, assembleTranscript } from "../pipeline/assemble.ts";
import { DecodeError } from "../pipeline/decode.ts";
import { contentTypeOfContainer } from "../pipeline/media-content-type.ts";
import { createPhaseTimer, type PhaseTimer } from "../pipeline/phase-timer.ts";
import { RecognitionError } from "../pipeline/pocketsphinx.ts";
import { MediaTooLongError, probeMedia, UndecodableMediaError } from "../pipeline/probe.ts";
import { redactAudio } from "../pipeline/redact-audio.ts";
import { redactFilePrefix } from "../pipeline/temp-dirs.ts";
import { transcribeMedia } from "../pipeline/transcribe.ts";
import { InvalidPublicKeyError } from "../security/openpgp.ts";
import type { Services } from "../services.ts";
import { definitionsFor } from "../store/definitions-for.ts";
import { type ProcessAttempt, processQueueOptions } from "../store/job-queue.ts";
import {
  getMedia,
  mediaExists,
  recordContentType,
  recordLength,
  recordOriginal,
  recordPhaseTimes,
  recordProgress,
} from "../store/media.ts";
import { claimAttempt, closeAttempt } from "../store/processing-attempts.ts";
import { getPublicKey } from "../store/public-keys.ts";
import { watchDeletion } from "./deletion-watch.ts";
import { downloadMedia, MediaDownloadError } from "./download-media.ts";
import { encryptStreams } from "./encrypt-results.ts";
import { recognitionVocabulary } from "./recognition-vocabulary.ts";
import { endProcessing, type ProcessingOutcome } from "./end-processing.ts";

/** A fault of the media or its configuration: processing ends `failed`, and trying again would not help. */
class MediaFault extends Error {
  readonly entry: ErrorEntry;
  constructor(entry: ErrorEntry) {
    super(entry.error);
    this.entry = entry;
  }
}

/**
 * `attempt.signal` aborts when this process hands the job back as it stops (see store/job-queue.ts). What
 * earlier attempts cost the item (its row's counts, not pg-boss's) decides whether this one may fail
 * without ending it: a hand-back costs nothing, a failure or a crash one of their allowances.
 */
export async function processMedia(
  services: Services,
  mediaId: string,
  attempt: Omit<ProcessAttempt, "signal"> & { signal?: AbortSignal },
): Promise<void> {
  const { db, log } = services;
  const media = await getMedia(db, mediaId);
  if (!media || media.status === "finished" || media.status === "failed") return;
  const counts = await claimAttempt(db, mediaId);
  if (!counts) return;
  if (counts.crashes > processQueueOptions.crashLimit) {
    log.error(
      { mediaId, crashes: counts.crashes },
      "processing failed for good: its process died every time",
    );
    await endFailed(services, mediaId, errorEntry("internal", OUT_OF_RETRIES));
    return;
  }
  log.info({ mediaId, retry: attempt.retryCount, ...counts }, "processing started");
  const phases = createPhaseTimer(() => services.clock.now().getTime());
  const watch = watchDeletion(db, mediaId, attempt.signal);
  try {
    const result = await transcribe(services, media, watch.signal, phases);
    await endOrDrop(services, mediaId, { status: "finished", ...result }, phases);
  } catch (error) {
    if (watch.deleted()) {
      await dropDeleted(services, mediaId);
      return;
    }
    // Handed back: another worker takes the job over; nothing about the item has failed.
    if (attempt.signal?.aborted) {
      await closeAttempt(db, mediaId, "handedBack");
      throw error;
    }
    const fault = asMediaFault(error);
    if (!fault && counts.failures < processQueueOptions.retryLimit) {
      log.warn({ err: error, mediaId, ...counts }, "processing failed; it will be retried");
      await closeAttempt(db, mediaId, "failed");
      throw error;
    }
    if (fault) log.info({ err: error, mediaId }, "processing failed: the media or its configuration");
    else log.error({ err: error, mediaId }, "processing failed for good");
    await endFailed(services, mediaId, fault?.entry ?? serverFaultEntry(error, mediaId), phases);
  } finally {
    watch.stop();
  }
}

const OUT_OF_RETRIES = "Processing failed on our side; retrying did not help. Upload the media again later";

/** The one place a processing failure becomes what the client reads (the document, the callbacks). */
async function endFailed(
  services: Services,
  mediaId: string,
  entry: ErrorEntry,
  phases?: PhaseTimer,
): Promise<void> {
  const shown = {
    code: entry.code,
    error: clientMessage(entry.error, { roots: [services.settings.dataDir] }),
  };
  await recordProgress(services.db, mediaId, "transcribe", { status: "failed" });
  await endOrDrop(
    services,
    mediaId,
    { status: "failed", sections: {}, messages: [], errors: [shown] },
    phases,
  );
}

/** Ends processing; an item deleted after its last look (between two polls) has its files dropped. */
async function endOrDrop(
  services: Services,
  mediaId: string,
  outcome: ProcessingOutcome,
  phases?: PhaseTimer,
): Promise<void> {
  if (await endProcessing(services, mediaId, outcome, phases)) return;
  if (!(await mediaExists(services.db, mediaId))) await dropDeleted(services, mediaId);
}

/**
 * The item was deleted under the job: its children are killed and its temp files removed by now (the
 * pipeline waits for both before it rejects). The blobs the delete removed may have come back since (a
 * `mediaUrl` download, the redacted audio), so they are removed again. No callback: the item's
 * deliveries went with its row.
 */
async function dropDeleted(services: Services, mediaId: string): Promise<void> {
  await services.blobs.deletePrefix(mediaPrefix(mediaId));
  services.log.info({ mediaId }, "processing stopped: the media was deleted");
  services.events.emit("media.cancelled", { mediaId });
}

async function transcribe(
  services: Services,
  media: MediaRecord,
  signal: AbortSignal | undefined,
  phases: PhaseTimer,
): Promise<Omit<ProcessingOutcome, "status">> {
  const { db, blobs, settings } = services;
  const mediaId = media.mediaId;
  await recordProgress(db, mediaId, "ingest", { status: "started" });
  const key =
    media.originalBlob ?? (await phases.time("download", () => fetchMediaUrl(services, media, signal)));

  return blobs.withLocalFile(key, async (file) => {
    const maxLengthMs = settings.maxMediaSeconds * 1000;
    // Reading the container is the first step of decoding it.
    const probe = await phases.time("decode", () =>
      probeMedia(file, { maxLengthMs, ...(signal && { signal }) }),
    );
    await recordLength(db, mediaId, probe.lengthMs);
    await recordContentType(db, mediaId, contentTypeOfContainer(probe.formatName));
    const speakers = media.configuration.speakers;
    const missing = speakers.find(
      (speaker) => speaker.channel !== "mix" && speaker.channel >= probe.channels,
    );
    if (missing) {
      throw new MediaFault(
        errorEntry(
          "ingestChannelsMismatch",
          `configuration.ingest names channel ${missing.channel} (${missing.speakerName}) but the media has ${probe.channels} channel(s)`,
        ),
      );
    }
    await recordProgress(db, mediaId, "ingest", { status: "finished" });
    await recordProgress(db, mediaId, "transcribe", { status: "started", fraction: 0 });

    const tempDir = path.join(settings.dataDir, "tmp");
    await fs.mkdir(tempDir, { recursive: true });
    // Items uploaded before analyses existed have no plan.
    const plan = media.configuration.analyses ?? NO_ANALYSES;
    let reported = 0;
    const vocabulary = await recognitionVocabulary(db, media.account.accountId, media.configuration, signal);
    const words = await transcribeMedia(file, speakers, {
      vocabulary: vocabulary.terms,
      voiceFeatures: measuresVoice(plan),
      recognizer: services.recognizer,
      limiter: services.engines,
      tempDir,
      maxLengthMs,
      phases,
      ...(signal && { signal }),
      onProgress: (fraction) => {
        // A row update per tenth is plenty for a progress bar and keeps the database quiet.
        if (fraction - reported >= 0.1 && fraction < 1) {
          reported = fraction;
          recordProgress(db, mediaId, "transcribe", { status: "started", fraction }).catch(() => {});
        }
      },
    });
    await recordProgress(db, mediaId, "transcribe", { status: "finished", fraction: 1 });
    await recordPhaseTimes(db, mediaId, "running", phases.times());

    phases.start("analysis");
    const assembled = punctuated(
      givenTranscript(assembleTranscript(words), media, probe.lengthMs),
      media,
      plan,
    );
    const transcript: Transcript = { ...assembled, alternateFormats: alternateFormats(assembled.words) };
    const messages: Message[] = [...vocabulary.messages];
    if (!assembled.words.some((word) => word.m === undefined)) {
      messages.push({ code: messageCodes.noSpeech, message: "No speech was recognised in the media" });
    }

    await recordProgress(db, mediaId, "analyse", { status: "started" });
    const { definitions, missing: deleted } = await definitionsFor(db, media.account.accountId, plan);
    for (const { kind, name } of deleted) {
      messages.push({
        code: messageCodes.definitionMissing,
        message: `${kind} ${name} was deleted after the upload; its section leaves it out`,
      });
    }
    const analysis = analyse(transcript, plan, definitions, {
      roles: conversationRoles(speakers),
      lengthMs: probe.lengthMs,
      ...(media.metadata && { metadata: media.metadata }),
    });
    const redactedBlob = await makeRedactedAudio(services, media, file, analysis, tempDir, signal);
    await recordProgress(db, mediaId, "analyse", { status: "finished" });
    const results = {
      sections: analysis.sections,
      messages,
      ...(redactedBlob !== undefined && { redactedBlob }),
    };
    const outcome = media.configuration.encryption ? await encrypted(services, media, key, results) : results;
    phases.stop("analysis");
    return outcome;
  });
}

/** Voice features are measured when the words show them, and for the metrics computed from them. */
function measuresVoice(plan: AnalysisPlan): boolean {
  return plan.voiceFeatures === true || plan.metricGroups.includes("talk-style-tone-and-volume");
}

/**
 * A reprocess that gave a corrected transcript: its words, aligned to what was recognised, are the
 * transcript every analysis reads. The recognised words come from running recognition again on the stored
 * original rather than from the last run's transcript: that one may be redacted (a detector's transcript
 * redactor replaces words) and, once a run is encrypted, is not kept in the clear; recognition is
 * deterministic, so the words are the ones the first run heard.
 */
function givenTranscript(assembled: AssembledTranscript, media: MediaRecord, lengthMs: number) {
  if (media.givenTranscript === undefined) return assembled;
  const speakerName = media.configuration.speakers[0]?.speakerName ?? "";
  let words;
  try {
    words = alignTranscript(assembled.words, media.givenTranscript, { speakerName, lengthMs });
  } catch (error) {
    if (error instanceof AlignmentTooLargeError) {
      throw new MediaFault(errorEntry("alignmentTooLarge", error.message));
    }
    throw error;
  }
  // Every given word has c = 1 (see pipeline/align.ts), so the transcript's confidence is 1 once it has any.
  const confidence = words.some((word) => word.m === undefined) ? 1 : assembled.confidence;
  return { ...assembled, words, confidence };
}

/**
 * Advanced punctuation, when the configuration asks for it, of a recognised transcript; a corrected one
 * the client gave keeps the punctuation it was written with.
 */
function punctuated(assembled: AssembledTranscript, media: MediaRecord, plan: AnalysisPlan) {
  if (!plan.advancedPunctuation || media.givenTranscript !== undefined) return assembled;
  return { ...assembled, words: punctuate(assembled.words) };
}

/** The `redacted-audio` stream, when a detector asks for one: the original with a tone over each finding. */
async function makeRedactedAudio(
  services: Services,
  media: MediaRecord,
  original: string,
  analysis: Analysis,
  tempDir: string,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const redaction = analysis.audioRedaction;
  if (!redaction) return undefined;
  // No extension: the output keeps the original's container. Named for this process: see temp-dirs.ts.
  const output = path.join(tempDir, `${redactFilePrefix()}${media.mediaId}`);
  try {
    await redactAudio(original, output, redaction.ranges, redaction, undefined, {
      ...(signal && { signal }),
    });
    const key = redactedAudioKey(media.mediaId, media.run);
    await services.blobs.put(key, createReadStream(output));
    return key;
  } finally {
    await fs.rm(output, { force: true });
  }
}

/**
 * Client-supplied encryption: the streams are replaced by copies encrypted to the client's key, and
 * the results will be (endProcessing seals them). A key deleted since the upload fails the item: its
 * results are never kept in the clear.
 */
async function encrypted(
  services: Services,
  media: MediaRecord,
  originalBlob: string,
  results: Omit<ProcessingOutcome, "status">,
): Promise<Omit<ProcessingOutcome, "status">> {
  const publicKeyId = media.configuration.encryption?.publicKeyId ?? "";
  const key = await getPublicKey(services.db, media.account.accountId, publicKeyId);
  if (!key) {
    throw new MediaFault(
      errorEntry(
        "publicKeyNotFound",
        `The public key ${publicKeyId} was deleted before processing ended; the results are not kept unencrypted`,
      ),
    );
  }
  const streams = await encryptStreams(
    services,
    media.mediaId,
    { originalBlob, ...(results.redactedBlob !== undefined && { redactedBlob: results.redactedBlob }) },
    key.armored,
  );
  return {
    ...results,
    ...streams,
    encryptTo: key.armored,
    plaintextBlobs: [originalBlob, ...(results.redactedBlob === undefined ? [] : [results.redactedBlob])],
  };
}

async function fetchMediaUrl(
  services: Services,
  media: MediaRecord,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (media.mediaUrl === undefined)
    throw new Error(`media ${media.mediaId} has neither bytes nor a mediaUrl`);
  const key = originalKey(media.mediaId);
  const stored = await downloadMedia(
    media.mediaUrl,
    services.blobs,
    key,
    {
      maxBytes: services.settings.maxUploadBytes,
      timeoutMs: services.settings.mediaUrlTimeoutSeconds * 1000,
      guard: {
        allowPrivate: services.settings.callbackAllowPrivate,
        allowCidrs: services.settings.callbackAllowCidrs,
      },
    },
    signal,
  );
  await recordOriginal(services.db, media.mediaId, { key, ...stored });
  return key;
}

const SERVER_FAULTS: Record<ServerFaultKind, string> = {
  "storage-full": "storage space ran out",
  filesystem: "a disk failed to read or write",
  resources: "memory or open files ran out",
  tool: "a decoding or recognition program was missing or stopped",
};

/** What a failed item says when the fault was Hark's and its retries did not help. */
function serverFaultEntry(error: unknown, mediaId: string): ErrorEntry {
  const kind = serverFaultOf(error);
  const notTheMedia = `the media is not at fault; reprocess it (POST /v3/media/${mediaId}) or upload it again later`;
  if (kind === "storage-full") {
    return errorEntry("storageFull", `Processing failed on our side: storage space ran out; ${notTheMedia}`);
  }
  if (kind === undefined && error instanceof RecognitionError) {
    return errorEntry("recognitionFailed", `Speech recognition failed: ${error.message}`);
  }
  const why = kind === undefined ? "" : ` (${SERVER_FAULTS[kind]})`;
  return errorEntry(
    "internal",
    `Processing failed on our side${why} and retrying did not help; ${notTheMedia}`,
  );
}

function asMediaFault(error: unknown): MediaFault | undefined {
  if (error instanceof MediaFault) return error;
  if (error instanceof MediaTooLongError) return new MediaFault(errorEntry("mediaTooLong", error.message));
  // Whatever wraps it, a fault of the server's is never the media's.
  if (serverFaultOf(error) !== undefined) return undefined;
  if (error instanceof UndecodableMediaError || error instanceof DecodeError) {
    return new MediaFault(errorEntry("mediaUndecodable", error.message));
  }
  if (error instanceof InvalidPublicKeyError) {
    // Expired or revoked since the upload: retrying cannot help, and nothing may be kept unencrypted.
    return new MediaFault(
      errorEntry("invalidPublicKey", `The public key can no longer encrypt: ${error.message}`),
    );
  }
  if (error instanceof MediaDownloadError) {
    return new MediaFault(
      errorEntry(error.kind === "status" ? "mediaUrlDownloadFailed" : "mediaUrlUnreachable", error.message),
    );
  }
  return undefined;
}
