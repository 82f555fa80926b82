/**
 * Data at rest (issue 13, items 15 and 16): DATA_DIR is created 0700 with the store's files 0600,
 * a DATA_DIR that group or others can read is refused with a clear message, and the first-start
 * credentials reach a terminal but never a pipe.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startService } from '../helpers/process.js';
import { openStore } from '../../src/store/open.js';
import { DataDirPermissionError } from '../../src/store/data-dir.js';

const MAIN = fileURLToPath(new URL('../../src/server/main.js', import.meta.url));
const mode = (path: string) => statSync(path).mode & 0o777;

describe('data at rest', () => {
  const root = mkdtempSync(join(tmpdir(), 'gov-rest-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('creates a missing DATA_DIR 0700 and the store, secrets and credentials files 0600', async () => {
    const dataDir = join(root, 'fresh', 'data');
    const svc = await startService({ DATA_DIR: dataDir, BOOTSTRAP_DEMO: 'true' });
    try {
      assert.equal(mode(dataDir), 0o700);
      assert.equal(mode(join(root, 'fresh')), 0o700, 'missing parents too');
      for (const file of ['gov.mdb', 'gov.mdb-lock', 'rate.mdb', 'rate.mdb-lock', 'secrets.json', 'bootstrap.json'])
        assert.equal(mode(join(dataDir, file)), 0o600, file);
    } finally {
      await svc.stop('SIGTERM');
    }
  });

  it('refuses to start on a DATA_DIR that group or others can read, saying how to fix it; the store refuses it too', () => {
    const dataDir = join(root, 'open');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    const run = spawnSync(process.execPath, [MAIN], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        METRICS_PORT: '0',
        BOOTSTRAP_DEMO: 'false',
        LOG_LEVEL: 'silent',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /DATA_DIR .*open has mode 0755: group and others must have no access/);
    assert.match(run.stderr, /chmod 700/);
    assert.deepEqual(spawnSync('ls', ['-A', dataDir], { encoding: 'utf8' }).stdout, '', 'nothing was written to it');
    assert.throws(() => openStore(dataDir), DataDirPermissionError);
    chmodSync(dataDir, 0o750);
    assert.throws(() => openStore(dataDir), DataDirPermissionError, 'group read is refused too');
  });

  it('prints the first-start API key and signing secret to a terminal only, never to a pipe', async () => {
    const piped = join(root, 'piped');
    const svc = await startService({ DATA_DIR: piped, BOOTSTRAP_DEMO: 'true', LOG_LEVEL: 'info' });
    await svc.stop('SIGTERM');
    const output = svc.output;
    const creds = JSON.parse(readFileSync(join(piped, 'bootstrap.json'), 'utf8')) as {
      api_key: string;
      signing_secret: string;
      console: { password: string };
    };
    assert.ok(!output.includes(creds.api_key), 'no API key on a pipe');
    assert.ok(!output.includes(creds.console.password), "no console owner's password on a pipe");
    assert.ok(!output.includes(creds.signing_secret), 'no signing secret on a pipe');
    assert.ok(output.includes(join(piped, 'bootstrap.json')), 'the credentials file is named');

    // Under a pseudo-terminal (util-linux `script`) the banner shows them once.
    const tty = join(root, 'tty');
    const shown = await new Promise<string>((resolve) => {
      const cmd = `${process.execPath} ${MAIN}`;
      const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
        env: {
          ...process.env,
          DATA_DIR: tty,
          PORT: '0',
          METRICS_PORT: '0',
          BOOTSTRAP_DEMO: 'true',
          LOG_LEVEL: 'silent',
        },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const stop = (signal: NodeJS.Signals): void => {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          /* already gone */
        }
      };
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += String(c);
        if (out.includes('listening on')) stop('SIGTERM');
      });
      child.on('exit', () => resolve(out));
      setTimeout(() => stop('SIGKILL'), 20_000).unref();
    });
    const ttyCreds = JSON.parse(readFileSync(join(tty, 'bootstrap.json'), 'utf8')) as {
      api_key: string;
      signing_secret: string;
    };
    assert.ok(shown.includes(ttyCreds.api_key), 'the banner shows the key on a terminal');
    assert.ok(shown.includes(ttyCreds.signing_secret));
  });
});
