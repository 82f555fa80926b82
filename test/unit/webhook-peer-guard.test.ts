/** The last connect-time check of the webhook target guard: the connected peer itself, before anything queued is written. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { BlockedTargetError, guardPeer } from '../../src/actors/webhooks/target-guard.js';
import { startTcpSink } from '../helpers/tcp-sink.js';

it('destroys a socket connected to a non-public peer before its queued bytes are written', async () => {
  const sink = await startTcpSink();
  try {
    const socket = connect(sink.port, '127.0.0.1');
    const refused = new Promise<BlockedTargetError>((r) => guardPeer(socket, r));
    socket.on('error', () => undefined);
    socket.write('POST /x HTTP/1.1\r\n\r\n'); // queued while connecting, as http.request does
    const err = await refused;
    assert.ok(err instanceof BlockedTargetError);
    assert.equal(err.message, 'blocked: connected peer 127.0.0.1 is not a global unicast address (loopback)');
    assert.equal(socket.destroyed, true);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(sink.bytes, 0, 'no byte reached the peer');
  } finally {
    await sink.close();
  }
});

it('checks a socket that is already connected (kept alive) at once', async () => {
  const sink = await startTcpSink();
  try {
    const socket = connect(sink.port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    const err = await new Promise<BlockedTargetError>((r) => guardPeer(socket, r));
    assert.ok(err instanceof BlockedTargetError);
    assert.equal(socket.destroyed, true);
  } finally {
    await sink.close();
  }
});

it('stops an http.request whose lookup was bypassed before any request byte is written', async () => {
  const sink = await startTcpSink();
  try {
    const unguarded = (_h: string, o: { all?: boolean }, cb: (...a: unknown[]) => void) =>
      o.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4);
    const err = await new Promise<Error>((resolve) => {
      const req = request(`http://hooks.test:${sink.port}/x`, { method: 'POST', lookup: unguarded as never });
      req.on('socket', (socket) => guardPeer(socket, (e) => req.destroy(e)));
      req.on('error', resolve);
      req.end('{"secret":"payload"}');
    });
    assert.ok(err instanceof BlockedTargetError, "the request's error is the guard's own object");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(sink.connections, 1, 'the check runs on the connected socket');
    assert.equal(sink.bytes, 0, 'no request byte reached the peer');
  } finally {
    await sink.close();
  }
});
