/** The SDK's request signature against the design notes' test vectors, and the signer's replay avoidance. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RequestSigner, signRequest } from '@gov/sdk';
import { signRequest as serverReference } from '../../src/client/client.js';

const SECRET = 'gov_sig_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

describe('SDK request signing (design notes "Signature test vectors")', () => {
  it('matches both vectors of the design notes', () => {
    assert.equal(
      signRequest(SECRET, 1767225600, 'POST', '/api/public/v1/evaluate', '{"scenario_ids":["4417"]}'),
      't=1767225600,v1=feaff0713b7c4b7d8aa1fd5122f6392a1e4f21949363fb01b7777589dac67971',
    );
    assert.equal(
      signRequest(SECRET, 1767225600, 'get', '/api/public/v1/evaluations/7d3f0c52-1111-4c1e-9a53-0c3f5a1b2c3d?n=1'),
      't=1767225600,v1=b235d26d4214e2d735cf7f7a0b6690e8812050830dd752dc41af5ef6636cec31',
    );
  });

  it('signs bytes like the reference client of the server package', () => {
    const body = Buffer.from('{"blueprint":{"name":"Zürich"}}');
    assert.equal(
      signRequest(SECRET, 1767225601, 'POST', '/api/public/v1/evaluate/inline', body),
      serverReference(SECRET, 1767225601, 'POST', '/api/public/v1/evaluate/inline', body),
    );
  });

  it('never repeats a non-GET signature within a second (the server refuses a replay); GETs may repeat', () => {
    const now = 1767225600_000;
    const a = new RequestSigner(SECRET, () => now);
    const b = new RequestSigner(SECRET, () => now);
    const post = [a, a, b].map((s) => s.sign('POST', '/api/public/v1/evaluate', '{"scenario_ids":["x1"]}'));
    assert.deepEqual(
      post.map((v) => v.slice(0, 12)),
      ['t=1767225600', 't=1767225601', 't=1767225602'],
    );
    assert.equal(new Set(post).size, 3);
    const get = [a, a].map((s) => s.sign('GET', '/api/public/v1/evaluations/x', ''));
    assert.equal(get[0], get[1]);
  });
});
