import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isRole, roleRefusal, roleWarnings } from "../src/roles.ts";
import { loadSettings } from "../src/settings.ts";

const EXTERNAL = { HARK_DATABASE_URL: "postgres://hark@db.internal/hark" };
const SCALED_OUT = {
  ...EXTERNAL,
  HARK_PUBLIC_URL: "https://hark.example.com",
  HARK_BLOB_STORE: "s3",
  HARK_S3_BUCKET: "hark-media",
};

describe("roles", () => {
  it("are serve, api and worker", () => {
    assert.deepEqual(["serve", "api", "worker", "all", ""].map(isRole), [true, true, true, false, false]);
  });

  it("api and worker refuse to run without a shared database; serve runs on its embedded one", () => {
    assert.equal(roleRefusal("serve", loadSettings({})), undefined);
    for (const role of ["api", "worker"] as const) {
      assert.match(roleRefusal(role, loadSettings({})) ?? "", /HARK_DATABASE_URL/);
      assert.equal(roleRefusal(role, loadSettings(EXTERNAL)), undefined);
    }
  });

  it("warn about settings that only work on one machine: a loopback public URL, a local blob store", () => {
    const [publicUrl, blobs] = roleWarnings("worker", loadSettings(EXTERNAL));
    assert.match(publicUrl ?? "", /HARK_PUBLIC_URL/);
    assert.match(blobs ?? "", /HARK_BLOB_STORE=s3/);
    assert.deepEqual(roleWarnings("api", loadSettings(EXTERNAL)).length, 1, "the API renders no callbacks");
    assert.deepEqual(roleWarnings("worker", loadSettings(SCALED_OUT)), []);
    assert.deepEqual(roleWarnings("api", loadSettings(SCALED_OUT)), []);
    assert.deepEqual(roleWarnings("serve", loadSettings({})), [], "one process on one machine is fine");
  });
});
