import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { renderDfxp, TTAF1_NAMESPACE } from "../../src/formats/dfxp.ts";
import { MONOLOGUE, transcript, VOICEBASE_EXAMPLE } from "./fixtures.ts";

interface XmlElement {
  name: string;
  attributes: Map<string, string>;
  children: XmlNode[];
}
type XmlNode = XmlElement | string;

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/;
const NOT_XML_CHAR = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const PREDEFINED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(raw: string): string {
  return raw.replace(/&([^;]*);?/g, (reference, name: string) => {
    const code = /^#(\d+)$/.exec(name)?.[1] ?? /^#x([0-9a-fA-F]+)$/.exec(name)?.[1];
    const value =
      code === undefined
        ? PREDEFINED[name]
        : String.fromCodePoint(Number.parseInt(code, /^#x/.test(name) ? 16 : 10));
    if (value === undefined || !reference.endsWith(";")) throw new Error(`bad reference ${reference}`);
    return value;
  });
}

/**
 * A strict reader for the XML the renderer writes: well-formedness (one root, matched tags, quoted unique
 * attributes, escaped `<` and `&`, XML characters only) and declared namespace prefixes. Comments, CDATA,
 * processing instructions and DOCTYPE are not written, so they are rejected.
 */
function parseXml(xml: string): XmlElement {
  const bad = NOT_XML_CHAR.exec(xml);
  if (bad) throw new Error(`character U+${bad[0].codePointAt(0)?.toString(16)} is not allowed in XML`);
  let at = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${at}: ${JSON.stringify(xml.slice(at, at + 30))}`);
  };
  const skipSpace = (): number => {
    const start = at;
    while (/[ \t\r\n]/.test(xml[at] ?? "")) at++;
    return at - start;
  };
  const expect = (literal: string): void => {
    if (!xml.startsWith(literal, at)) fail(`expected ${literal}`);
    at += literal.length;
  };
  const readName = (): string => {
    const name = NAME.exec(xml.slice(at))?.[0] ?? fail("expected a name");
    at += name.length;
    return name;
  };
  const checkPrefix = (name: string, scope: Map<string, string>): void => {
    const prefix = name.includes(":") ? name.slice(0, name.indexOf(":")) : undefined;
    if (prefix !== undefined && prefix !== "xmlns" && !scope.has(prefix)) fail(`undeclared prefix ${prefix}`);
  };

  const readElement = (outer: Map<string, string>): XmlElement => {
    expect("<");
    const name = readName();
    const attributes = new Map<string, string>();
    for (;;) {
      const spaced = skipSpace() > 0;
      if (xml.startsWith("/>", at) || xml.startsWith(">", at)) break;
      if (!spaced) fail("expected space before attribute");
      const attribute = readName();
      if (attributes.has(attribute)) fail(`duplicate attribute ${attribute}`);
      skipSpace();
      expect("=");
      skipSpace();
      const quote = xml[at];
      if (quote !== '"' && quote !== "'") fail("unquoted attribute value");
      const close = xml.indexOf(quote ?? "", at + 1);
      if (close < 0) fail("unterminated attribute value");
      const raw = xml.slice(at + 1, close);
      if (raw.includes("<")) fail("< in attribute value");
      attributes.set(attribute, decode(raw));
      at = close + 1;
    }
    const scope = new Map(outer);
    for (const [attribute, value] of attributes) {
      if (attribute.startsWith("xmlns:")) scope.set(attribute.slice(6), value);
    }
    checkPrefix(name, scope);
    for (const attribute of attributes.keys()) checkPrefix(attribute, scope);
    const element: XmlElement = { name, attributes, children: [] };
    if (xml.startsWith("/>", at)) {
      at += 2;
      return element;
    }
    expect(">");
    for (;;) {
      if (at >= xml.length) fail(`unclosed <${name}>`);
      if (xml.startsWith("</", at)) {
        at += 2;
        if (readName() !== name) fail(`mismatched end tag for <${name}>`);
        skipSpace();
        expect(">");
        return element;
      }
      if (xml.startsWith("<!", at) || xml.startsWith("<?", at)) fail("unexpected markup");
      if (xml[at] === "<") {
        element.children.push(readElement(scope));
        continue;
      }
      const end = xml.indexOf("<", at);
      const raw = xml.slice(at, end < 0 ? xml.length : end);
      if (raw.includes("]]>")) fail("]]> in text");
      element.children.push(decode(raw));
      at += raw.length;
    }
  };

  if (xml.startsWith("<?xml")) {
    const end = xml.indexOf("?>");
    if (!/^<\?xml version="1\.0"( encoding="[\w-]+")?\?>$/.test(xml.slice(0, end + 2)))
      fail("bad declaration");
    at = end + 2;
  }
  skipSpace();
  const root = readElement(new Map([["xml", "http://www.w3.org/XML/1998/namespace"]]));
  skipSpace();
  if (at !== xml.length) fail("content after the root element");
  return root;
}

const elements = (node: XmlElement, name: string): XmlElement[] =>
  node.children.filter((child): child is XmlElement => typeof child !== "string" && child.name === name);

function only(node: XmlElement | undefined, name: string): XmlElement {
  assert.ok(node !== undefined, `parent of <${name}> exists`);
  const found = elements(node, name);
  assert.equal(found.length, 1, `one <${name}> in <${node.name}>`);
  return found[0] as XmlElement;
}

function ms(clock: string | undefined): number {
  const match = /^(\d{2,}):(\d{2}):(\d{2})\.(\d{3})$/.exec(clock ?? "");
  assert.ok(match, `time expression ${clock}`);
  return ((Number(match[1]) * 60 + Number(match[2])) * 60 + Number(match[3])) * 1000 + Number(match[4]);
}

interface Caption {
  begin: number;
  end: number;
  lines: string[];
}

/** Reads a rendered document the way a DFXP player would, checking what a player relies on. */
function readDfxp(dfxp: string): Caption[] {
  assert.ok(dfxp.startsWith('<?xml version="1.0" encoding="utf-8"?>\n'));
  const tt = parseXml(dfxp);
  assert.equal(tt.name, "tt");
  assert.equal(tt.attributes.get("xmlns"), TTAF1_NAMESPACE);
  assert.equal(tt.attributes.get("xml:lang"), "en");
  const div = only(only(tt, "body"), "div");
  const captions: Caption[] = [];
  for (const p of elements(div, "p")) {
    const begin = ms(p.attributes.get("begin"));
    const end = ms(p.attributes.get("end"));
    assert.ok(begin < end, `${begin} < ${end}`);
    const previous = captions.at(-1);
    if (previous !== undefined) assert.ok(previous.end <= begin, "paragraphs in order, not overlapping");
    const caption: Caption = { begin, end, lines: [] };
    p.children.forEach((child, index) => {
      if (index % 2 === 0) {
        assert.equal(typeof child, "string", "text, then <br/>, then text");
        caption.lines.push(child as string);
      } else {
        assert.ok(typeof child !== "string" && child.name === "br" && child.children.length === 0, "<br/>");
      }
    });
    assert.equal(p.children.length % 2, 1, "a paragraph ends with text");
    captions.push(caption);
  }
  return captions;
}

describe("renderDfxp", () => {
  test("renders VoiceBase's example in the TTAF1 namespace, each turn labelled", () => {
    assert.equal(
      renderDfxp(VOICEBASE_EXAMPLE),
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<tt xml:lang="en" xmlns="http://www.w3.org/2006/04/ttaf1">',
        "  <body>",
        "    <div>",
        '      <p begin="00:00:02.200" end="00:00:02.300">agent: Hello.</p>',
        '      <p begin="00:00:02.400" end="00:00:02.500">caller: Hi</p>',
        "    </div>",
        "  </body>",
        "</tt>",
        "",
      ].join("\n"),
    );
  });

  test("labels the first cue of each turn, lines split by <br/>", () => {
    const words = transcript(
      { speaker: "Agent", at: 1000, text: MONOLOGUE },
      { speaker: "Customer", at: 60_000, text: "I see." },
      { speaker: "Agent", at: 62_000, text: "Good." },
    );
    const captions = readDfxp(renderDfxp(words));
    assert.ok(captions.length >= 7);
    assert.deepEqual(
      captions.map((caption) => /^(\w+): /.exec(caption.lines[0] ?? "")?.[1]),
      ["Agent", ...Array(captions.length - 3).fill(undefined), "Customer", "Agent"],
    );
    assert.ok(captions.some((caption) => caption.lines.length === 2));
    const spoken = captions
      .slice(0, -2)
      .flatMap((caption) => caption.lines)
      .join(" ");
    assert.equal(spoken, `Agent: ${MONOLOGUE}`);
  });

  test("escapes text and speaker names", () => {
    const words = transcript(
      { speaker: `R&D <"team">`, at: 0, text: "AT&T <b> is --> ]]> here" },
      { speaker: "Caller", at: 5000, text: "ok" },
    );
    const captions = readDfxp(renderDfxp(words));
    assert.deepEqual(captions[0], { begin: 0, end: 2300, lines: [`R&D <"team">: AT&T <b> is --> ]]> here`] });
  });

  test("stays well-formed when words hold characters XML forbids", () => {
    const words = transcript({
      speaker: "A\u0001gent",
      at: 0,
      text: "bad\u0007 \uD800half \uFFFEnon emoji😀",
    });
    assert.deepEqual(readDfxp(renderDfxp(words))[0]?.lines, ["bad half non emoji😀"]);
  });

  test("labels no one when the transcript has no turns or one speaker (mono)", () => {
    const bare = renderDfxp(transcript({ at: 0, text: "just words." }));
    assert.deepEqual(readDfxp(bare), [{ begin: 0, end: 700, lines: ["just words."] }]);
    const mono = renderDfxp(transcript({ speaker: "Speaker", at: 0, text: "just words." }));
    assert.equal(mono, bare);
  });

  test("gives a document with an empty body div for an empty transcript", () => {
    const tt = parseXml(renderDfxp([]));
    assert.deepEqual(readDfxp(renderDfxp([])), []);
    const div = only(only(tt, "body"), "div");
    assert.deepEqual(
      div.children.filter((child) => typeof child !== "string" || child.trim() !== ""),
      [],
    );
  });
});

describe("the test's XML reader", () => {
  test("reads well-formed XML", () => {
    const root = parseXml('<?xml version="1.0"?><a x="1 &amp; 2"><b/>t&lt;&#65;&#x42;</a>');
    assert.equal(root.attributes.get("x"), "1 & 2");
    assert.deepEqual(root.children.at(-1), "t<AB");
  });

  test("rejects what is not well-formed", () => {
    for (const bad of [
      "<a>AT&T</a>",
      "<a><b></a></b>",
      "<a x=1/>",
      '<a x="1" x="2"/>',
      "<a/><b/>",
      "<a>x < y</a>",
      "<ttm:a/>",
      '<a ttm:x="1"/>',
      "<a>\u0007</a>",
      "<a>",
      '<a x="<"/>',
    ]) {
      assert.throws(() => parseXml(bad), bad);
    }
  });
});
