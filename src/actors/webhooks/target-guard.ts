/**
 * @module actors/webhooks/target-guard: SSRF protection for webhook targets (PITFALLS 28). Targets
 * must be https and may connect only to global unicast addresses (`addressRefusal`). The address is
 * checked at registration when the URL holds a literal, and at every connection for every target:
 * the literal itself and the local-name rules before connecting, a name's resolved addresses in the
 * `lookup` hook (DNS rebinding), and the connected peer once more (`guardPeer`). Every check sees the
 * host as `normalHost` makes it (lower case, no trailing dots). Redirects are never followed.
 * `WEBHOOK_ALLOW_PRIVATE_TARGETS=true` turns all of this off: any address and plain http (tests, on-premise).
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type Socket } from 'node:net';
import { addressRefusal } from './address-class.js';

/**
 * The error of every connection this module refuses (literal, lookup and peer checks). Node hands
 * it on unchanged (from the `lookup` callback and from `socket.destroy(err)`) to the request's
 * `error` event, where `isBlockedError` recognises it by class. Its message ("blocked: ...") names
 * the address and its range, never a secret.
 */
export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_BLOCKED';
  /** @param reason why the address is refused, e.g. "127.0.0.1 is not a global unicast address (loopback)". */
  constructor(reason: string) {
    super(`blocked: ${reason}`);
    this.name = 'BlockedTargetError';
  }
}

/** True for an error raised by this module's connect-time checks (by class, never by message). */
export function isBlockedError(err: unknown): err is BlockedTargetError {
  return err instanceof BlockedTargetError;
}

/**
 * A host as every check sees it, at registration and at connect time alike: IPv6 brackets removed
 * ('[::1]' → '::1'), lower case, trailing dots dropped ('LOCALHOST..' → 'localhost'). A name with a
 * trailing dot is the same name made absolute (RFC 1034 §3.1): 'localhost.' and
 * 'metadata.google.internal.' must meet the rules of 'localhost' and 'metadata.google.internal'.
 */
export function normalHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

/** The URL's host as the checks see it (`normalHost`). */
export function targetHost(u: URL): string {
  return normalHost(u.hostname);
}

/**
 * Why a (normalised) host name is refused whatever it resolves to, or null: no name at all ('.'),
 * 'localhost' and '*.localhost' (RFC 6761 §6.3), '*.internal' (cloud metadata and private names).
 */
function localNameProblem(host: string): string | null {
  if (host === '') return 'must have a host name';
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.internal'))
    return 'must not point to a local host name';
  return null;
}

/**
 * Why a target URL is refused at registration, or null. Rules: an absolute URL without credentials;
 * `https` (plain `http` only when `allowPrivate`); a literal address must be global unicast
 * (`addressRefusal`); 'localhost', '*.localhost' (RFC 6761) and '*.internal' are refused, with or
 * without trailing dots and in any case (`normalHost`). Host names are checked again at every
 * connection (`guardedLookup`). With `allowPrivate` only the URL shape and the credentials rule apply.
 * @returns a message for the 422 field error at `/url`, or null.
 */
export function targetProblem(url: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'must be an absolute URL';
  }
  if (u.username || u.password) return 'must not contain credentials';
  if (u.protocol !== 'https:' && !(allowPrivate && u.protocol === 'http:')) return 'must use https';
  if (allowPrivate) return null;
  const host = targetHost(u);
  if (isIP(host) !== 0) {
    const range = addressRefusal(host);
    return range === null ? null : `must point to a public (global unicast) address, not ${range}`;
  }
  return localNameProblem(host);
}

/**
 * The connect-time check of the URL's host, before connecting, on the host registration checked
 * (`targetHost`): a literal must be global unicast (Node connects to an IP literal directly and never
 * calls `lookup` for it), and a name must not be one registration refuses ('localhost.',
 * 'metadata.google.internal.', '.': an endpoint stored before these rules, or a rule added since,
 * is refused before any DNS query). Other names return null here and are checked by `guardedLookup`.
 * @returns a `BlockedTargetError`, or null (always null when `allowPrivate`).
 */
export function hostTargetError(u: URL, allowPrivate: boolean): BlockedTargetError | null {
  if (allowPrivate) return null;
  const host = targetHost(u);
  if (isIP(host) === 0)
    return localNameProblem(host) === null
      ? null
      : new BlockedTargetError(`${u.hostname || '(none)'} is a local host name`);
  const range = addressRefusal(host);
  return range === null ? null : new BlockedTargetError(`${host} is not a global unicast address (${range})`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that keeps only global unicast addresses (unless `allowPrivate`).
 * The socket connects to an address this hook returned, so the checked address is the one used.
 * Fails with a `BlockedTargetError` when no address is left. The name is resolved as given: dropping
 * a trailing dot would make it relative, subject to the resolver's search list.
 */
export function guardedLookup(allowPrivate: boolean) {
  return function lookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const list = addresses;
      const allowed = allowPrivate ? list : list.filter((a) => addressRefusal(a.address) === null);
      if (allowed.length === 0)
        return callback(new BlockedTargetError(`${hostname} resolves to a non-public address`), []);
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}

/**
 * Checks the peer a socket actually connected to and destroys the socket with a `BlockedTargetError`
 * when it is not global unicast. Defence in depth behind `hostTargetError` and
 * `guardedLookup`, which already stop a refused connection before it is made: this one catches any
 * path that bypasses them (an agent or proxy that resolves by itself, a change in Node). Attach it
 * before anything is written: its `connect` listener then runs before the socket's queued writes,
 * so no request byte reaches a refused peer (a TLS socket's ClientHello may; the HTTP request waits
 * for the handshake). A socket already connected (kept alive) is checked at once.
 */
export function guardPeer(socket: Socket, onRefused: (err: BlockedTargetError) => void): void {
  const check = () => {
    const peer = socket.remoteAddress ?? '';
    const range = addressRefusal(peer);
    if (range === null) return;
    const err = new BlockedTargetError(
      `connected peer ${peer || '(unknown)'} is not a global unicast address (${range})`,
    );
    socket.destroy(err);
    onRefused(err);
  };
  if (socket.connecting) socket.once('connect', check);
  else if (!socket.destroyed) check();
}
