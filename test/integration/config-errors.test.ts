/** The service refuses a bad configuration at start: exit status 1 and one line on stderr naming the variable (issue 19, section 6). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/server/main.js', import.meta.url));

/** Runs the service with `env` until it exits; resolves its exit code, stdout and stderr. */
function runService(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gov-config-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env['PATH'] ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        METRICS_PORT: '0',
        DATA_DIR: dataDir,
        BOOTSTRAP_DEMO: 'false',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += String(c)));
    child.stderr.on('data', (c) => (stderr += String(c)));
    child.on('error', reject);
    child.on('exit', (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
    // A service that started after all is stopped, and the test fails on its exit code.
    child.stdout.on('data', () => {
      if (stdout.includes('listening on')) child.kill('SIGTERM');
    });
  });
}

describe('configuration refused at start', () => {
  for (const [variable, value, accepted] of [
    ['BOOTSTRAP_DEMO', 'yes', 'true, false, 1 or 0'],
    ['LOG_LEVEL', 'verbose', 'one of fatal, error, warn, info, debug, trace, silent'],
    ['TRUSTED_PROXIES', '10.0.0.0/8,example.com', 'comma-separated IPv4 or IPv6 addresses or CIDRs'],
    ['LMDB_MAP_SIZE', '100', 'an integer from 16777216 to 1099511627776'],
  ] as const)
    it(`exits 1 with one stderr line naming ${variable} and its accepted values`, async () => {
      const { code, stdout, stderr } = await runService({ [variable]: value });
      assert.equal(code, 1, `stdout: ${stdout}\nstderr: ${stderr}`);
      const lines = stderr.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, stderr);
      assert.ok(lines[0]!.startsWith(`Configuration error: ${variable}=`), lines[0]);
      assert.ok(lines[0]!.includes(accepted), lines[0]);
      assert.equal(stdout, '');
    });
});
