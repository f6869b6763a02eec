/**
 * Which IP addresses an outbound request on a client's behalf may reach. Everything that is not a
 * public unicast address is refused: loopback, private, link-local, shared, multicast, reserved, every
 * other special-purpose range, and the IPv6 forms that embed such an IPv4 address (mapped, translated,
 * compatible, NAT64, 6to4). Also the reading of the CIDRs that make exceptions to it.
 */
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * The IPv4 address an IPv6 address carries, if any: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, IPv4-compatible `::a.b.c.d`, and 6to4 `2002:aabb:ccdd::`
 * (the tunnel end is that IPv4 address). Each of them can end up at the IPv4 address inside.
 */
export function embeddedIpv4(address: string): string | undefined {
  const words = ipv6Words(address);
  if (!words) return undefined;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  const mapped = zeros(0, 5) && words[5] === 0xffff;
  const translated = zeros(0, 4) && words[4] === 0xffff && words[5] === 0;
  const nat64 = words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6);
  const compatible = zeros(0, 6) && (words[6] !== 0 || (words[7] ?? 0) > 1);
  const sixToFour = words[0] === 0x2002;
  if (sixToFour) return dottedQuad(words[1] ?? 0, words[2] ?? 0);
  if (!mapped && !translated && !nat64 && !compatible) return undefined;
  return dottedQuad(words[6] ?? 0, words[7] ?? 0);
}

function dottedQuad(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** The eight 16-bit words of an IPv6 address (a zone index ignored), or undefined when it is not one. */
export function ipv6Words(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    const bytes = dotted[1].split(".").map(Number);
    text = `${text.slice(0, -dotted[1].length)}${(((bytes[0] ?? 0) << 8) | (bytes[1] ?? 0)).toString(16)}:${(((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headWords = head ? head.split(":") : [];
  const tailWords = tail ? tail.split(":") : [];
  const missing = 8 - headWords.length - tailWords.length;
  if (tail === undefined ? headWords.length !== 8 : missing < 0) return undefined;
  const words = [...headWords, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailWords];
  return words.map((word) => Number.parseInt(word, 16));
}

/**
 * True when `address` (a literal IPv4 or IPv6 address) is a public unicast address. The special-purpose
 * ranges come from ipaddr.js (`range()`, kept in step with IANA's registries): anything it does not call
 * `unicast` is refused, which also covers ranges IANA adds later (Teredo, ORCHID, benchmarking, 3fff::/20,
 * segment routing). An IPv6 address that carries an IPv4 one is judged by that IPv4 address first: ipaddr.js
 * calls `::ffff:8.8.8.8` `ipv4Mapped`, which is public, and `2002:7f00:1::` `6to4`, which is loopback.
 */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const inner = embeddedIpv4(address);
    if (inner !== undefined) return isPublicAddress(inner);
  }
  // net.isIP accepted it, so ipaddr.js reads it (a zone index included) as the same address.
  return ipaddr.parse(address).range() === "unicast";
}

export interface Cidr {
  address: string;
  prefix: number;
  family: "ipv4" | "ipv6";
}

/**
 * Reads one CIDR (`10.1.0.0/16`, `fd00::/8`). Throws an Error saying what is wrong: a missing or
 * out-of-range prefix, an address not written as Node connects to it (`127.1`, a zone index), or bits
 * set past the prefix, which most often is a mistyped network (`10.1.2.0/8` for `10.0.0.0/8`?).
 */
export function parseCidr(text: string): Cidr {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  if (!match?.[1] || match[2] === undefined) {
    throw new Error(`"${text}" is not a CIDR such as 10.1.0.0/16 or fd00::/8`);
  }
  const address = match[1];
  const prefix = Number(match[2]);
  const bytes = net.isIPv4(address)
    ? address.split(".").map(Number)
    : (ipv6Words(address)?.flatMap((word) => [word >> 8, word & 0xff]) ?? []);
  if (address.includes("%") || (bytes.length !== 4 && bytes.length !== 16) || net.isIP(address) === 0) {
    throw new Error(`"${text}" does not start with an IPv4 or IPv6 address`);
  }
  if (prefix > bytes.length * 8) {
    throw new Error(`"${text}" has a prefix longer than ${bytes.length * 8} bits`);
  }
  const hostBits = bytes.some(
    (byte, index) => (byte & (0xff >> Math.max(0, Math.min(8, prefix - index * 8)))) !== 0,
  );
  if (hostBits) throw new Error(`"${text}" has address bits set past its /${prefix} prefix`);
  return { address, prefix, family: bytes.length === 4 ? "ipv4" : "ipv6" };
}
