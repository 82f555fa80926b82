/** @module actors/webhooks/address-class: the one rule for which IP addresses a webhook may connect to (global unicast only). */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IANA IPv6 Address Space registry: only 2000::/3 is allocated as global unicast (RFC 4291 §2.4). */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** IPv4-compatible IPv6 (RFC 4291 §2.5.5.1, deprecated); ipaddr.js 2.x reports it as 'unicast'. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/**
 * Why `address` is not an acceptable webhook peer, or null when it is. Accepted: an IPv4 address
 * in ipaddr.js's 'unicast' range, or an IPv6 address in its 'unicast' range that lies in 2000::/3
 * and carries no IPv4 address. Everything else is refused, each answer naming the range:
 * - any ipaddr.js special range (its `SpecialRanges` tables, RFC 6890 and the RFCs cited there):
 *   'unspecified', 'broadcast', 'loopback', 'private' (RFC 1918), 'linkLocal' (169.254/16 with
 *   the cloud metadata endpoints, fe80::/10), 'carrierGradeNat' (RFC 6598), 'uniqueLocal'
 *   (RFC 4193), 'multicast', 'reserved' (documentation, benchmarking, 240/4...), 'as112', 'amt'...;
 * - IPv6 forms that embed an IPv4 address: 'ipv4Mapped' (::ffff:0:0/96, RFC 4291), 'ipv4Compatible'
 *   (::/96), 'rfc6145' (::ffff:0:0:0/96), 'rfc6052' (NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
 *   RFC 6052 / RFC 8215), '6to4' (2002::/16, RFC 3056), 'teredo' (2001::/32, RFC 4380). These are
 *   refused whatever IPv4 address they carry, public ones included: the stack, a NAT64 gateway or a
 *   tunnel may deliver them to that IPv4 address (often a private one), and a webhook receiver has
 *   no reason to be addressed that way (it can publish its plain IPv4 or native IPv6 address);
 * - 'notGlobalUnicast': other IPv6 outside 2000::/3 (reserved by the IETF);
 * - 'notAnAddress': anything `net.isIP` rejects (so ipaddr.js's lenient forms such as '0x7f.1' or
 *   '127.1', which the OS resolver may read differently, are never classified as public).
 * Note that ipaddr.js parses the dotted form '::a.b.c.d' as '::ffff:a.b.c.d'; both are refused, so
 * the mix-up cannot make an address acceptable. A zone id ('fe80::1%eth0') is allowed in the input.
 *
 * @param address an IPv4 or IPv6 address as text, without brackets.
 * @returns the refused range's name, or null for a global unicast address.
 */
export function addressRefusal(address: string): string | null {
  if (isIP(address) === 0) return 'notAnAddress';
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address);
  } catch {
    return 'notAnAddress';
  }
  const range: string = ip.range();
  if (range !== 'unicast') return range;
  if (ip instanceof ipaddr.IPv6) {
    if (ip.match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
    if (!ip.match(GLOBAL_UNICAST_V6)) return 'notGlobalUnicast';
  }
  return null;
}

/** True when `address` is global unicast (`addressRefusal(address) === null`). */
export function isGlobalUnicast(address: string): boolean {
  return addressRefusal(address) === null;
}
