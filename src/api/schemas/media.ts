/**
 * The media documents (src/documents/): the media document of `GET /v3/media/{mediaId}` and analytics
 * callbacks, its summary in lists, the transcript document, streams and progress; with the callbacks
 * section and the delivery log, Hark's additions. Shapes are VoiceBase's (`VbMedia`, `VbTranscript`,
 * `VbStream`). Sections that were not computed are left out, so every section is optional.
 */
import { Type } from "typebox";
import { FORMAT_VERSION } from "../../documents/media-document.ts";
import { CALLBACK_TYPES, INCLUDE_SECTIONS, STREAM_NAMES } from "../../domain/configuration.ts";
import { type Phase, TASKS } from "../../domain/media.ts";
import { TRANSCRIPT_FORMATS } from "../../domain/transcript.ts";
import { RENDERED_FORMATS } from "../../formats/index.ts";
import { MetadataSchema } from "../../intake/configuration-schema.ts";
import {
  CategoryResult,
  Conversation,
  Knowledge,
  MetricGroup,
  Prediction,
  SpeakerSentiment,
  Spotting,
} from "./analytics.ts";
import { DateTime, ErrorSchema, Links, ref, Uuid } from "./common.ts";

const STATUSES = ["accepted", "running", "finished", "failed"] as const;

/** VoiceBase's `VbMessage`. */
const Message = Type.Object({ code: Type.Integer(), message: Type.String() });

/** The fields every media document carries, whatever `include` says. */
const envelope = {
  _links: ref(Links),
  formatVersion: Type.Literal(FORMAT_VERSION, { description: "The VoiceBase media format followed." }),
  mediaId: Uuid(),
  accountId: Uuid(),
  accountName: Type.String(),
  status: Type.Enum(STATUSES),
  dateCreated: DateTime(),
  dateFinished: Type.Optional(DateTime("When processing ended.")),
  timeToLiveInSeconds: Type.Integer(),
  expiresOn: DateTime(),
  mediaContentType: Type.Optional(Type.String()),
  length: Type.Optional(Type.Integer({ description: "Duration, milliseconds." })),
  errors: Type.Optional(
    Type.Array(ref(ErrorSchema), { description: "Why processing failed (`status: failed`)." }),
  ),
  warnings: Type.Optional(
    Type.Array(Message, {
      description:
        "VoiceBase's warnings: what the configuration asked for that Hark does not compute yet (12003), from the upload on; once processed, also the `messages` (12001, 12002).",
    }),
  ),
  encryption: Type.Optional(
    Type.Object(
      { publishKeyId: Type.String(), publicKeyHash: Type.Optional(Type.String()) },
      { description: "An encrypted item: the key its results are encrypted to (VoiceBase's spelling)." },
    ),
  ),
};

export const Word = Type.Object(
  {
    p: Type.Integer({ minimum: 0, description: "Position in `words`, from 0." }),
    c: Type.Number({ minimum: 0, maximum: 1, description: "Confidence." }),
    s: Type.Integer({ minimum: 0, description: "Start, ms." }),
    e: Type.Integer({ minimum: 0, description: "End, ms." }),
    w: Type.String({ description: "The word; the speaker's name for `m: turn`." }),
    m: Type.Optional(
      Type.Enum(["punc", "turn"], {
        description: "`turn`: a speaker turn, spanning it, its words after it; `punc`: punctuation.",
      }),
    ),
    v: Type.Optional(
      Type.Number({
        description:
          "With `speechModel.features: [voiceFeatures]`: the word's volume, about 0 to 20 (0 is silence; it grows with the square of loudness). Never the channel: the turn gives the speaker.",
      }),
    ),
    frq: Type.Optional(
      Type.Array(
        Type.Object({
          f: Type.Number({ minimum: 0, description: "Frequency of the peak, Hz." }),
          e: Type.Number({
            minimum: 0,
            maximum: 1,
            description: "Energy of the peak relative to the word's strongest peak.",
          }),
        }),
        {
          maxItems: 2,
          description:
            "With `speechModel.features: [voiceFeatures]`: the word's two dominant spectral peaks, strongest first.",
        },
      ),
    ),
  },
  { $id: "Word", description: "A `words[]` entry: a spoken word, a punctuation mark or a speaker turn." },
);

export const Transcript = Type.Object(
  {
    confidence: Type.Number({ minimum: 0, maximum: 1 }),
    words: Type.Array(ref(Word)),
    voiceActivity: Type.Array(
      Type.Object({
        speakerName: Type.String(),
        occurrences: Type.Array(Type.Object({ s: Type.Integer(), e: Type.Integer() })),
      }),
      { description: "Each speaker's stretches of speech." },
    ),
    alternateFormats: Type.Array(
      Type.Object({
        format: Type.Enum(RENDERED_FORMATS),
        contentType: Type.String(),
        contentEncoding: Type.Literal("Base64"),
        charset: Type.Literal("utf-8"),
        data: Type.String({ description: "The rendering, base64." }),
      }),
    ),
  },
  { $id: "Transcript", description: "VoiceBase's `VbTranscript`." },
);

export const Stream = Type.Object(
  {
    status: Type.Integer({
      description:
        "The HTTP status fetching `streamLocation` answers: 200 (VoiceBase's Swagger: an integer).",
    }),
    streamName: Type.String({
      description: "`original`, `redacted-audio`; `-encrypted` for an encrypted item.",
    }),
    streamLocation: Type.String({
      format: "uri",
      description: "A signed link: it works without the token until `expires` (Unix seconds) or deletion.",
    }),
  },
  { $id: "Stream", description: "VoiceBase's `VbStream`: a media stream and where to get it." },
);

export const StreamList = Type.Object(
  { _links: ref(Links), streams: Type.Array(ref(Stream)) },
  { $id: "StreamList", description: "VoiceBase's `VbStreams`." },
);

const ERROR_KIND = Type.Enum(
  ["dns", "connect", "tls", "timeout", "refused-address", "http-status", "body-missing"],
  {
    description:
      "Why a try failed: no answer (DNS, connection, TLS, timeout), an address refused, not a 2xx, or the stored body gone (nothing can be sent).",
  },
);

/** A callback's settings, every default applied, and where its delivery stands. */
const callbackState = {
  deliveryId: Uuid("Also the `webhook-id` of every try."),
  url: Type.String({ format: "uri", description: "The query string's values are shown as `***`." }),
  method: Type.Enum(["POST", "PUT"]),
  type: Type.Enum(CALLBACK_TYPES),
  include: Type.Optional(
    Type.Array(Type.Enum(INCLUDE_SECTIONS), { description: "`analytics` callbacks, when configured." }),
  ),
  format: Type.Optional(Type.Enum(TRANSCRIPT_FORMATS, { description: "`transcript` callbacks." })),
  stream: Type.Optional(Type.Enum(STREAM_NAMES, { description: "`media` callbacks." })),
  state: Type.Enum(["waiting", "pending", "trying", "will-retry", "succeeded", "exhausted", "skipped"]),
  nextAttemptDate: Type.Optional(DateTime("While `pending` or `will-retry`.")),
};

export const CallbackState = Type.Object(
  {
    ...callbackState,
    attempts: Type.Integer({ description: "How many tries it had." }),
    lastAttempt: Type.Optional(
      Type.Object({
        date: DateTime(),
        statusCode: Type.Optional(Type.Integer()),
        errorKind: Type.Optional(ERROR_KIND),
      }),
    ),
  },
  {
    $id: "CallbackState",
    description: "A callback as `GET /v3/media/{mediaId}` shows it: its state, how many tries, the last one.",
  },
);

export const CallbackLogEntry = Type.Object(
  {
    ...callbackState,
    dateEnded: Type.Optional(DateTime("When it succeeded or was exhausted.")),
    attempts: Type.Array(
      Type.Object({
        date: DateTime(),
        scheduledAttempt: Type.Integer({ description: "The point of the retry schedule, from 0." }),
        try: Type.Integer({ description: "The try within that scheduled attempt's burst, from 0." }),
        succeeded: Type.Boolean(),
        durationMs: Type.Integer(),
        statusCode: Type.Optional(Type.Integer()),
        errorKind: Type.Optional(ERROR_KIND),
        errorMessage: Type.Optional(Type.String()),
        responseSnippet: Type.Optional(Type.String({ description: "The start of the receiver's answer." })),
      }),
    ),
  },
  { $id: "CallbackLogEntry", description: "A callback with every try (Hark's own)." },
);

export const CallbackLog = Type.Object(
  { _links: ref(Links), mediaId: Uuid(), callbacks: Type.Array(ref(CallbackLogEntry)) },
  { $id: "CallbackLog", description: "The delivery log of a media item (Hark's own)." },
);

/** The sections a media document and an analytics callback body may carry, each once computed. */
const sections = {
  metadata: Type.Optional(ref(MetadataSchema)),
  transcript: Type.Optional(ref(Transcript)),
  knowledge: Type.Optional(ref(Knowledge)),
  spotting: Type.Optional(ref(Spotting)),
  prediction: Type.Optional(ref(Prediction)),
  metrics: Type.Optional(Type.Array(ref(MetricGroup))),
  categories: Type.Optional(Type.Array(ref(CategoryResult))),
  conversation: Type.Optional(ref(Conversation)),
  speakerSentiments: Type.Optional(Type.Array(ref(SpeakerSentiment))),
  streams: Type.Optional(Type.Array(ref(Stream))),
  messages: Type.Optional(
    Type.Array(Message, { description: "Warnings of processing (12001, 12002); also in `warnings`." }),
  ),
};

export const MediaDocument = Type.Object(
  {
    ...envelope,
    ...sections,
    callbacks: Type.Optional(
      Type.Array(ref(CallbackState), {
        description:
          "Hark's addition, in `GET /v3/media/{mediaId}` when the item has callbacks (not in callback bodies): each callback and how its delivery stands.",
      }),
    ),
  },
  {
    $id: "MediaDocument",
    description:
      "VoiceBase's `VbMedia`: the envelope, and each section once computed (sections not computed are left out). An analytics callback carries it too, with the sections its `include` names.",
    examples: [
      {
        _links: { self: { href: "http://127.0.0.1:8080/v3/media/0f6f2b3c-2a41-4f8e-9d1e-3c8b7a4d5e6f" } },
        formatVersion: FORMAT_VERSION,
        mediaId: "0f6f2b3c-2a41-4f8e-9d1e-3c8b7a4d5e6f",
        accountId: "9a3c1d2e-4b5f-4a6b-8c7d-1e2f3a4b5c6d",
        accountName: "acme",
        status: "finished",
        dateCreated: "2026-11-23T10:15:02.123Z",
        dateFinished: "2026-11-23T10:15:31.456Z",
        timeToLiveInSeconds: 10454400,
        expiresOn: "2027-03-24T10:15:31.456Z",
        mediaContentType: "audio/x-wav",
        length: 19450,
        metadata: { title: "Inbound call", externalId: "crm-1234" },
        transcript: {
          confidence: 0.87,
          words: [
            { p: 0, c: 1, s: 420, e: 1210, w: "Agent", m: "turn" },
            { p: 1, c: 0.91, s: 420, e: 800, w: "Thanks" },
            { p: 2, c: 0.88, s: 800, e: 1210, w: "calling" },
            { p: 3, c: 0, s: 1210, e: 1210, w: ".", m: "punc" },
          ],
          voiceActivity: [{ speakerName: "Agent", occurrences: [{ s: 420, e: 1210 }] }],
          alternateFormats: [],
        },
        knowledge: {
          keywords: [
            {
              keyword: "subscription",
              relevance: 0.82,
              mentions: [
                { speakerName: "Caller", occurrences: [{ s: 5120, e: 5890, exact: "subscription" }] },
              ],
            },
          ],
          topics: [],
        },
        streams: [
          {
            status: 200,
            streamName: "original",
            streamLocation:
              "http://127.0.0.1:8080/v3/media/0f6f2b3c-2a41-4f8e-9d1e-3c8b7a4d5e6f/streams/original?expires=1795431600&signature=3q2-7w",
          },
        ],
      },
    ],
  },
);

export const EncryptedMediaDocument = Type.Object(
  {
    ...envelope,
    encrypted: Type.String({
      description:
        "An ASCII-armored OpenPGP message, encrypted to your public key, of the media document the callback would otherwise carry.",
    }),
  },
  {
    $id: "EncryptedMediaDocument",
    description:
      "The body of an analytics callback for an item encrypted to your public key: the envelope in the clear (with `encryption`), and the rest sealed.",
  },
);

export const MediaSummary = Type.Object(
  { ...envelope, metadata: Type.Optional(ref(MetadataSchema)) },
  {
    $id: "MediaSummary",
    description: "VoiceBase's `VbMediaSummary`: the envelope and the metadata, no results.",
  },
);

const PageLink = Type.Object({ href: Type.String({ format: "uri" }) });

export const MediaList = Type.Object(
  {
    _links: Type.Object(
      {
        self: PageLink,
        next: Type.Optional(PageLink),
        previous: Type.Optional(PageLink),
      },
      {
        description:
          "`self`; `next`: the page after this one in the order shown (present when there may be one); `previous`: the page before it. Hark's addition: VoiceBase's client builds them from `after`/`before`.",
      },
    ),
    media: Type.Array(ref(MediaSummary)),
    pagination: Type.Object(
      {
        limit: Type.Integer({ description: "The page size asked for (100 when not asked)." }),
        sortOrder: Type.Array(
          Type.Object({
            field: Type.String({ description: "`dateCreated`, then `mediaId` for items created at once." }),
            direction: Type.Union([Type.Literal("asc"), Type.Literal("desc")]),
          }),
        ),
      },
      { description: "VoiceBase's `VbPagination`: the page size and the order of the items." },
    ),
  },
  {
    $id: "MediaList",
    description:
      "VoiceBase's `VbMediaQueryResponse`: a page of media and how it is ordered. The next page in the order shown is `after` (ascending) or `before` (descending) its last item's `mediaId`, as `_links.next` has it.",
  },
);

export const TranscriptDocument = Type.Object(
  { ...envelope, transcript: ref(Transcript) },
  {
    $id: "TranscriptDocument",
    description: "The envelope and the transcript (and a `json` transcript callback's body).",
  },
);

/** One phase's time in `Progress` (see `PHASES` in domain/media.ts). */
const phaseMs = (what: string) => Type.Optional(Type.Integer({ minimum: 0, description: what }));

export const Progress = Type.Object(
  {
    _links: ref(Links),
    mediaId: Uuid(),
    status: Type.Enum(STATUSES),
    progress: Type.Object({
      tasks: Type.Array(
        Type.Object({
          taskId: Type.Enum(TASKS),
          status: Type.Enum(["pending", "started", "finished", "failed"]),
          fraction: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
        }),
      ),
      phasesMs: Type.Optional(
        Type.Object(
          {
            download: phaseMs("fetching the `mediaUrl`; absent for an upload"),
            decode: phaseMs("reading the container and decoding each channel to 16 kHz PCM"),
            silenceScan: phaseMs(
              "measuring each channel's line (noise, band) and looking for silences to cut at",
            ),
            recognition: phaseMs("recognising the pieces"),
            analysis: phaseMs(
              "everything made from the words: transcript, analyses, voice features, redacted audio, formats, encryption",
            ),
            end: phaseMs("the final statement and the callbacks' bodies"),
          } satisfies Record<Phase, unknown>,
          {
            description:
              "Hark's addition: the milliseconds each phase of the last run was under way, each once it has ended. The channels of a stereo call run side by side, so the phases may add up to more than `totalMs`.",
            "x-hark-addition": true,
          },
        ),
      ),
      totalMs: Type.Optional(
        Type.Integer({
          minimum: 0,
          description:
            "Hark's addition: the milliseconds of the last run, from its start to its latest phase time (its end, once it has ended).",
          "x-hark-addition": true,
        }),
      ),
    }),
  },
  { $id: "Progress", description: "How far processing is, task by task." },
);

export const MEDIA_SCHEMAS = [
  Word,
  Transcript,
  Stream,
  StreamList,
  CallbackState,
  CallbackLogEntry,
  CallbackLog,
  MediaDocument,
  EncryptedMediaDocument,
  MediaSummary,
  MediaList,
  TranscriptDocument,
  Progress,
];
