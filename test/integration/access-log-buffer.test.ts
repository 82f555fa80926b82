/**
 * The buffered access log (issue 20, item 2; src/server/log-destination.ts) in the real process: lines
 * are written in chunks, yet none is lost at SIGTERM, and under light traffic a line still reaches
 * stdout without waiting for the buffer to fill.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService, type ServiceProcess } from '../helpers/process.js';

/** The `request_id` of every JSON log line written so far. */
function loggedRequestIds(output: string): Set<string> {
  const ids = new Set<string>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    const id = (JSON.parse(line) as { request_id?: unknown }).request_id;
    if (typeof id === 'string') ids.add(id);
  }
  return ids;
}

describe('buffered access log', () => {
  const dirs: string[] = [];
  const start = (): Promise<ServiceProcess> => {
    const dir = mkdtempSync(join(tmpdir(), 'gov-log-'));
    dirs.push(dir);
    return startService({ DATA_DIR: dir, LOG_LEVEL: 'info', POOL_THREADS: '1' });
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('writes every access line of 300 requests by the end of a SIGTERM shutdown', async () => {
    const svc = await start();
    const sent: string[] = [];
    for (let i = 0; i < 300; i++) {
      const id = `buffered-${i}`;
      sent.push(id);
      // Unsigned reads: each is answered 401 and logged once, at warn, with its request id.
      const res = await fetch(`${svc.baseUrl}/api/public/v1/evaluations/e${i}`, { headers: { 'x-request-id': id } });
      assert.equal(res.status, 401);
      await res.arrayBuffer();
    }
    const closed = once(svc.child, 'close'); // every byte of stdout read, not only the exit
    const { code } = await svc.stop('SIGTERM');
    await closed;
    assert.equal(code, 0, svc.output);
    const logged = loggedRequestIds(svc.output);
    assert.deepEqual(
      sent.filter((id) => !logged.has(id)),
      [],
      'no line is lost at shutdown',
    );
  });

  it('writes a line of a lone request without waiting for the buffer to fill', async () => {
    const svc = await start();
    try {
      const res = await fetch(`${svc.baseUrl}/api/public/v1/evaluations/lone`, {
        headers: { 'x-request-id': 'lone-request' },
      });
      await res.arrayBuffer();
      // One line is far below the 4 KiB chunk: only the periodic flush writes it (a liveness wait, not a timing assertion).
      for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
        if (loggedRequestIds(svc.output).has('lone-request')) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(loggedRequestIds(svc.output).has('lone-request'), svc.output);
    } finally {
      await svc.stop('SIGTERM');
    }
  });
});
