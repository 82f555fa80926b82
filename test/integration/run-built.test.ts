/**
 * `npm run admin` through scripts/run-built.mjs (issue 30): it builds only when a source changed
 * since its last build, never on a call that finds the build fresh, its build output on stderr so
 * that `--json` output stays one JSON object. Run in a private copy of the project in a temporary
 * directory, so that its builds never touch the dist/ other tests run from.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILDING = /run-built: building \(tsc -p tsconfig\.json\)/;

describe('scripts/run-built.mjs (npm run admin, demo, scan, precision)', () => {
  let copy: string;
  let dataDir: string;
  /** `npm run -s admin -- orgs create --name <name> --json` in the copy. */
  const admin = (name: string) => {
    const r = spawnSync('npm', ['run', '-s', 'admin', '--', 'orgs', 'create', '--name', name, '--json'], {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, DATA_DIR: dataDir, npm_config_update_notifier: 'false' },
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  /** Asserts that a call succeeded and printed exactly one JSON object on stdout, the new organization. */
  const created = (r: ReturnType<typeof admin>, name: string) => {
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1, `one JSON object on stdout, got: ${r.stdout}`);
    assert.equal((JSON.parse(lines[0]!) as { name: string }).name, name);
  };
  const built = () => join(copy, 'dist', 'src', 'cli', 'admin-output.js');
  const source = () => join(copy, 'src', 'cli', 'admin-output.ts');

  before(() => {
    copy = mkdtempSync(join(tmpdir(), 'gov-run-built-'));
    dataDir = mkdtempSync(join(tmpdir(), 'gov-run-built-data-'));
    for (const path of ['src', 'test', 'bench', 'scripts', 'package.json', 'package-lock.json'])
      cpSync(join(ROOT, path), join(copy, path), {
        recursive: true,
        filter: (from) => !from.startsWith(join(ROOT, 'bench', 'results')),
      });
    mkdirSync(join(copy, 'packages', 'sdk'), { recursive: true });
    for (const path of ['src', 'dist', 'tsconfig.json', 'package.json'])
      cpSync(join(ROOT, 'packages', 'sdk', path), join(copy, 'packages', 'sdk', path), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    // The project's compiler options, its roots src/ alone (what they import from test/ and bench/ is
    // compiled too): the copy's first build is from scratch, and the tests' 250 files would double it.
    const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8')) as { include: string[] };
    writeFileSync(join(copy, 'tsconfig.json'), JSON.stringify({ ...tsconfig, include: ['src/**/*.ts'] }));
  });
  after(() => {
    rmSync(copy, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds a tree that was never built, then runs the command; its stdout is the JSON object alone', () => {
    const r = admin('First');
    assert.match(r.stderr, /run-built: dist\/src\/cli\/admin\.js is not built yet/);
    assert.match(r.stderr, BUILDING);
    created(r, 'First');
  });

  it('does not build again while no source changed', () => {
    const before = statSync(built()).mtimeMs;
    const r = admin('Second');
    assert.doesNotMatch(r.stderr, /run-built/, 'not a line of the launcher: nothing was built');
    created(r, 'Second');
    assert.equal(statSync(built()).mtimeMs, before, 'the built file was not written again');
  });

  it('builds again after a source changed, and once only', () => {
    writeFileSync(source(), `${readFileSync(source(), 'utf8')}// changed by the run-built test\n`);
    const r = admin('Third');
    assert.match(r.stderr, /run-built: src\/cli\/admin-output\.ts changed since the last build/);
    assert.match(r.stderr, BUILDING);
    created(r, 'Third');
    assert.match(readFileSync(built(), 'utf8'), /changed by the run-built test/, 'the change is built');
    const again = admin('Fourth');
    assert.doesNotMatch(again.stderr, /run-built/);
    created(again, 'Fourth');
  });

  it('does not run the command when the build fails, and tries again on the next call', () => {
    const good = readFileSync(source(), 'utf8');
    writeFileSync(source(), `${good}export const broken: number = 'not a number';\n`);
    const failed = admin('Never');
    assert.equal(failed.status, 2);
    assert.equal(failed.stdout, '', 'the command did not run');
    assert.match(failed.stderr, /error TS2322/);
    assert.match(failed.stderr, /run-built: the build failed/);
    writeFileSync(source(), good);
    const fixed = admin('Fifth');
    assert.match(fixed.stderr, BUILDING, 'the failed build was not recorded as a build');
    created(fixed, 'Fifth');
  });
});
