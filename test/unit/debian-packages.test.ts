/**
 * scripts/lib/debian-packages.sh (issue 30: `npm test` says what it installs): one line per package
 * before apt-get runs, then apt-get installs exactly those packages; apt-get's failure is reported.
 * apt-get, id and sudo are stand-ins on PATH (this machine's packages are never touched).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const LIB = fileURLToPath(new URL('../../../scripts/lib/debian-packages.sh', import.meta.url));

/** Runs install_debian_packages with stand-ins: apt-get records its calls (and exits `aptExit` on install). */
function install(aptExit: number, ...packages: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'debian-packages-'));
  const calls = join(dir, 'calls');
  const stub = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  stub('apt-get', `echo "apt-get $*" >> ${calls}; [ "$1" = install ] && exit ${aptExit}; exit 0`);
  stub('id', 'echo 0');
  const r = spawnSync(
    'bash',
    ['-c', `. "${LIB}"; install_debian_packages probe "the tests need it" "$@"`, 'x', ...packages],
    {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${dir}:${process.env['PATH'] ?? ''}`, POLICY_RC_D: join(dir, 'policy-rc.d') },
    },
  );
  const result = {
    code: r.status,
    lines: r.stdout.trim().split('\n'),
    calls: existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [],
    policyLeft: existsSync(join(dir, 'policy-rc.d')),
  };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

describe('install_debian_packages', () => {
  it('says which package it installs and why, one line each, then installs exactly those', () => {
    const r = install(0, 'redis-server', 'chromium');
    assert.equal(r.code, 0);
    assert.deepEqual(r.lines, [
      'installing Debian package redis-server (the tests need it)',
      'installing Debian package chromium (the tests need it)',
    ]);
    assert.deepEqual(r.calls, [
      'apt-get update -qq',
      'apt-get install -y -qq --no-install-recommends redis-server chromium',
    ]);
    assert.equal(r.policyLeft, false, 'the services policy is removed again');
  });

  it("reports apt-get's failure and returns its status", () => {
    const r = install(100, 'wrk');
    assert.equal(r.code, 100);
    assert.equal(r.lines[0], 'installing Debian package wrk (the tests need it)');
    assert.match(r.lines[1]!, /^apt-get exit 100; see \/tmp\/ensure-probe\.log$/);
  });
});
