import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clientMessage, SERVER_PATH } from "../../src/domain/client-message.ts";

describe("clientMessage", () => {
  it("takes out ffmpeg's heap addresses and the server's paths, on one line", () => {
    assert.equal(
      clientMessage(
        "cannot decode (Error writing trailer of /var/lib/hark/tmp/hark-transcribe-4242-host-Ab12Cd/decoded.wav: No space left on device\n[wav @ 0x55d5c3b1c2c0] no 'data' tag found)",
      ),
      `cannot decode (Error writing trailer of ${SERVER_PATH}: No space left on device; [wav] no 'data' tag found)`,
    );
  });
  it("takes out paths under the roots it is given, wherever they are, and pids", () => {
    assert.equal(
      clientMessage("cannot read WAV ./hark-data/blobs/x/original (pid 4242)", { roots: ["./hark-data"] }),
      `cannot read WAV ${SERVER_PATH}`,
    );
    assert.equal(clientMessage("worker pid=77 failed"), "worker failed");
    assert.equal(clientMessage("at file:///work/main/node_modules/pg/lib/client.js"), `at ${SERVER_PATH}`);
    assert.equal(clientMessage("pointer 0x7ffd5e8c1a20"), "pointer [address]");
  });
  it("names given strings first", () => {
    assert.equal(
      clientMessage("/srv/blobs/abc: Invalid argument", { names: [["/srv/blobs/abc", "the media"]] }),
      "the media: Invalid argument",
    );
  });
  it("leaves the client's own text alone: URLs, API paths, JSON pointers, words with slashes", () => {
    for (const text of [
      "callbacks[0].url https://example.com/tmp/hook is not allowed",
      "There is no GET /v3/media/abc/nothing; the routes are listed at /openapi.json and /docs",
      "configuration/ingest/0 must be object",
      "speaker Sales/Support has no channel",
    ]) {
      assert.equal(clientMessage(text), text);
    }
  });
  it("is idempotent", () => {
    const once = clientMessage("[mp3 @ 0x557524142980] bad\n/tmp/x.mp3: Invalid argument", {
      roots: ["/tmp"],
    });
    assert.equal(clientMessage(once, { roots: ["/tmp"] }), once);
  });
});
