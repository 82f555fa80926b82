/** @module server/pipeline/client-address: the client's address; `X-Forwarded-For` only from trusted proxies. */
import ipaddr from 'ipaddr.js';
import { boundedMemo } from '../../engine/memo.js';

/**
 * Normalises an address text: IPv4-mapped IPv6 (`::ffff:127.0.0.1`, uWS's long form) → IPv4
 * (PITFALLS 7). Memoised: peers repeat across keep-alive requests and parsing costs microseconds.
 */
export const normalizeAddress: (text: string) => string = boundedMemo(10_000, (text) => {
  try {
    return ipaddr.process(text).toString();
  } catch {
    return text;
  }
});

/** Parsed CIDR list. */
export type CidrList = readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];

/** Parses CIDRs (a bare address counts as /32 or /128). @throws Error naming the bad entry. */
export function parseCidrs(list: readonly string[]): CidrList {
  return list.map((entry) => {
    try {
      if (entry.includes('/')) return ipaddr.parseCIDR(entry);
      const addr = ipaddr.parse(entry);
      return [addr, addr.kind() === 'ipv4' ? 32 : 128] as [ipaddr.IPv4 | ipaddr.IPv6, number];
    } catch {
      throw new Error(`invalid IP address or CIDR: ${entry}`);
    }
  });
}

/** True when `address` falls in one of the CIDRs (IPv4-mapped IPv6 addresses match IPv4 ranges). */
export function inCidrs(address: string, cidrs: CidrList): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(address);
  } catch {
    return false;
  }
  return cidrs.some(([range, bits]) => addr.kind() === range.kind() && addr.match(range, bits));
}

/**
 * The client address: the socket peer, or, when the peer is a trusted proxy, the right-most
 * `X-Forwarded-For` entry that is not itself a trusted proxy (design notes "Client address").
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: CidrList): string {
  if (!forwardedFor || trusted.length === 0 || !inCidrs(peer, trusted)) return peer;
  const hops = forwardedFor
    .split(',')
    .map((s) => normalizeAddress(s.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!inCidrs(hops[i]!, trusted)) return hops[i]!;
  return hops[0] ?? peer;
}
