#!/usr/bin/env node
/**
 * Runs a built entry point of the project, building first only when the sources changed since the
 * last build it made: `node scripts/run-built.mjs <dist file> [args...]`, e.g. `npm run admin`
 * (`dist/src/cli/admin.js`), `npm run demo`, `npm run scan`, `npm run precision` (issue 30: these
 * ran `npm run build`, SDK, project and console, about 6 to 15 s, before every command).
 *
 * Fresh means: the entry exists, and no file or directory under what the TypeScript builds read
 * (`INPUTS`: the project's src/, test/ and bench/, which tsconfig.json compiles together, the SDK's
 * src/, the tsconfigs, package.json and package-lock.json) has a modification time newer than the
 * newest one recorded by the last build (`dist/.run-built-stamp`). Directories count too, so a
 * deleted or renamed source is a change (bench/results/, the benchmarks' output, does not count). The walk stats about 650 entries: a few milliseconds.
 * Stale: `tsc -p packages/sdk/tsconfig.json` then `tsc -p tsconfig.json` (both incremental; the
 * console is not built, no command run this way needs it), their output and this script's own
 * lines on stderr, so that a command's `--json` output on stdout stays one JSON object. A failed
 * build exits 2 without running the command (nor recording the build: the next call tries again).
 * `npm run build` records the stamp when it is done (`node scripts/run-built.mjs --record`), so the
 * first call after it builds nothing (a source saved while that build ran counts as built: run
 * `npm run build` again after such an edit, or touch the file).
 *
 * The entry is then imported in this process, with `process.argv` as if it had been started
 * directly (`node <entry> [args...]`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** What the builds read, relative to the root: directories are walked, files stat'ed; a missing one is skipped. */
const INPUTS = [
  'src',
  'test',
  'bench',
  'packages/sdk/src',
  'packages/sdk/tsconfig.json',
  'packages/sdk/package.json',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];
/** Under the inputs but not read by a build: the benchmarks' output (git-ignored). */
const OUTPUTS = [join(ROOT, 'bench', 'results')];
/** The builds, in order (the project's compilation reads the SDK's declarations). */
const BUILDS = ['packages/sdk/tsconfig.json', 'tsconfig.json'];
/** `{ "newest": <ms> }`: the newest input modification time the last successful build saw. */
const STAMP = join(ROOT, 'dist', '.run-built-stamp');

/** Prints a line of this script on stderr. */
function say(line) {
  process.stderr.write(`run-built: ${line}\n`);
}

/** The newest modification time (ms) among the inputs, and the path that has it. */
function newestInput() {
  let newest = { ms: 0, path: '' };
  const see = (path) => {
    const ms = statSync(path).mtimeMs;
    if (ms > newest.ms) newest = { ms, path };
  };
  for (const input of INPUTS) {
    const path = join(ROOT, input);
    if (!existsSync(path)) continue;
    see(path);
    if (!statSync(path).isDirectory()) continue;
    for (const entry of readdirSync(path, { recursive: true, withFileTypes: true })) {
      const found = join(entry.parentPath ?? entry.path, entry.name);
      if (!OUTPUTS.some((o) => found === o || found.startsWith(`${o}/`))) see(found);
    }
  }
  return newest;
}

/** The newest input time recorded by the last successful build, or -1 when there is none. */
function recorded() {
  try {
    const { newest } = JSON.parse(readFileSync(STAMP, 'utf8'));
    return typeof newest === 'number' ? newest : -1;
  } catch {
    return -1;
  }
}

/** Runs the TypeScript compiler on each build in turn; exits 2 when one fails. */
function build() {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    say('TypeScript is not installed: run `npm ci` first');
    process.exit(2);
  }
  for (const tsconfig of BUILDS) {
    say(`building (tsc -p ${tsconfig})...`);
    const r = spawnSync(process.execPath, [tsc, '-p', tsconfig], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    if (r.status !== 0) {
      say(`the build failed (see above): fix it, or run \`npm run build\` to see the whole build`);
      process.exit(2);
    }
  }
}

const [target, ...args] = process.argv.slice(2);
if (target === '--record') {
  writeFileSync(STAMP, `${JSON.stringify({ newest: newestInput().ms })}\n`);
  process.exit(0);
}
if (!target) {
  say('usage: node scripts/run-built.mjs <built entry, e.g. dist/src/cli/admin.js> [args...] | --record');
  process.exit(2);
}
const entry = resolve(ROOT, target);
const inputs = newestInput();
const built = recorded();
if (!existsSync(entry) || inputs.ms > built) {
  say(
    !existsSync(entry)
      ? `${relative(ROOT, entry)} is not built yet`
      : built < 0
        ? 'no build recorded by this launcher yet'
        : `${relative(ROOT, inputs.path)} changed since the last build`,
  );
  build();
  if (!existsSync(entry)) {
    say(`the build did not produce ${relative(ROOT, entry)}`);
    process.exit(2);
  }
  writeFileSync(STAMP, `${JSON.stringify({ newest: inputs.ms })}\n`);
}

// As if started as `node <entry> [args...]`: a module that checks whether it is the main one
// compares process.argv[1] with its own URL, which is the real path (symbolic links resolved).
const real = realpathSync(entry);
process.argv = [process.argv[0], real, ...args];
await import(pathToFileURL(real).href);
