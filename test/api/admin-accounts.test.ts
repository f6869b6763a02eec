import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { hashToken } from "../../src/store/accounts.ts";
import { ADMIN_TOKEN, startTestHark, type TestHark } from "../support/harness.ts";

describe("POST /admin/accounts", () => {
  let hark: TestHark;
  before(async () => {
    hark = await startTestHark();
  });
  after(() => hark.close());

  const create = (body: unknown, token: string | null = ADMIN_TOKEN) =>
    hark.app.inject({
      method: "POST",
      url: "/admin/accounts",
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      payload: body as object,
    });

  test("creates an account and shows its token once; only the hash is stored", async () => {
    const response = await create({ accountName: "acme" });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ["accountId", "accountName", "token"]);
    assert.equal(body.accountName, "acme");
    const { rows } = await hark.services.db.query("select * from accounts where account_id = $1", [
      body.accountId,
    ]);
    assert.equal(rows.length, 1);
    assert.ok(!JSON.stringify(rows[0]).includes(body.token), "the token itself must not be stored");
    assert.deepEqual(rows[0]?.token_hash, hashToken(body.token));

    const media = await hark.app.inject({
      method: "GET",
      url: "/v3/media",
      headers: { authorization: `Bearer ${body.token}` },
    });
    assert.equal(media.statusCode, 200);
    assert.deepEqual(media.json().media, []);
  });

  test("a taken name is refused with 409", async () => {
    assert.equal((await create({ accountName: "twice" })).statusCode, 201);
    const again = await create({ accountName: "twice" });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().errors[0].code, 11006);
  });

  test("without the admin token: 401; with an account token: 401", async () => {
    const missing = await create({ accountName: "nobody" }, null);
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().errors[0].code, 10002);
    const wrong = await create({ accountName: "nobody" }, "not-the-admin-token");
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().errors[0].code, 10003);
    const accountToken = await hark.createAccount();
    assert.equal((await create({ accountName: "nobody" }, accountToken)).statusCode, 401);
  });

  test("the admin token is not an account token", async () => {
    const response = await hark.app.inject({
      method: "GET",
      url: "/v3/media",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(response.statusCode, 401);
  });

  test("a bad account name is a 400 that says what is allowed", async () => {
    for (const body of [
      {},
      { accountName: "" },
      { accountName: " lead" },
      { accountName: "x".repeat(101) },
      { accountName: 7 },
    ]) {
      const response = await create(body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().errors[0].code, 11005);
      assert.match(response.json().errors[0].error, /^accountName (is required: |must be )1 to 100 letters/);
    }
    assert.match(
      (await create({ accountName: "ok", plan: "gold" })).json().errors[0].error,
      /\(plan\) is not part of the body .* allowed: accountName$/,
    );
  });
});

describe("POST /admin/accounts without HARK_ADMIN_TOKEN", () => {
  test("answers 403: the admin API is off", async () => {
    const hark = await startTestHark({ HARK_ADMIN_TOKEN: "" });
    try {
      const response = await hark.app.inject({
        method: "POST",
        url: "/admin/accounts",
        headers: { authorization: "Bearer anything-at-all-here" },
        payload: { accountName: "acme" },
      });
      assert.equal(response.statusCode, 403);
      assert.equal(response.json().errors[0].code, 11004);
      assert.equal(typeof response.json().reference, "string");
    } finally {
      await hark.close();
    }
  });
});
