/** PUBLIC_BASE_URL (issue 19): the served OpenAPI document's `servers`, validated as an origin at start. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { openApiDocument } from '../../src/server/openapi/document.js';

describe('PUBLIC_BASE_URL', () => {
  it('becomes the origin of the one server of the document; unset names the local service', () => {
    const config = loadConfig({ PUBLIC_BASE_URL: 'https://gov.example.com:8443/' });
    assert.equal(config.publicBaseUrl, 'https://gov.example.com:8443');
    assert.deepEqual((openApiDocument({ publicBaseUrl: config.publicBaseUrl }) as { servers: unknown }).servers, [
      { url: 'https://gov.example.com:8443', description: 'This deployment' },
    ]);
    assert.equal(loadConfig({}).publicBaseUrl, null);
    assert.deepEqual((openApiDocument() as { servers: { url: string }[] }).servers[0]!.url, 'http://127.0.0.1:8080');
  });

  it('refuses anything but an http(s) origin, naming the variable', () => {
    for (const bad of ['gov.example.com', 'ftp://gov.example.com', 'https://gov.example.com/api', 'https://x/?a=1'])
      assert.throws(
        () => loadConfig({ PUBLIC_BASE_URL: bad }),
        (e: unknown) => e instanceof ConfigError && /PUBLIC_BASE_URL/.test(e.message),
        bad,
      );
  });
});
