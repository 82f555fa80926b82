/** @module engine/rules/domains: the host of a URL value, and host lists with `*.example.com` entries. */
import { urlHost } from '../blueprint/classify.js';

/**
 * The host a URL value names when it is fixed at design time (`https://api.example.com/x` →
 * `api.example.com`), or `null` when the value is not a URL or a mapping can change the host
 * (`https://{{1.host}}/x`, and `https://api.example.com{{1.path}}`, which can append
 * `@evil.example/`: the same reading as SEC-6, docs/engine.md *Request forgery*).
 */
export function fixedHost(value: string): string | null {
  const host = urlHost(value);
  if (host === null) return null;
  const after = value
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#\s]*@)?/i, '')
    .slice(host.length);
  return /^(?::\d+)?(?:[/?#]|$)/.test(after) ? host.replace(/\.$/, '') : null;
}

/** A compiled host list: exact hosts, and suffixes from `*.example.com` (any subdomain, not the apex). */
export interface HostList {
  readonly exact: ReadonlySet<string>;
  readonly suffixes: readonly string[];
}

/** Compiles `domain_in` / `domain_not_in` entries (case-insensitive). */
export function hostList(entries: readonly string[]): HostList {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const e of entries) {
    const host = e.toLowerCase();
    if (host.startsWith('*.')) suffixes.push(host.slice(1));
    else exact.add(host);
  }
  return { exact, suffixes };
}

/** True when the host is on the list. */
export function listed(host: string, list: HostList): boolean {
  return list.exact.has(host) || list.suffixes.some((s) => host.endsWith(s));
}
