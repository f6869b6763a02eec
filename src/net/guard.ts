/**
 * The outbound address guard: every connection Hark opens on a client's behalf (callback tries,
 * `mediaUrl` downloads) goes to an address that was checked, at that connection, to be public or
 * explicitly allowed.
 *
 * Checking a name and then letting the connection look it up again would leave a gap for DNS
 * rebinding (public on the check, private on the connect). So the check runs inside the connection:
 * the undici connector hands Node's `net`/`tls` a `lookup` that resolves the name, refuses the whole
 * answer when any address in it is not allowed, and otherwise passes on exactly the addresses it
 * checked. The socket connects to one of those; TLS still verifies the certificate against the host
 * name, because only the address lookup is replaced. An IP-literal host involves no lookup, so the
 * connector checks it itself before connecting.
 */
import dns from "node:dns";
import net, { type LookupFunction } from "node:net";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { embeddedIpv4, isPublicAddress, parseCidr } from "./address.ts";

/** Resolves a host name to every address it has, as `dns.promises.lookup(host, { all: true })` does. */
export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export interface AddressPolicy {
  /** Development only: every address is allowed and the guard is off. */
  readonly allowPrivate: boolean;
  /** Exceptions to the refusal of non-public addresses, e.g. a receiver on the operator's own network. */
  readonly allowCidrs: net.BlockList;
}

export interface GuardOptions {
  readonly allowPrivate: boolean;
  /** CIDRs as `HARK_CALLBACK_ALLOW_CIDRS` lists them (already checked by `parseCidr`). */
  readonly allowCidrs: readonly string[];
  /** Tests resolve invented names with this; by default the system resolver. */
  readonly resolve?: Resolver;
}

/** The code a refusal carries, so that callers can tell it from a DNS or connect failure. */
export const REFUSED_ADDRESS = "HARK_REFUSED_ADDRESS";

export class RefusedAddressError extends Error {
  override name = "RefusedAddressError";
  readonly code = REFUSED_ADDRESS;
  readonly host: string;
  readonly address: string;
  constructor(host: string, address: string) {
    // The address a name resolved to stays out of the message: the message reaches the client (the
    // delivery log), and Hark's resolver must not become a way to read an internal DNS.
    super(
      host === address
        ? `${address} is not a public address`
        : `${host} resolves to an address that is not public`,
    );
    this.host = host;
    this.address = address;
  }
}

/** The policy with its CIDRs compiled once; a malformed CIDR throws (settings have checked them). */
export function addressPolicy(options: {
  allowPrivate: boolean;
  allowCidrs: readonly string[];
}): AddressPolicy {
  const allowCidrs = new net.BlockList();
  for (const text of options.allowCidrs) {
    const { address, prefix, family } = parseCidr(text);
    allowCidrs.addSubnet(address, prefix, family);
  }
  return { allowPrivate: options.allowPrivate, allowCidrs };
}

/** True when a connection to `address` (an IP literal) may be opened under `policy`. Pure. */
export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (policy.allowPrivate || isPublicAddress(address)) return true;
  const bare = address.replace(/%.*$/, "");
  if (policy.allowCidrs.check(bare, family === 4 ? "ipv4" : "ipv6")) return true;
  // An allowed IPv4 network is reachable through its IPv6 spellings too (mapped, NAT64, ...).
  const inner = family === 6 ? embeddedIpv4(bare) : undefined;
  return inner !== undefined && policy.allowCidrs.check(inner, "ipv4");
}

/**
 * The refusal for a URL host that is an IP literal (`127.0.0.1`, `[::ffff:7f00:1]`), if refused;
 * undefined for an allowed literal and for a name (names are checked at lookup). Expects the host as
 * WHATWG URL parsing leaves it: `127.1`, `2130706433` and `0x7f.1` are by then `127.0.0.1`.
 */
export function literalHostRefusal(host: string, policy: AddressPolicy): RefusedAddressError | undefined {
  const address = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (net.isIP(address) === 0 || isAllowedAddress(address, policy)) return undefined;
  return new RefusedAddressError(address, address);
}

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true });

/**
 * A `lookup` for `net.connect`/`tls.connect` that resolves with `resolve`, refuses the answer when any
 * of its addresses is not allowed (a name with one private address is not a public name, and a
 * connection may try any of them), and otherwise answers with the checked addresses only.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (host, options, callback) => {
    Promise.resolve(host)
      .then(resolve)
      .then(
        (addresses) => {
          const refused = addresses.find((entry) => !isAllowedAddress(entry.address, policy));
          if (refused) return callback(new RefusedAddressError(host, refused.address), []);
          const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
          const usable =
            family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
          const first = usable[0];
          if (!first) {
            const error = Object.assign(new Error(`${host} has no usable address`), { code: "ENOTFOUND" });
            return callback(error, []);
          }
          if (options.all) return callback(null, usable);
          callback(null, first.address, first.family);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
      );
  };
}

export interface AgentTimeouts {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/**
 * An undici Agent whose every connection passes the guard: IP-literal hosts are checked before
 * connecting, names at the lookup the socket itself makes. With `allowPrivate` it is a plain Agent.
 */
export function guardedAgent(options: GuardOptions, timeouts: AgentTimeouts): Dispatcher {
  const common = { headersTimeout: timeouts.headersTimeoutMs, bodyTimeout: timeouts.bodyTimeoutMs };
  if (options.allowPrivate) return new Agent({ ...common, connect: { timeout: timeouts.connectTimeoutMs } });
  const policy = addressPolicy(options);
  const connector = buildConnector({
    timeout: timeouts.connectTimeoutMs,
    lookup: guardedLookup(policy, options.resolve),
  });
  return new Agent({
    ...common,
    connect: (connectOptions, callback) => {
      const refusal = literalHostRefusal(connectOptions.hostname, policy);
      if (refusal) {
        callback(refusal, null);
        return;
      }
      connector(connectOptions, callback);
    },
  });
}
