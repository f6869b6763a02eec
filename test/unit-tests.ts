/**
 * The unit tests: the files that need nothing outside their own process (no PostgreSQL, no ffmpeg, flite
 * or pocketsphinx, no other process at all) and run in a second or two. `npm run test:unit` runs only
 * these, without starting a server; `npm test` runs them with everything else.
 *
 * A list here rather than a folder or a file name: tests sit beside the code they test (`test/formats/`
 * for `src/formats/`), and unit and integration tests of one folder stay together. A file not listed is
 * run by `npm test` only. A listed file that starts a process or asks for a database fails at once, in
 * both runs (`test/support/unit-run.ts`); a listed file that does not exist fails the run.
 *
 * Not listed although they start no PostgreSQL: `test/blobs/s3-blob-store.test.ts` (an S3 server and
 * multipart uploads, about 10 s) and every file that synthesises or decodes audio.
 */
export const UNIT_TESTS: readonly string[] = [
  "test/architecture.test.ts",
  "test/analytics/categories.test.ts",
  "test/analytics/classifiers.test.ts",
  "test/analytics/detectors.test.ts",
  "test/analytics/knowledge.test.ts",
  "test/analytics/metrics.test.ts",
  "test/analytics/number-formatting.test.ts",
  "test/analytics/punctuation.test.ts",
  "test/analytics/redact.test.ts",
  "test/analytics/sentences.test.ts",
  "test/analytics/speaker-sentiments.test.ts",
  "test/analytics/spoken-numbers.test.ts",
  "test/analytics/spotting.test.ts",
  "test/analytics/vbql.test.ts",
  "test/analytics/verb-noun.test.ts",
  "test/blobs/filesystem-blob-store.test.ts",
  "test/callbacks/render-body.test.ts",
  "test/callbacks/signature.test.ts",
  "test/documents/callbacks-section.test.ts",
  "test/documents/usage-document.test.ts",
  "test/domain/api-key.test.ts",
  "test/domain/client-message.test.ts",
  "test/domain/errors.test.ts",
  "test/domain/media-search.test.ts",
  "test/domain/schedule.test.ts",
  "test/domain/server-faults.test.ts",
  "test/domain/transcript.test.ts",
  "test/formats/captions.test.ts",
  "test/formats/dfxp.test.ts",
  "test/formats/golden.test.ts",
  "test/formats/index.test.ts",
  "test/formats/srt.test.ts",
  "test/formats/text.test.ts",
  "test/formats/webvtt.test.ts",
  "test/intake/configuration.test.ts",
  "test/intake/json-values.test.ts",
  "test/intake/voicebase-configurations.test.ts",
  "test/net/address.test.ts",
  "test/net/callback-sender.test.ts",
  "test/net/guard.test.ts",
  "test/pipeline/align.test.ts",
  "test/pipeline/assemble.test.ts",
  "test/pipeline/keyword-spotting.test.ts",
  "test/pipeline/line-measure.test.ts",
  "test/pipeline/noise-floor.test.ts",
  "test/pipeline/piece-plan.test.ts",
  "test/pipeline/pocketsphinx.test.ts",
  "test/pipeline/pool.test.ts",
  "test/pipeline/pronunciations.test.ts",
  "test/pipeline/silences.test.ts",
  "test/pipeline/speech.test.ts",
  "test/pipeline/wav.test.ts",
  "test/processing/download-media.test.ts",
  "test/processing/recognition-vocabulary.test.ts",
  "test/roles.test.ts",
  "test/security/openpgp.test.ts",
  "test/settings.test.ts",
  "test/store/account-limits.test.ts",
  "test/store/batcher.test.ts",
  "test/store/data-dir-owner.test.ts",
  "test/store/database-watch.test.ts",
  "test/store/process-job-order.test.ts",
];
