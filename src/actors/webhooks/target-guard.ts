/**
 * @module actors/webhooks/target-guard: SSRF protection for webhook targets (PITFALLS 28). Targets
 * must be https and connect to public unicast addresses; the check runs on the address actually
 * used for the connection (a `lookup` hook), so DNS rebinding cannot bypass it. Redirects are never
 * followed. `WEBHOOK_ALLOW_PRIVATE_TARGETS=true` allows private addresses and plain http (tests).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** True for a public unicast address (not loopback, private, link-local, CGNAT, ULA, multicast, reserved...). */
export function isPublicAddress(address: string): boolean {
  try {
    return ipaddr.process(address).range() === 'unicast';
  } catch {
    return false;
  }
}

/** Why a target URL is refused at registration, or null. Host names are checked again at connect time. */
export function targetProblem(url: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (u.username || u.password) return 'must not contain credentials';
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:')) return 'must use https';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) && !allowPrivate && !isPublicAddress(host)) return 'must not point to a private, loopback or link-local address';
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal'))) return 'must not point to a local host name';
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for http(s).request that refuses non-public addresses (unless allowed). */
export function guardedLookup(allowPrivate: boolean) {
  return function lookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses as LookupAddress[];
      const allowed = allowPrivate ? list : list.filter((a) => isPublicAddress(a.address));
      if (allowed.length === 0) {
        const e = new Error(`blocked: ${hostname} resolves to a non-public address`) as NodeJS.ErrnoException;
        e.code = 'EBLOCKEDADDRESS';
        return callback(e, []);
      }
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
