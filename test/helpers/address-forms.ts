/** @module test/helpers/address-forms: literal addresses a webhook may not reach (with the range `addressRefusal` names) and some it may. */

/** Refused literals and the refused range (ipaddr.js names, plus 'ipv4Compatible' and 'notGlobalUnicast'). */
export const REFUSED_ADDRESSES: readonly (readonly [address: string, range: string])[] = [
  // IPv4-compatible ::/96 (ipaddr.js reports it as 'unicast'; the defect of issue 13 item 17)
  ['::7f00:1', 'ipv4Compatible'],
  ['::a00:1', 'ipv4Compatible'],
  ['::808:808', 'ipv4Compatible'],
  // ipaddr.js reads the dotted '::a.b.c.d' as '::ffff:a.b.c.d' (the URL parser says '::7f00:1'): refused either way
  ['::127.0.0.1', 'ipv4Mapped'],
  // IPv4-mapped, private and public alike
  ['::ffff:127.0.0.1', 'ipv4Mapped'],
  ['::ffff:7f00:1', 'ipv4Mapped'],
  ['::ffff:a9fe:a9fe', 'ipv4Mapped'],
  ['::ffff:8.8.8.8', 'ipv4Mapped'],
  ['::ffff:0:7f00:1', 'rfc6145'],
  // NAT64 (RFC 6052, RFC 8215), 6to4, Teredo
  ['64:ff9b::10.0.0.1', 'rfc6052'],
  ['64:ff9b::7f00:1', 'rfc6052'],
  ['64:ff9b::808:808', 'rfc6052'],
  ['64:ff9b:1::a00:1', 'rfc6052'],
  ['2002:7f00:1::', '6to4'],
  ['2002:c0a8:101::1', '6to4'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  // IPv6 special ranges and space outside 2000::/3
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['4000::1', 'notGlobalUnicast'],
  // IPv4 special ranges
  ['0.0.0.0', 'unspecified'],
  ['127.0.0.1', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
];

/** Global unicast literals every check accepts. */
export const ACCEPTED_ADDRESSES: readonly string[] = [
  '93.184.216.34',
  '8.8.8.8',
  '2606:4700::1111',
  '2a00:1450:4001:81c::200e',
];

/** The URL host for a literal (IPv6 in brackets). */
export const urlHost = (address: string): string => (address.includes(':') ? `[${address}]` : address);
