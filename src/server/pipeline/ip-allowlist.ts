/** @module server/pipeline/ip-allowlist: per-key IP allowlists, IPv4 and IPv6 CIDRs (spec §5.4). */
import type { Stage } from './types.js';
import type { CidrList } from './client-address.js';
import { API_ERRORS } from '../errors.js';
import { fail } from '../http/envelope.js';
import { clientAddress, inCidrs, parseCidrs } from './client-address.js';

/** 403 `IP address not allowed` when the key has an allowlist and the client address is outside it. */
export function ipAllowlist(trustedProxies: CidrList): Stage {
  const compiled = new Map<string, CidrList>();
  return function checkIpAllowlist(req, ctx) {
    const key = ctx.key!;
    if (key.allow_ips.length === 0) return null;
    ctx.clientIp = clientAddress(req.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
    const cacheKey = key.allow_ips.join(',');
    let cidrs = compiled.get(cacheKey);
    if (!cidrs) {
      try {
        cidrs = parseCidrs(key.allow_ips);
      } catch {
        cidrs = []; // an unparsable stored list allows nobody
      }
      compiled.set(cacheKey, cidrs);
    }
    return inCidrs(ctx.clientIp, cidrs) ? null : fail(API_ERRORS.ipNotAllowed);
  };
}
