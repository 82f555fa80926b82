/**
 * scripts/run-built.mjs, the launcher of `npm run admin`, `demo`, `scan` and `precision` (issue 30):
 * it builds only when a source changed since its last build, never on a call that finds the build
 * fresh, with its build output on stderr so that `--json` output stays one JSON object; a failed
 * build runs nothing and is tried again. Run on a small project of the same layout (the launcher, a
 * `tsconfig.json` and `packages/sdk/tsconfig.json`, an entry under `src/cli/`) in a temporary
 * directory: each build takes about a second, and never touches the dist/ other tests run from.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BUILDING = /run-built: building \(tsc -p tsconfig\.json\)/;
const COMPILER = {
  target: 'ES2022',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  lib: ['ES2022'],
  strict: true,
  types: [],
  skipLibCheck: true,
};

describe('scripts/run-built.mjs (npm run admin, demo, scan, precision)', () => {
  let project: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), text);
  };
  /** `node scripts/run-built.mjs dist/src/cli/orgs.js <name>` in the project, as `npm run admin` runs it. */
  const run = (name: string, entry = 'dist/src/cli/orgs.js') => {
    const r = spawnSync(process.execPath, ['scripts/run-built.mjs', entry, name], { cwd: project, encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  /** Asserts that a call succeeded and printed exactly one JSON object on stdout, naming `name`. */
  const printed = (r: ReturnType<typeof run>, name: string) => {
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 1, `one JSON object on stdout, got: ${r.stdout}`);
    assert.equal((JSON.parse(lines[0]!) as { name: string }).name, name);
  };
  const built = () => join(project, 'dist', 'src', 'cli', 'format.js');
  const source = () => join(project, 'src', 'cli', 'format.ts');

  before(() => {
    project = mkdtempSync(join(tmpdir(), 'gov-run-built-'));
    cpSync(join(ROOT, 'scripts', 'run-built.mjs'), join(project, 'scripts', 'run-built.mjs'));
    symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
    write('package.json', JSON.stringify({ type: 'module', private: true }));
    write(
      'tsconfig.json',
      JSON.stringify({ compilerOptions: { ...COMPILER, outDir: 'dist', rootDir: '.' }, include: ['src/**/*.ts'] }),
    );
    write(
      'packages/sdk/tsconfig.json',
      JSON.stringify({ compilerOptions: { ...COMPILER, outDir: 'dist', rootDir: 'src' }, include: ['src/**/*.ts'] }),
    );
    write('packages/sdk/src/index.ts', 'export const sdk = 1;\n');
    write('src/cli/format.ts', 'export const format = (name: string): string => JSON.stringify({ name });\n');
    write(
      'src/cli/orgs.ts',
      "import { format } from './format.js';\n// The launcher gives the entry process.argv as `node <entry> [args...]`.\nconsole.log(format(process.argv[2] ?? ''));\n",
    );
    // The entry's globals, declared here rather than with @types/node and the DOM library: builds of a second.
    write(
      'src/globals.d.ts',
      'declare const process: { argv: string[] };\ndeclare const console: { log(line: string): void };\n',
    );
  });
  after(() => rmSync(project, { recursive: true, force: true }));

  it('builds a tree it never built, then runs the command; its stdout is the JSON object alone', () => {
    const r = run('First');
    assert.match(r.stderr, /run-built: dist\/src\/cli\/orgs\.js is not built yet/);
    assert.match(r.stderr, /run-built: building \(tsc -p packages\/sdk\/tsconfig\.json\)/);
    assert.match(r.stderr, BUILDING);
    printed(r, 'First');
  });

  it('does not build again while no source changed', () => {
    const before = statSync(built()).mtimeMs;
    const r = run('Second');
    assert.doesNotMatch(r.stderr, /run-built/, 'not a line of the launcher: nothing was built');
    printed(r, 'Second');
    assert.equal(statSync(built()).mtimeMs, before, 'the built file was not written again');
  });

  it('builds again after a source changed, and once only', () => {
    writeFileSync(source(), `${readFileSync(source(), 'utf8')}// changed by the run-built test\n`);
    const r = run('Third');
    assert.match(r.stderr, /run-built: src\/cli\/format\.ts changed since the last build/);
    assert.match(r.stderr, BUILDING);
    printed(r, 'Third');
    assert.match(readFileSync(built(), 'utf8'), /changed by the run-built test/, 'the change is built');
    const again = run('Fourth');
    assert.doesNotMatch(again.stderr, /run-built/);
    printed(again, 'Fourth');
  });

  it('does not run the command when the build fails, and tries again on the next call', () => {
    const good = readFileSync(source(), 'utf8');
    writeFileSync(source(), `${good}export const broken: number = 'not a number';\n`);
    const failed = run('Never');
    assert.equal(failed.status, 2);
    assert.equal(failed.stdout, '', 'the command did not run');
    assert.match(failed.stderr, /error TS2322/);
    assert.match(failed.stderr, /run-built: the build failed/);
    writeFileSync(source(), good);
    const fixed = run('Fifth');
    assert.match(fixed.stderr, BUILDING, 'the failed build was not recorded as a build');
    printed(fixed, 'Fifth');
  });

  it('builds nothing after `npm run build` recorded its build (--record)', () => {
    writeFileSync(source(), `${readFileSync(source(), 'utf8')}// built by npm run build\n`);
    const tsc = join(project, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const tsconfig of ['packages/sdk/tsconfig.json', 'tsconfig.json'])
      assert.equal(spawnSync(process.execPath, [tsc, '-p', tsconfig], { cwd: project }).status, 0);
    assert.equal(spawnSync(process.execPath, ['scripts/run-built.mjs', '--record'], { cwd: project }).status, 0);
    const r = run('Sixth');
    assert.doesNotMatch(r.stderr, /run-built/, 'the recorded build is fresh');
    printed(r, 'Sixth');
  });

  it('exits 2 when the build does not produce the entry', () => {
    const r = run('x', 'dist/src/cli/no-such-entry.js');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /the build did not produce dist\/src\/cli\/no-such-entry\.js/);
  });

  it('is how package.json runs admin, demo, scan and precision, on entries the build produces', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const [name, entry] of [
      ['admin', 'dist/src/cli/admin.js'],
      ['demo', 'dist/src/client/demo.js'],
      ['scan', 'dist/src/cli/gov.js'],
      ['precision', 'dist/src/cli/precision.js'],
    ] as const) {
      assert.match(scripts[name] ?? '', new RegExp(`^node scripts/run-built\\.mjs ${entry.replace(/\./g, '\\.')}\\b`));
      assert.equal(scripts[`pre${name}`], undefined, `no pre${name}: it would build every time`);
      statSync(join(ROOT, entry));
    }
    assert.match(
      scripts['build'] ?? '',
      /&& node scripts\/run-built\.mjs --record$/,
      'npm run build records its build',
    );
  });
});
