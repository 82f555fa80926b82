/**
 * The container files (issue 19 §6, Container): Dockerfile, .dockerignore and the Compose files
 * parsed and checked for a pinned base, a multi-stage build with production dependencies only, a
 * non-root user, a HEALTHCHECK on /readyz, tini as PID 1 and no secrets on stdout. Docker is not
 * available where the tests run, so the image itself is not built here (docs/operations.md).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import yaml from 'js-yaml';
import { mayPrintFirstStartSecrets } from '../../src/server/bootstrap.js';
import { loadConfig } from '../../src/server/config.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** One Dockerfile instruction: keyword (upper case) and its arguments, continuation lines joined. */
interface Instruction {
  readonly op: string;
  readonly args: string;
}

function parseDockerfile(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue; // a comment inside a continued instruction
    pending += (pending ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (line.endsWith('\\')) continue;
    const m = /^(\S+)\s*(.*)$/.exec(pending);
    if (m) out.push({ op: m[1]!.toUpperCase(), args: m[2]! });
    pending = '';
  }
  return out;
}

const dockerfile = parseDockerfile(read('Dockerfile'));
/** The stages: instructions from each FROM to the next. */
const stages: Instruction[][] = [];
for (const ins of dockerfile) {
  if (ins.op === 'FROM') stages.push([]);
  stages.at(-1)?.push(ins);
}
const runtime = stages.at(-1) ?? [];
const argDefault = (name: string): string | undefined =>
  dockerfile.find((i) => i.op === 'ARG' && i.args.startsWith(`${name}=`))?.args.slice(name.length + 1);
const baseImage = argDefault('NODE_IMAGE') ?? '';

it('pins the base image to an exact Node.js 24 release on Debian trixie (slim), the one scripts/test-node24.sh proves', () => {
  const m = /^node:(24\.\d+\.\d+)-trixie-slim$/.exec(baseImage);
  assert.ok(m, `NODE_IMAGE=${baseImage}`);
  assert.match(
    read('scripts/test-node24.sh'),
    new RegExp(`NODE24_VERSION="\\$\\{NODE24_VERSION:-${m[1]!.replace(/\./g, '\\.')}\\}"`),
  );
  for (const from of dockerfile.filter((i) => i.op === 'FROM'))
    assert.match(from.args, /^\$\{NODE_IMAGE\} AS \w+$/, `FROM ${from.args}`);
});

it('builds in a stage with dev dependencies and runs in a later one with production dependencies only', () => {
  assert.ok(stages.length >= 2, 'multi-stage');
  const run = (stage: Instruction[]) => stage.filter((i) => i.op === 'RUN').map((i) => i.args);
  assert.ok(
    run(stages[0]!).some((r) => /npm ci\b/.test(r) && !/--omit=dev/.test(r)),
    'the build stage installs dev dependencies',
  );
  assert.ok(run(stages[0]!).some((r) => /npm run build/.test(r)));
  const installs = run(runtime).filter((r) => /npm (ci|install)\b/.test(r));
  assert.ok(installs.length > 0 && installs.every((r) => /npm ci --omit=dev\b/.test(r)), installs.join(' / '));
  for (const copy of runtime.filter((i) => i.op === 'COPY' && i.args.includes('--from=')))
    assert.doesNotMatch(copy.args, /node_modules/, 'no dev dependencies copied from the build stage');
});

it('runs as a non-root user, with tini as PID 1 and NODE_ENV=production', () => {
  const users = runtime.filter((i) => i.op === 'USER').map((i) => i.args.trim());
  assert.ok(users.length > 0, 'USER set in the runtime stage');
  assert.doesNotMatch(users.at(-1)!, /^(root|0)(:.*)?$/);
  const entrypoint = runtime.filter((i) => i.op === 'ENTRYPOINT').at(-1);
  assert.deepEqual(JSON.parse(entrypoint?.args ?? 'null'), ['/usr/bin/tini', '--']);
  assert.ok(
    runtime.some((i) => i.op === 'RUN' && /apt-get install\b.*\btini\b/.test(i.args)),
    'tini from Debian',
  );
  const cmd = JSON.parse(runtime.filter((i) => i.op === 'CMD').at(-1)?.args ?? 'null') as string[];
  assert.equal(cmd[0], 'node', 'exec form: tini signals node directly, no shell in between');
  assert.ok(runtime.some((i) => i.op === 'ENV' && /\bNODE_ENV=production\b/.test(i.args)));
});

it('checks health on /readyz of the operators listener at its configured port', () => {
  const hc = runtime.filter((i) => i.op === 'HEALTHCHECK');
  assert.equal(hc.length, 1);
  assert.match(hc[0]!.args, /\bCMD \[/);
  assert.match(hc[0]!.args, /http:\/\/127\.0\.0\.1:' \+ \(process\.env\.METRICS_PORT \|\| (\d+)\) \+ '\/readyz'/);
  const port = /METRICS_PORT \|\| (\d+)/.exec(hc[0]!.args)?.[1];
  assert.equal(Number(port), loadConfig({}).metricsPort, 'the default operators port');
  assert.ok(runtime.some((i) => i.op === 'ENV' && /\bMETRICS_HOST=0\.0\.0\.0\b/.test(i.args)));
});

it('keeps dependencies, build output, .git, data and measurements out of the build context', () => {
  const entries = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const covers = (path: string) => entries.some((e) => e === path || e === `**/${path}`);
  for (const path of ['node_modules', 'dist', '.git', 'data', 'cluster-data', 'bench/results', '.env', 'console/dist'])
    assert.ok(covers(path), path);
});

it('prints the first-start secrets only to a terminal outside production (the image sets NODE_ENV=production)', () => {
  assert.equal(mayPrintFirstStartSecrets(true, 'production'), false);
  assert.equal(mayPrintFirstStartSecrets(false, undefined), false);
  assert.equal(mayPrintFirstStartSecrets(false, 'development'), false);
  assert.equal(mayPrintFirstStartSecrets(true, undefined), true);
});

interface ComposeService {
  readonly image?: string;
  readonly build?: unknown;
  readonly user?: string;
  readonly init?: boolean;
  readonly entrypoint?: unknown;
  readonly healthcheck?: { readonly test?: readonly string[]; readonly disable?: boolean };
}

for (const file of ['docker-compose.yml', 'docker-compose.cluster.yml'])
  it(`${file}: images pinned to exact versions, the service built from the Dockerfile, non-root, healthy on /readyz`, () => {
    const services = (yaml.load(read(file)) as { services: Record<string, ComposeService> }).services;
    let built = 0;
    for (const [name, s] of Object.entries(services)) {
      if (s.build !== undefined) {
        built++;
        assert.equal(s.build, '.', `${name} builds the Dockerfile`);
        assert.equal(s.user, undefined, `${name} keeps the image's non-root user`);
        assert.equal(s.entrypoint, undefined, `${name} keeps tini as PID 1`);
        assert.notEqual(s.init, true, `${name}: tini is already PID 1 (a second init would nest)`);
        assert.notEqual(s.healthcheck?.disable, true);
        if (s.healthcheck?.test) assert.ok(s.healthcheck.test.join(' ').includes('/readyz'), name);
        if (s.image !== undefined) assert.match(s.image, /:local$/, `${name} names its local build`);
      } else {
        // name:1.2.3 or name:v1.2.3 (Prometheus' style); never a moving tag such as 7, latest or lts.
        assert.match(s.image ?? '', /^[\w./-]+:v?\d+\.\d+\.\d+$/, `${name}: ${s.image}`);
      }
    }
    assert.ok(built > 0, 'the service itself is in the file');
  });
