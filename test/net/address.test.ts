import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isPublicAddress } from "../../src/net/address.ts";

/**
 * Each refused range: an address inside it (its first, one in the middle, its last) and the first
 * address past its end, which must be allowed (unless the next range starts right there).
 */
const IPV4_RANGES: { range: string; inside: string[]; outside?: string }[] = [
  { range: "0.0.0.0/8 (this network)", inside: ["0.0.0.0", "0.1.2.3", "0.255.255.255"], outside: "1.0.0.0" },
  {
    range: "10.0.0.0/8 (private)",
    inside: ["10.0.0.0", "10.20.30.40", "10.255.255.255"],
    outside: "11.0.0.0",
  },
  {
    range: "100.64.0.0/10 (shared)",
    inside: ["100.64.0.0", "100.100.1.1", "100.127.255.255"],
    outside: "100.128.0.0",
  },
  {
    range: "127.0.0.0/8 (loopback)",
    inside: ["127.0.0.1", "127.1.2.3", "127.255.255.255"],
    outside: "128.0.0.0",
  },
  {
    range: "169.254.0.0/16 (link-local)",
    inside: ["169.254.0.0", "169.254.169.254", "169.254.255.255"],
    outside: "169.255.0.0",
  },
  {
    range: "172.16.0.0/12 (private)",
    inside: ["172.16.0.0", "172.20.1.1", "172.31.255.255"],
    outside: "172.32.0.0",
  },
  {
    range: "192.0.0.0/24 (IETF protocol)",
    inside: ["192.0.0.0", "192.0.0.8", "192.0.0.255"],
    outside: "192.0.1.0",
  },
  {
    range: "192.0.2.0/24 (TEST-NET-1)",
    inside: ["192.0.2.0", "192.0.2.55", "192.0.2.255"],
    outside: "192.0.3.0",
  },
  {
    range: "192.168.0.0/16 (private)",
    inside: ["192.168.0.0", "192.168.1.1", "192.168.255.255"],
    outside: "192.169.0.0",
  },
  {
    range: "198.18.0.0/15 (benchmarking)",
    inside: ["198.18.0.0", "198.19.10.10", "198.19.255.255"],
    outside: "198.20.0.0",
  },
  {
    range: "198.51.100.0/24 (TEST-NET-2)",
    inside: ["198.51.100.0", "198.51.100.7", "198.51.100.255"],
    outside: "198.51.101.0",
  },
  {
    range: "203.0.113.0/24 (TEST-NET-3)",
    inside: ["203.0.113.0", "203.0.113.9", "203.0.113.255"],
    outside: "203.0.114.0",
  },
  // 224.0.0.0/4 is followed directly by 240.0.0.0/4, which runs to the end of the IPv4 space.
  { range: "224.0.0.0/4 (multicast)", inside: ["224.0.0.0", "224.0.0.251", "239.255.255.250"] },
  { range: "240.0.0.0/4 (reserved, broadcast)", inside: ["240.0.0.0", "250.1.2.3", "255.255.255.255"] },
];

describe("isPublicAddress", () => {
  for (const { range, inside, outside } of IPV4_RANGES) {
    it(`refuses ${range}${outside ? ` and allows ${outside} just past it` : ""}`, () => {
      for (const address of inside) assert.equal(isPublicAddress(address), false, address);
      if (outside) assert.equal(isPublicAddress(outside), true, outside);
    });
  }

  it("allows the addresses just before the private ranges", () => {
    for (const address of [
      "9.255.255.255",
      "100.63.255.255",
      "126.255.255.255",
      "172.15.255.255",
      "192.167.255.255",
    ]) {
      assert.equal(isPublicAddress(address), true, address);
    }
    assert.equal(isPublicAddress("223.255.255.255"), true);
  });

  it("allows public IPv4 and IPv6 addresses", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.216.34",
      "2606:4700:4700::1111",
      "2001:4860:4860::8888",
    ]) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  it("refuses IPv6 loopback and unspecified", () => {
    assert.equal(isPublicAddress("::1"), false);
    assert.equal(isPublicAddress("0:0:0:0:0:0:0:1"), false);
    assert.equal(isPublicAddress("::"), false);
  });

  it("refuses IPv6 unique local addresses (fc00::/7)", () => {
    for (const address of ["fc00::", "fd12:3456:789a::1", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  it("refuses IPv6 link-local addresses (fe80::/10)", () => {
    for (const address of ["fe80::1", "FE80::abcd:1234", "febf:ffff::1"]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  it("refuses IPv6 multicast (ff00::/8)", () => {
    for (const address of ["ff02::1", "ff05::1:3", "ff0e::101"]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  it("refuses the IPv6 documentation range (2001:db8::/32)", () => {
    assert.equal(isPublicAddress("2001:db8::1"), false);
    assert.equal(isPublicAddress("2001:db8:ffff::1"), false);
    assert.equal(isPublicAddress("2001:db9::1"), true);
  });

  it("judges an IPv4-mapped IPv6 address by the IPv4 address it carries", () => {
    assert.equal(isPublicAddress("::ffff:127.0.0.1"), false);
    assert.equal(isPublicAddress("::ffff:7f00:1"), false);
    assert.equal(isPublicAddress("::ffff:10.1.2.3"), false);
    assert.equal(isPublicAddress("::ffff:a9fe:a9fe"), false, "169.254.169.254, the cloud metadata address");
    assert.equal(isPublicAddress("0:0:0:0:0:ffff:c0a8:101"), false);
    assert.equal(isPublicAddress("::FFFF:7F00:0001"), false);
    assert.equal(isPublicAddress("::ffff:8.8.8.8"), true);
    assert.equal(isPublicAddress("::ffff:808:808"), true);
  });

  it("judges a NAT64 address (64:ff9b::/96) by the IPv4 address it carries", () => {
    assert.equal(isPublicAddress("64:ff9b::a00:1"), false, "10.0.0.1");
    assert.equal(isPublicAddress("64:ff9b::127.0.0.1"), false);
    assert.equal(isPublicAddress("64:ff9b::c0a8:1"), false, "192.168.0.1");
    assert.equal(isPublicAddress("64:ff9b::808:808"), true, "8.8.8.8");
  });

  it("judges a deprecated IPv4-compatible address (::a.b.c.d) by the IPv4 address it carries", () => {
    assert.equal(isPublicAddress("::127.0.0.1"), false);
    assert.equal(isPublicAddress("::a00:1"), false);
    assert.equal(isPublicAddress("::8.8.8.8"), true);
  });

  it("judges an IPv4-translated address (::ffff:0:a.b.c.d) by the IPv4 address it carries", () => {
    assert.equal(isPublicAddress("::ffff:0:127.0.0.1"), false);
    assert.equal(isPublicAddress("::ffff:0:a00:1"), false);
    assert.equal(isPublicAddress("::ffff:0:808:808"), true);
  });

  it("judges a 6to4 address (2002::/16) by the IPv4 address of its tunnel end", () => {
    assert.equal(isPublicAddress("2002:7f00:1::1"), false, "127.0.0.1");
    assert.equal(isPublicAddress("2002:a9fe:a9fe::"), false, "169.254.169.254");
    assert.equal(isPublicAddress("2002:808:808::1"), true, "8.8.8.8");
  });

  it("refuses local-use NAT64 (64:ff9b:1::/48), site-local (fec0::/10) and discard-only (100::/64)", () => {
    for (const address of ["64:ff9b:1::808:808", "fec0::1", "feff::1", "100::1"]) {
      assert.equal(isPublicAddress(address), false, address);
    }
  });

  /** The special-purpose ranges issue 14 found let through, each with an address inside and just past it. */
  const SPECIAL_RANGES: { range: string; inside: string[]; outside: string }[] = [
    {
      range: "192.88.99.0/24 (6to4 relay anycast, deprecated)",
      inside: ["192.88.99.0", "192.88.99.1", "192.88.99.255"],
      outside: "192.88.100.0",
    },
    { range: "2001::/32 (Teredo)", inside: ["2001::", "2001::1", "2001:0:ffff::1"], outside: "2001:4860::1" },
    {
      range: "2001:2::/48 (benchmarking)",
      inside: ["2001:2::", "2001:2:0:ffff::1"],
      // Past it lies the rest of 2001::/23 (IETF protocol assignments), refused too; 2001:200:: is public.
      outside: "2001:200::1",
    },
    {
      range: "2001:10::/28 (ORCHID, deprecated)",
      inside: ["2001:10::", "2001:1f:ffff::1"],
      outside: "2001:4860:4860::8888",
    },
    { range: "2001:20::/28 (ORCHIDv2)", inside: ["2001:20::", "2001:2f:ffff::1"], outside: "2001:4860::1" },
    {
      range: "3fff::/20 (documentation)",
      inside: ["3fff::", "3fff:fff:ffff::1"],
      outside: "2a00:1450:4001::1",
    },
    { range: "5f00::/16 (segment routing SIDs)", inside: ["5f00::", "5f00:ffff::1"], outside: "2600::1" },
  ];
  for (const { range, inside, outside } of SPECIAL_RANGES) {
    it(`refuses ${range} and allows ${outside}`, () => {
      for (const address of inside) assert.equal(isPublicAddress(address), false, address);
      assert.equal(isPublicAddress(outside), true, outside);
    });
  }

  it("judges an IPv4 special range carried in IPv6 as the IPv4 address itself", () => {
    assert.equal(isPublicAddress("::ffff:192.88.99.1"), false);
    assert.equal(isPublicAddress("2002:c058:6301::1"), false, "6to4 through 192.88.99.1");
  });

  it("judges an address with a zone index by the address itself", () => {
    assert.equal(isPublicAddress("fe80::1%eth0"), false);
    assert.equal(isPublicAddress("::ffff:7f00:1%1"), false);
  });

  it("refuses anything that is not an IP address literal", () => {
    for (const text of [
      "",
      "localhost",
      "example.com",
      "127.1",
      "2130706433",
      "0x7f.0.0.1",
      "256.0.0.1",
      "1.2.3.4.5",
      "[::1]",
      "gggg::1",
      " 8.8.8.8",
    ]) {
      assert.equal(isPublicAddress(text), false, JSON.stringify(text));
    }
  });
});
