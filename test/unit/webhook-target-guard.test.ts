/** The webhook target guard (SSRF, PITFALLS 28; issue 13 item 17): registration rules and connect-time blocking, over real loopback connections. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import {
  BlockedTargetError,
  guardedLookup,
  hostTargetError,
  isBlockedError,
  normalHost,
  targetProblem,
} from '../../src/actors/webhooks/target-guard.js';
import { sendWebhook } from '../../src/actors/webhooks/send.js';
import { ACCEPTED_ADDRESSES, REFUSED_ADDRESSES, urlHost } from '../helpers/address-forms.js';
import { startTcpSink, type TcpSink } from '../helpers/tcp-sink.js';

const GUARDED = { timeoutMs: 1000, allowPrivate: false };

it('refuses literal targets that are not global unicast at registration', () => {
  for (const [address] of REFUSED_ADDRESSES) {
    const url = `https://${urlHost(address)}/x`;
    assert.match(
      targetProblem(url, false) ?? '',
      /^must point to a public \(global unicast\) address, not \w+$/,
      address,
    );
    assert.equal(targetProblem(url, true), null, `${address} with WEBHOOK_ALLOW_PRIVATE_TARGETS`);
  }
  assert.equal(
    targetProblem('https://[::127.0.0.1]/x', false),
    'must point to a public (global unicast) address, not ipv4Compatible',
  );
  for (const address of ACCEPTED_ADDRESSES)
    assert.equal(targetProblem(`https://${urlHost(address)}/x`, false), null, address);
});

it('keeps the other registration rules', () => {
  assert.equal(targetProblem('http://hooks.example.com/x', false), 'must use https');
  assert.equal(targetProblem('not a url', false), 'must be an absolute URL');
  assert.equal(targetProblem('https://user:pw@hooks.example.com/', false), 'must not contain credentials');
  assert.equal(targetProblem('https://localhost:8443/', false), 'must not point to a local host name');
  assert.equal(targetProblem('https://metadata.google.internal/', false), 'must not point to a local host name');
  assert.equal(targetProblem('https://hooks.example.com/x', false), null);
  assert.equal(targetProblem('http://127.0.0.1:9/x', true), null);
});

it('sees a name with trailing dots, in any case, as the name itself at registration and in the lookup hook', async () => {
  for (const url of [
    'https://localhost./h',
    'https://LOCALHOST../h',
    'https://api.localhost./h',
    'https://metadata.google.internal./h',
    'https://Metadata.Google.Internal../h',
  ])
    assert.equal(targetProblem(url, false), 'must not point to a local host name', url);
  assert.equal(targetProblem('https://./h', false), 'must have a host name');
  assert.equal(targetProblem('https://../h', false), 'must have a host name');
  assert.equal(targetProblem('https://hooks.example.com./x', false), null, 'an absolute public name');
  assert.equal(targetProblem('https://localhost./h', true), null, 'private targets allowed');
  assert.equal(normalHost('[::1]'), '::1');
  assert.equal(normalHost('Hooks.Example.COM..'), 'hooks.example.com');
  // At connect time the same names are refused before any DNS query (an endpoint stored before this rule).
  for (const host of ['metadata.google.internal.', 'localhost..', 'api.localhost.']) {
    assert.equal(hostTargetError(new URL(`https://${host}/h`), true), null, 'private targets allowed');
    const r = await sendWebhook(`https://${host}:9/h`, {}, '{}', GUARDED);
    assert.equal(r.blocked, true, `${host}: ${r.error}`);
    assert.equal(r.error, `blocked: ${host} is a local host name`);
  }
  assert.equal(hostTargetError(new URL('https://hooks.example.com./x'), false), null, 'left to the lookup hook');
});

it('blocks every refused literal at connect time, without a connection', async () => {
  const results = await Promise.all(
    REFUSED_ADDRESSES.map(([address]) => sendWebhook(`https://${urlHost(address)}:9/x`, {}, '{}', GUARDED)),
  );
  results.forEach((r, i) => {
    const address = REFUSED_ADDRESSES[i]![0];
    assert.equal(r.blocked, true, address);
    assert.equal(r.statusCode, null, address);
    assert.match(r.error ?? '', /^blocked: .* is not a global unicast address \(\w+\)$/, address);
  });
});

it('refuses a host name that resolves to a non-public address in the lookup hook', async () => {
  const err = await new Promise<NodeJS.ErrnoException | null>((r) =>
    guardedLookup(false)('localhost', {}, (e) => r(e)),
  );
  assert.ok(err instanceof BlockedTargetError);
  assert.equal(err.code, 'ERR_WEBHOOK_TARGET_BLOCKED');
  assert.equal(err.message, 'blocked: localhost resolves to a non-public address');
});

it("hands the lookup hook's error to the request unchanged, over http and https, with and without autoSelectFamily", async () => {
  for (const [scheme, request] of [
    ['http', httpRequest],
    ['https', httpsRequest],
  ] as const) {
    for (const autoSelectFamily of [true, false]) {
      const options = { method: 'POST', lookup: guardedLookup(false) as never, autoSelectFamily }; // passed on to net.connect (not in @types/node's RequestOptions)
      const err = await new Promise<unknown>((resolve) => {
        const req = request(`${scheme}://localhost:9/x`, options);
        req.on('error', resolve);
        req.end('{}');
      });
      assert.ok(isBlockedError(err), `${scheme}, autoSelectFamily ${autoSelectFamily}: ${String(err)}`);
    }
  }
});

it('recognises a blocked connection by class, not by its message or a look-alike code', () => {
  assert.equal(isBlockedError(new BlockedTargetError('x')), true);
  assert.equal(isBlockedError(new Error('blocked: 127.0.0.1 is not a global unicast address (loopback)')), false);
  assert.equal(isBlockedError(Object.assign(new Error('x'), { code: 'ERR_WEBHOOK_TARGET_BLOCKED' })), false);
  assert.equal(isBlockedError(null), false);
});

describe('a real loopback server behind refused targets', () => {
  let sink: TcpSink;
  before(async () => {
    sink = await startTcpSink();
  });
  after(() => sink.close());

  it('sees no connection from literal or named targets that reach it, and each attempt is blocked', async () => {
    const targets = [
      `http://127.0.0.1:${sink.port}/x`,
      `https://127.0.0.1:${sink.port}/x`,
      `https://[::ffff:127.0.0.1]:${sink.port}/x`,
      `http://[::ffff:7f00:1]:${sink.port}/x`,
      `http://0.0.0.0:${sink.port}/x`,
      `https://localhost:${sink.port}/x`,
      `http://localhost:${sink.port}/x`,
    ];
    const results = [];
    for (const url of targets)
      results.push(await sendWebhook(url, { 'webhook-id': 'msg_1' }, '{"secret":"payload"}', GUARDED));
    await new Promise((r) => setTimeout(r, 50)); // let a stray accept reach the server before counting
    assert.equal(sink.connections, 0, 'the server saw a connection');
    assert.equal(sink.bytes, 0);
    results.forEach((r, i) => {
      assert.match(r.error ?? '', /^blocked: /, targets[i]);
      assert.equal(r.blocked, true, targets[i]);
    });
  });

  it('is reached when WEBHOOK_ALLOW_PRIVATE_TARGETS allows it (the control)', async () => {
    const before = sink.connections;
    const r = await sendWebhook(`http://127.0.0.1:${sink.port}/x`, {}, '{}', { timeoutMs: 300, allowPrivate: true });
    assert.equal(r.blocked, false);
    assert.match(r.error ?? '', /timed out/, 'the sink never answers');
    assert.equal(sink.connections, before + 1);
    assert.ok(sink.bytes > 0);
  });
});
