/**
 * The outbound address guard: which addresses a policy allows, how odd spellings of an IP-literal host
 * are caught, how the guarded lookup answers `net.connect`, and that a TLS connection made through it
 * still checks the certificate against the host name.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { LookupAddress } from "node:dns";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import { describe, it } from "node:test";
import { buildConnector } from "undici";
import {
  addressPolicy,
  guardedLookup,
  isAllowedAddress,
  literalHostRefusal,
  REFUSED_ADDRESS,
  RefusedAddressError,
  type Resolver,
} from "../../src/net/guard.ts";

const strict = addressPolicy({ allowPrivate: false, allowCidrs: [] });

/** One address in each range the issue lists, and in each IPv6 form that carries such an address. */
const REFUSED: [string, string][] = [
  ["0.0.0.0/8", "0.0.0.0"],
  ["0.0.0.0/8", "0.1.2.3"],
  ["10.0.0.0/8", "10.20.30.40"],
  ["100.64.0.0/10", "100.100.1.1"],
  ["127.0.0.0/8", "127.0.0.1"],
  ["127.0.0.0/8", "127.255.255.254"],
  ["169.254.0.0/16", "169.254.169.254"],
  ["172.16.0.0/12", "172.31.255.255"],
  ["192.0.0.0/24", "192.0.0.8"],
  ["192.168.0.0/16", "192.168.1.1"],
  ["198.18.0.0/15", "198.19.0.1"],
  ["224.0.0.0/4", "239.255.255.250"],
  ["240.0.0.0/4", "255.255.255.255"],
  ["IPv6 loopback", "::1"],
  ["IPv6 unspecified", "::"],
  ["fc00::/7", "fd12:3456::1"],
  ["fe80::/10", "fe80::1"],
  ["IPv6 multicast", "ff02::1"],
  ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
  ["IPv4-mapped loopback, hex", "::ffff:7f00:1"],
  ["IPv4-mapped metadata address", "::ffff:169.254.169.254"],
  ["IPv4-translated loopback", "::ffff:0:7f00:1"],
  ["IPv4-compatible loopback", "::127.0.0.1"],
  ["NAT64 private", "64:ff9b::10.0.0.1"],
  ["NAT64 loopback, hex", "64:ff9b::7f00:1"],
  ["local-use NAT64", "64:ff9b:1::a00:1"],
  ["6to4 of loopback", "2002:7f00:1::1"],
  ["6to4 of private", "2002:c0a8:101::"],
];

describe("isAllowedAddress", () => {
  for (const [range, address] of REFUSED) {
    it(`refuses ${address} (${range})`, () => {
      assert.equal(isAllowedAddress(address, strict), false);
    });
  }

  it("allows public IPv4 and IPv6 addresses, and their mapped and NAT64 forms", () => {
    for (const address of [
      "8.8.8.8",
      "93.184.216.34",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
    ]) {
      assert.equal(isAllowedAddress(address, strict), true, address);
    }
  });

  it("refuses what is not an IP address", () => {
    for (const text of ["", "localhost", "127.1", "2130706433", "[::1]", "example.com"]) {
      assert.equal(isAllowedAddress(text, strict), false, JSON.stringify(text));
    }
  });

  it("allows exactly the IPv4 networks listed as exceptions", () => {
    const policy = addressPolicy({ allowPrivate: false, allowCidrs: ["10.1.0.0/16", "127.0.0.1/32"] });
    assert.equal(isAllowedAddress("10.1.2.3", policy), true);
    assert.equal(isAllowedAddress("10.1.255.255", policy), true);
    assert.equal(isAllowedAddress("10.2.0.1", policy), false);
    assert.equal(isAllowedAddress("127.0.0.1", policy), true);
    assert.equal(isAllowedAddress("127.0.0.2", policy), false);
    assert.equal(isAllowedAddress("192.168.1.1", policy), false);
    // The same IPv4 network spelled as IPv6 reaches the same hosts.
    assert.equal(isAllowedAddress("::ffff:10.1.2.3", policy), true);
    assert.equal(isAllowedAddress("64:ff9b::a01:203", policy), true);
    assert.equal(isAllowedAddress("::ffff:10.2.0.1", policy), false);
  });

  it("allows exactly the IPv6 networks listed as exceptions", () => {
    const policy = addressPolicy({ allowPrivate: false, allowCidrs: ["fd00:1::/32", "::1/128"] });
    assert.equal(isAllowedAddress("fd00:1::5", policy), true);
    assert.equal(isAllowedAddress("fd00:1:ffff::1", policy), true);
    assert.equal(isAllowedAddress("fd00:2::5", policy), false);
    assert.equal(isAllowedAddress("::1", policy), true);
    assert.equal(isAllowedAddress("fe80::1", policy), false);
    assert.equal(isAllowedAddress("127.0.0.1", policy), false);
  });

  it("allows every address when private addresses are allowed (development)", () => {
    const open = addressPolicy({ allowPrivate: true, allowCidrs: [] });
    for (const [, address] of REFUSED) assert.equal(isAllowedAddress(address, open), true, address);
  });

  it("refuses to build a policy from a malformed CIDR", () => {
    assert.throws(() => addressPolicy({ allowPrivate: false, allowCidrs: ["10.0.0.0"] }), /not a CIDR/);
  });
});

describe("literalHostRefusal", () => {
  // WHATWG URL parsing (which undici uses too) turns odd IPv4 spellings into dotted form first.
  const spellings: [string, string][] = [
    ["http://127.1/", "127.0.0.1"],
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://10.1/", "10.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[0:0:0:0:0:ffff:7f00:1]/", "::ffff:7f00:1"],
    ["http://[::1]/", "::1"],
    ["http://[64:ff9b::127.0.0.1]/", "64:ff9b::7f00:1"],
    ["http://[fe80::1]/", "fe80::1"],
  ];
  for (const [url, address] of spellings) {
    it(`refuses ${url} as ${address}`, () => {
      const refusal = literalHostRefusal(new URL(url).hostname, strict);
      assert.ok(refusal instanceof RefusedAddressError, `${url} was let through`);
      assert.equal(refusal.code, REFUSED_ADDRESS);
      assert.equal(refusal.address, address);
      assert.match(refusal.message, /not a public address/);
    });
  }

  it("accepts the bracket-less form undici hands its connector", () => {
    assert.ok(literalHostRefusal("::ffff:7f00:1", strict));
  });

  it("lets public literals and names through (names are checked at lookup)", () => {
    for (const url of ["http://8.8.8.8/", "http://[2606:4700:4700::1111]/", "https://hooks.example.com/"]) {
      assert.equal(literalHostRefusal(new URL(url).hostname, strict), undefined, url);
    }
  });

  it("lets an allowed private literal through", () => {
    const policy = addressPolicy({ allowPrivate: false, allowCidrs: ["127.0.0.0/8"] });
    assert.equal(literalHostRefusal(new URL("http://127.1/").hostname, policy), undefined);
  });
});

/** Calls the lookup as `net.connect` would, and returns what it answered. */
function lookUp(
  resolve: Resolver,
  options: { all?: boolean; family?: number },
  policy = strict,
): Promise<{ error: NodeJS.ErrnoException | null; address: string | LookupAddress[]; family?: number }> {
  return new Promise((done) =>
    guardedLookup(policy, resolve)("hooks.test", options, (error, address, family) =>
      done({ error, address, ...(family !== undefined && { family }) }),
    ),
  );
}

describe("guardedLookup", () => {
  const answer =
    (...addresses: string[]): Resolver =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("answers with the checked public addresses, all of them or the first", async () => {
    const all = await lookUp(answer("93.184.216.34", "2606:2800:220:1::1"), { all: true });
    assert.equal(all.error, null);
    assert.deepEqual(all.address, [
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1::1", family: 6 },
    ]);
    const one = await lookUp(answer("93.184.216.34", "2606:2800:220:1::1"), {});
    assert.deepEqual([one.error, one.address, one.family], [null, "93.184.216.34", 4]);
    const six = await lookUp(answer("93.184.216.34", "2606:2800:220:1::1"), { family: 6 });
    assert.deepEqual([six.address, six.family], ["2606:2800:220:1::1", 6]);
  });

  it("refuses an answer with any address that is not public, naming it", async () => {
    const mixed = await lookUp(answer("93.184.216.34", "10.0.0.5"), { all: true });
    assert.ok(mixed.error instanceof RefusedAddressError);
    assert.equal(mixed.error.code, REFUSED_ADDRESS);
    assert.equal(mixed.error.message, "hooks.test resolves to an address that is not public");
    const mapped = await lookUp(answer("::ffff:127.0.0.1"), {});
    assert.equal(mapped.error?.code, REFUSED_ADDRESS);
  });

  it("lets an address of an allowed network through", async () => {
    const policy = addressPolicy({ allowPrivate: false, allowCidrs: ["10.0.0.0/8"] });
    const result = await lookUp(answer("10.0.0.5"), { all: true }, policy);
    assert.equal(result.error, null);
    assert.deepEqual(result.address, [{ address: "10.0.0.5", family: 4 }]);
  });

  it("passes a resolver failure on as it is (a DNS failure, not a refusal)", async () => {
    const failing: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND hooks.test"), { code: "ENOTFOUND" });
    };
    const result = await lookUp(failing, { all: true });
    assert.equal(result.error?.code, "ENOTFOUND");
    const empty = await lookUp(answer(), { all: true });
    assert.equal(empty.error?.code, "ENOTFOUND");
  });
});

describe("a TLS connection through the guarded lookup", () => {
  const cert = readFileSync(new URL("fixtures/receiver-test.crt", import.meta.url));
  const key = readFileSync(new URL("fixtures/receiver-test.key", import.meta.url));

  /** Connects, as undici's connector does, to `https://<name>:<port>` with the test certificate trusted. */
  async function connect(name: string): Promise<{ error?: NodeJS.ErrnoException; sni: string[] }> {
    const sni: string[] = [];
    const context = tls.createSecureContext({ cert, key });
    // The server name the client sent, recorded during the handshake, before the client can finish.
    const SNICallback = (name: string, done: (error: Error | null, context: tls.SecureContext) => void) => {
      sni.push(name);
      done(null, context);
    };
    const server = tls.createServer({ cert, key, SNICallback }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const policy = addressPolicy({ allowPrivate: false, allowCidrs: ["127.0.0.0/8"] });
    const connector = buildConnector({
      ca: cert,
      lookup: guardedLookup(policy, async () => [{ address: "127.0.0.1", family: 4 }]),
    });
    try {
      return await new Promise((resolve) =>
        connector(
          { hostname: name, host: `${name}:${port}`, protocol: "https:", port: String(port) },
          (error, socket) => {
            socket?.destroy();
            resolve({ ...(error && { error: error as NodeJS.ErrnoException }), sni });
          },
        ),
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("reaches the looked-up address and verifies the certificate against the host name", async () => {
    const ok = await connect("receiver.test");
    assert.equal(ok.error, undefined, ok.error?.message);
    assert.deepEqual(ok.sni, ["receiver.test"]);
    const other = await connect("other.test");
    assert.equal(other.error?.code, "ERR_TLS_CERT_ALTNAME_INVALID");
  });
});
