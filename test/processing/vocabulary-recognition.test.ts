/**
 * Vocabularies in recognition end to end: a flite sentence naming a made-up product ("Zorbatrix") and a
 * person the recogniser's dictionary lacks ("Okonkwo"), uploaded without a vocabulary, with the product
 * as an ad hoc term, and with a saved vocabulary naming the person plus a spotting group keyed on the
 * product. The plain engine cannot write either name (neither is in its dictionary); with them given,
 * the transcript has them where they were said, and spotting finds the product.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Word } from "../../src/domain/transcript.ts";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";

const SENTENCE = "Please ask Doctor Okonkwo about the new Zorbatrix router for my office.";

describe("vocabularies reach the recogniser", () => {
  let hark: TestHark;
  let token: string;
  let dir: { dir: string; cleanup: () => Promise<void> };
  // Documents as a client's JSON.parse leaves them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const docs: Record<"plain" | "adHoc" | "saved", any> = {
    plain: undefined,
    adHoc: undefined,
    saved: undefined,
  };

  before(async () => {
    dir = await tempDir();
    const file = path.join(dir.dir, "call.wav");
    await buildSpeech([{ text: SENTENCE, voice: "rms" }, { silenceMs: 300 }], file);
    hark = await startTestHark({ HARK_CALLBACK_CONCURRENCY: "0" }, { workers: true, recognizeOnce: true });
    token = await hark.createAccount();
    const saved = await hark.api(token, "PUT", "/v3/definition/vocabularies/people", {
      terms: [{ term: "Okonkwo", soundsLike: ["oh conk woe"] }],
    });
    assert.equal(saved.statusCode, 200, saved.body);
    const group = await hark.api(token, "PUT", "/v3/definition/spotting/groups/products", {
      groupName: "products",
      keywords: ["Zorbatrix"],
    });
    assert.equal(group.statusCode, 200, group.body);
    const configurations = {
      plain: {},
      adHoc: { vocabularies: [{ terms: [{ term: "Zorbatrix", weight: 2 }, { term: "#&!" }] }] },
      saved: {
        vocabularies: [{ vocabularyName: "people" }],
        spotting: { groups: [{ groupName: "products" }] },
      },
    };
    for (const [name, configuration] of Object.entries(configurations)) {
      const response = await hark.upload(token, { media: file, configuration });
      assert.equal(response.statusCode, 200, response.body);
      const { mediaId } = response.json();
      assert.equal(await hark.ended(mediaId), "finished");
      docs[name as keyof typeof docs] = (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json();
    }
  });

  after(async () => {
    await hark?.close();
    await dir?.cleanup();
  });

  const spoken = (name: keyof typeof docs) =>
    (docs[name].transcript.words as Word[]).filter((word) => word.m === undefined);
  const texts = (name: keyof typeof docs) => spoken(name).map((word) => word.w.toLowerCase());

  test("without a vocabulary the engine writes neither name", () => {
    assert.ok(!texts("plain").includes("zorbatrix"), texts("plain").join(" "));
    assert.ok(!texts("plain").includes("okonkwo"), texts("plain").join(" "));
  });

  test("an ad hoc term is written where it was said, between the words around it, as the client spells it", () => {
    const words = spoken("adHoc");
    const at = words.findIndex((word) => word.w === "Zorbatrix");
    assert.ok(at > 0, words.map((word) => word.w).join(" "));
    const term = words[at]!;
    assert.ok(term.e > term.s && term.c > 0 && term.c <= 1, JSON.stringify(term));
    assert.ok(words[at - 1]!.e <= term.s && term.e <= words[at + 1]!.s, JSON.stringify(words));
    // The words around it stay as the engine heard them.
    assert.ok(texts("adHoc").includes("office"), texts("adHoc").join(" "));
  });

  test("a term with no pronunciation is named in a warning; the rest are used", () => {
    const warnings = ((docs.adHoc.warnings ?? []) as { message: string }[]).map((w) => w.message).join("\n");
    assert.match(warnings, /"#&!" has no pronunciation/);
    assert.doesNotMatch(warnings, /not yet used|Zorbatrix/);
  });

  test("a saved vocabulary's term and a spotting keyword reach the recogniser, and the keyword is spotted", () => {
    assert.ok(texts("saved").includes("okonkwo"), texts("saved").join(" "));
    assert.ok(texts("saved").includes("zorbatrix"), texts("saved").join(" "));
    const [products] = docs.saved.spotting.groups;
    assert.equal(products.spotted, true, JSON.stringify(products));
  });
});
