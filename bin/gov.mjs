#!/usr/bin/env node
/**
 * `gov` as package.json `bin` installs it (`npx gov scan ...` right after `npm ci`, issue 19): runs
 * the built CLI (dist/src/cli/gov.js). On a fresh clone, where `npm ci` has installed the
 * dependencies but nothing is built yet, it first builds the CLI alone with the project's
 * TypeScript (tsconfig.gov.json: src/cli/gov.ts and what it imports), its output on stderr so that
 * a report on stdout stays clean. `npm run build` builds everything, the CLI included; after
 * changing the sources run it (or `npm run scan`, which builds when a source changed, through
 * scripts/run-built.mjs): this launcher does not rebuild a build that exists.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

const root = new URL('../', import.meta.url);
const built = new URL('dist/src/cli/gov.js', root);

if (!existsSync(built)) {
  process.stderr.write('gov: first run: building the CLI (tsc -p tsconfig.gov.json)...\n');
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write('gov: TypeScript is not installed: run `npm ci`, then `npm run build`\n');
    process.exit(2);
  }
  const r = spawnSync(process.execPath, [tsc, '-p', fileURLToPath(new URL('tsconfig.gov.json', root))], {
    cwd: fileURLToPath(root),
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0 || !existsSync(built)) {
    process.stderr.write('gov: the build failed (see above); `npm run build` builds the whole project\n');
    process.exit(2);
  }
}

await import(pathToFileURL(fileURLToPath(built)).href);
