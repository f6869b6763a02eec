import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { TranscriptFormat } from "../../src/domain/transcript.ts";
import { renderDfxp } from "../../src/formats/dfxp.ts";
import { alternateFormats, CONTENT_TYPES, RENDERED_FORMATS, renderFormat } from "../../src/formats/index.ts";
import { renderSrt } from "../../src/formats/srt.ts";
import { renderText } from "../../src/formats/text.ts";
import { renderWebVtt } from "../../src/formats/webvtt.ts";
import { transcript, VOICEBASE_EXAMPLE } from "./fixtures.ts";

describe("format table", () => {
  test("gives each format the Content-Type of the spec's callback table", () => {
    const expected: Record<TranscriptFormat, string> = {
      json: "application/json",
      text: "text/plain",
      srt: "text/srt",
      webvtt: "text/vtt",
      dfxp: "application/ttaf+xml",
    };
    assert.deepEqual({ ...CONTENT_TYPES }, expected);
  });

  test("renders each text format with its renderer", () => {
    const words = VOICEBASE_EXAMPLE;
    assert.equal(renderFormat("text", words), renderText(words));
    assert.equal(renderFormat("srt", words), renderSrt(words));
    assert.equal(renderFormat("webvtt", words), renderWebVtt(words));
    assert.equal(renderFormat("dfxp", words), renderDfxp(words));
  });
});

describe("alternateFormats", () => {
  test("lists text, srt, webvtt and dfxp as Base64 of their UTF-8 rendering", () => {
    const words = transcript({ speaker: "Zoë", at: 0, text: "café crème, s'il vous plaît." });
    const formats = alternateFormats(words);
    assert.deepEqual(
      formats.map((entry) => entry.format),
      ["text", "srt", "webvtt", "dfxp"],
    );
    assert.deepEqual(RENDERED_FORMATS, ["text", "srt", "webvtt", "dfxp"]);
    for (const entry of formats) {
      assert.equal(entry.contentType, CONTENT_TYPES[entry.format]);
      assert.equal(entry.contentEncoding, "Base64", "VoiceBase's spelling");
      assert.equal(entry.charset, "utf-8");
      assert.match(entry.data, /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
      const decoded = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(entry.data, "base64"));
      assert.equal(decoded, renderFormat(entry.format, words));
      assert.ok(decoded.includes("café crème"), `${entry.format} keeps accents`);
    }
  });

  test("decodes to VoiceBase's plain text for its example", () => {
    const text = alternateFormats(VOICEBASE_EXAMPLE).find((entry) => entry.format === "text");
    assert.equal(Buffer.from(text?.data ?? "", "base64").toString("utf8"), "agent: Hello.\n\ncaller: Hi\n");
  });

  test("still lists all four formats for an empty transcript", () => {
    const decoded = Object.fromEntries(
      alternateFormats([]).map((entry) => [entry.format, Buffer.from(entry.data, "base64").toString("utf8")]),
    );
    assert.equal(decoded.text, "");
    assert.equal(decoded.srt, "");
    assert.equal(decoded.webvtt, "WEBVTT\n");
    assert.match(decoded.dfxp ?? "", /<div\/>/);
  });
});
