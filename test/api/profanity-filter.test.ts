/**
 * The swear word filter through the API: a real upload of speech (flite) with a swear word, recognised by
 * pocketsphinx, read back as a VoiceBase client reads it, with `transcript.contentFiltering` on and off.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Word } from "../../src/domain/transcript.ts";
import { spokenFile } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";

describe("transcript.contentFiltering.enableProfanityFiltering", () => {
  let hark: TestHark;
  let token: string;
  let audio: { file: string; cleanup: () => Promise<void> };

  before(async () => {
    // pocketsphinx hears this sentence from flite's rms voice word for word.
    audio = await spokenFile("you are a bastard and i am angry");
    hark = await startTestHark({}, { workers: true, recognizeOnce: true });
    token = await hark.createAccount();
  });
  after(async () => {
    await hark?.close();
    await audio?.cleanup();
  });

  /** The finished item's JSON transcript and its plain-text rendering, uploaded with `configuration`. */
  async function transcribed(configuration: unknown) {
    const response = await hark.upload(token, { media: audio.file, configuration });
    assert.equal(response.statusCode, 200, response.body);
    const mediaId = response.json().mediaId as string;
    assert.equal(await hark.ended(mediaId), "finished");
    const media = (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json();
    const text = await hark.app.inject({
      method: "GET",
      url: `/v3/media/${mediaId}/transcript/text`,
      headers: { authorization: `Bearer ${token}`, accept: "text/plain" },
    });
    assert.equal(text.statusCode, 200, text.body);
    const words = media.transcript.words as Word[];
    return { media, words, spoken: words.filter((word) => word.m === undefined), text: text.body };
  }

  const filtering = (enableProfanityFiltering: boolean) => ({
    transcript: { contentFiltering: { enableProfanityFiltering } },
  });

  test('on: the swear word reads "...", in the words and the text, at the times it was said', async () => {
    const off = await transcribed(filtering(false));
    const on = await transcribed(filtering(true));
    assert.ok(
      off.spoken.some((word) => word.w.toLowerCase() === "bastard"),
      `recognised: ${off.text}`,
    );
    assert.match(off.text, /bastard/i);

    assert.ok(!on.spoken.some((word) => /bastard/i.test(word.w)), on.text);
    assert.doesNotMatch(on.text, /bastard/i);
    assert.match(on.text, /a \.\.\. and/i);
    const masked = on.words.findIndex((word) => word.w === "...");
    assert.deepEqual(
      { ...on.words[masked], w: "bastard" },
      { ...off.words[masked], w: off.words[masked]?.w.toLowerCase() },
      "the masked entry keeps its position, times and confidence",
    );
    assert.deepEqual(
      on.words.filter((_, index) => index !== masked),
      off.words.filter((_, index) => index !== masked),
      "every other entry is as recognised",
    );
    // Filtering is computed, so nothing warns that it is not.
    assert.ok(!JSON.stringify(on.media.warnings ?? []).includes("ProfanityFiltering"));
  });

  test("without contentFiltering the words are as recognised, as they were before Hark filtered", async () => {
    const unset = await transcribed({});
    assert.match(unset.text, /bastard/i);
  });
});
