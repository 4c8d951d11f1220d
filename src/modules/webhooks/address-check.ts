/**
 * Which addresses a webhook may reach (delivery.md §4; docs/api.md "Webhooks"): none that is
 * loopback, private, link-local, unspecified or otherwise not a public unicast address, in either
 * family, and none that embeds such an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4).
 * Pure: resolving names and connecting are outbound-request.ts.
 */
import { isIP } from 'node:net';

/** One address a name resolved to, as `dns.promises.lookup(host, { all: true })` gives it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** How a host name is resolved: injectable, so tests never ask a real resolver. */
export type ResolveHost = (host: string) => Promise<ResolvedAddress[]>;

/** Refused IPv4 ranges: base address, prefix length, and what the range is. */
const BLOCKED_V4: readonly (readonly [number, number, string])[] = [
  [0x00000000, 8, 'unspecified ("this network")'],
  [0x0a000000, 8, 'private'],
  [0x64400000, 10, 'shared (carrier-grade NAT)'],
  [0x7f000000, 8, 'loopback'],
  [0xa9fe0000, 16, 'link-local'],
  [0xac100000, 12, 'private'],
  [0xc0000000, 24, 'reserved (IETF protocol assignments)'],
  [0xc0a80000, 16, 'private'],
  [0xc6120000, 15, 'reserved (benchmarking)'],
  [0xe0000000, 4, 'multicast'],
  [0xf0000000, 4, 'reserved'],
];

function v4Number(text: string): number {
  return text.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function v4Reason(value: number): string | null {
  for (const [base, bits, reason] of BLOCKED_V4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return reason;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (any valid textual form, a trailing dotted quad included). */
function v6Groups(text: string): number[] {
  let address = text.toLowerCase().split('%')[0] ?? '';
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    const n = v4Number(dotted[1]);
    address = `${address.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(zeros).fill('0'), ...right].map((group) => parseInt(group, 16));
}

const embeddedV4 = (high: number, low: number) => ((high << 16) >>> 0) + low;

function v6Reason(groups: number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const firstSix = [g0, g1, g2, g3, g4, g5];
  if (firstSix.every((g) => g === 0) && g6 === 0 && g7 === 0) return 'unspecified';
  if (firstSix.every((g) => g === 0) && g6 === 0 && g7 === 1) return 'loopback';
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible) reach the IPv4 address.
  if ([g0, g1, g2, g3, g4].every((g) => g === 0) && (g5 === 0xffff || g5 === 0)) {
    const reason = v4Reason(embeddedV4(g6, g7));
    return reason && `${reason} (IPv4 in IPv6)`;
  }
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) also carry an IPv4 address.
  if (g0 === 0x64 && g1 === 0xff9b && [g2, g3, g4, g5].every((g) => g === 0)) {
    const reason = v4Reason(embeddedV4(g6, g7));
    return reason && `${reason} (NAT64)`;
  }
  if (g0 === 0x2002) {
    const reason = v4Reason(embeddedV4(g1, g2));
    return reason && `${reason} (6to4)`;
  }
  if ((g0 & 0xfe00) === 0xfc00) return 'private (unique local)';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return null;
}

/**
 * Why a webhook may not reach `address` (an IPv4 or IPv6 literal), or null when it is a public
 * address. Text that is not an address is refused too.
 */
export function blockedReason(address: string): string | null {
  const family = isIP(address.split('%')[0] ?? '');
  if (family === 4) return v4Reason(v4Number(address));
  if (family === 6) return v6Reason(v6Groups(address));
  return 'not an IP address';
}

/** A URL's host as an address literal (IPv6 without its brackets), or null for a name. */
export function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}
