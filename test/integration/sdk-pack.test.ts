/**
 * Issue 19, "done when": a fresh project installs the `@gov/sdk` tarball made by `npm pack` and completes
 * submit → poll → fetch with one call each against a real server; its TypeScript sees the shipped types.
 * Issue 30: the pack and install commands are the ones the SDK's README gives, read from its "Install" block.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importScenario } from '../../src/actors/scenarios.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { bp, m } from '../helpers/blueprints.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SDK_README = join(ROOT, 'packages/sdk/README.md');
/** What the README calls the path of the checkout in its install command. */
const CHECKOUT = '<checkout>';
const NPM_ENV = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};

/**
 * The commands of the README's "Install" section (its `sh` block: one per line, trailing comments
 * dropped), each as its words: `npm pack ...` run in the checkout, then `npm install <checkout>/<tarball>`.
 */
function readmeInstallCommands(): { pack: string[]; install: string[] } {
  const readme = readFileSync(SDK_README, 'utf8');
  const block = /## Install\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme);
  assert.ok(block, 'the README has an Install section with a sh block');
  const commands = block[1]!
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(/\s+/));
  assert.equal(commands.length, 2, `two commands: ${JSON.stringify(commands)}`);
  const [pack, install] = commands as [string[], string[]];
  assert.deepEqual(pack.slice(0, 2), ['npm', 'pack']);
  assert.deepEqual(install.slice(0, 2), ['npm', 'install']);
  return { pack, install };
}

/** The consumer: one call each, printing what it got as JSON. */
const APP = `import { GovernanceClient, GovernanceApiError } from '@gov/sdk';
const gov = new GovernanceClient({ baseUrl: process.env.GOV_URL, apiKey: process.env.GOV_KEY, signingSecret: process.env.GOV_SECRET });
const submitted = (await gov.submitEvaluation({ scenario_ids: ['pack-1', 'pack-2'] })).data;
const status = await gov.waitForEvaluation(submitted, { intervalsMs: [100] });
const results = await gov.results(submitted);
let refused = null;
try { await gov.getEvaluation('00000000-0000-4000-8000-000000000000'); } catch (err) { refused = err instanceof GovernanceApiError ? err.error : String(err); }
process.stdout.write(JSON.stringify({ status: status.status, results: results.status, scenarios: results.status === 'complete' ? results.scenarios.map((s) => s.scenario_id) : [], refused }));
`;

/** A typed consumer, checked with tsc against the installed declarations. */
const TYPED = `import { GovernanceClient, type ApiResult, type SubmitResult, type GovernanceApiError } from '@gov/sdk';
export async function submit(gov: GovernanceClient): Promise<string> {
  const res: ApiResult<SubmitResult> = await gov.submitEvaluation({ scenario_ids: ['a'] });
  return res.data.evaluation_id;
}
export const code = (e: GovernanceApiError): [number, string, number | undefined] => [e.status, e.error, e.retryAfter];
`;

describe('the @gov/sdk tarball', () => {
  let t: TestServer;
  let dir: string;
  before(async () => {
    t = await startTestServer();
    for (const id of ['pack-1', 'pack-2'])
      await importScenario(t.server.store.scenarios, t.orgId, id, JSON.stringify(bp([m(1, 'util:SetVariable2')])));
    dir = mkdtempSync(join(tmpdir(), 'gov-sdk-pack-'));
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("packs only the build, README and CHANGELOG with the README's commands, installs into a fresh project, and runs the flow there", async () => {
    const readme = readmeInstallCommands();
    // The README's command in the checkout, plus flags that change neither what is packed nor how:
    // --json to read the result; --ignore-scripts because `npm run build` already built dist/ (prepack
    // would rebuild it under running tests); --pack-destination keeps the tarball out of the checkout.
    const packed = await run(
      'npm',
      [...readme.pack.slice(1), '--json', '--ignore-scripts', '--pack-destination', dir],
      { cwd: ROOT, env: NPM_ENV },
    );
    const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
    assert.ok(info);
    // The tarball the README installs is the one the pack wrote (its name follows the version).
    const target = readme.install.slice(2);
    assert.deepEqual(target, [`${CHECKOUT}/${info.filename}`]);
    const files = info.files.map((f) => f.path).sort();
    for (const needed of ['package.json', 'README.md', 'CHANGELOG.md', 'dist/index.js', 'dist/index.d.ts'])
      assert.ok(files.includes(needed), `${needed} in ${files.join(', ')}`);
    assert.deepEqual(
      files.filter(
        (f) => f.startsWith('src/') || f.startsWith('scripts/') || f.endsWith('.map') || f.includes('tsbuildinfo'),
      ),
      [],
    );

    const app = join(dir, 'app');
    rmSync(app, { recursive: true, force: true });
    await run('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // The README's install command, the checkout being where the pack wrote the tarball; --offline and
    // --ignore-scripts keep the test off the network (the tarball has no dependencies and no scripts).
    await run(
      'npm',
      [...readme.install.slice(1).map((a) => a.replace(CHECKOUT, dir)), '--offline', '--ignore-scripts'],
      { cwd: app, env: NPM_ENV },
    );
    writeFileSync(join(app, 'app.mjs'), APP);
    const out = await run(process.execPath, ['app.mjs'], {
      cwd: app,
      env: { ...process.env, GOV_URL: t.baseUrl, GOV_KEY: t.creds.apiKey, GOV_SECRET: t.creds.signingSecret },
    });
    assert.deepEqual(JSON.parse(out.stdout), {
      status: 'complete',
      results: 'complete',
      scenarios: ['pack-1', 'pack-2'],
      refused: 'Evaluation not found',
    });

    writeFileSync(join(app, 'typed.ts'), TYPED);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          strict: true,
          noEmit: true,
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['typed.ts'],
      }),
    );
    await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', app], { cwd: app });
  });
});
