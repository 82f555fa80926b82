/**
 * @module server/build-info: what `gov_build_info{version,revision,node_version}` reports — the
 * package version, the git commit the build came from and the running Node.js version.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from './config-readers.js';

/** The three labels of `gov_build_info` (bounded: one series per process). */
export interface BuildInfo {
  /** `version` of package.json, e.g. `0.1.0`. */
  readonly version: string;
  /** A git commit (hex), or `unknown` when neither GIT_REVISION nor a readable `.git` names one. */
  readonly revision: string;
  /** `process.version`, e.g. `v20.19.4`. */
  readonly node_version: string;
}

/** Accepted `GIT_REVISION` values: an abbreviated or full git commit id (`git rev-parse [--short] HEAD`). */
const REVISION = /^[0-9a-f]{7,64}$/;

/** The repository root (dist/src/server → ../../..; src/server under a TS runner → ../..). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The build's identity. `revision` is, in order: the environment variable `GIT_REVISION` (the
 * Dockerfile sets it from its build argument of the same name; the image holds no `.git`), else the
 * commit that `<root>/.git/HEAD` resolves to (a checkout or a `git worktree`, loose or packed refs),
 * else `unknown`.
 * @param root repository root holding package.json and possibly .git (default: this build's root).
 * @throws ConfigError when GIT_REVISION is set but is not 7-64 lower-case hex characters.
 */
export function readBuildInfo(
  env: Readonly<Record<string, string | undefined>> = process.env,
  root: string = ROOT,
): BuildInfo {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  const fromEnv = env['GIT_REVISION'];
  if (fromEnv && !REVISION.test(fromEnv))
    throw new ConfigError(
      'GIT_REVISION',
      fromEnv,
      'a git commit id: 7-64 lower-case hex characters (git rev-parse HEAD)',
    );
  return {
    version: pkg.version ?? 'unknown',
    revision: fromEnv || gitHead(root) || 'unknown',
    node_version: process.version,
  };
}

/**
 * The commit `<root>/.git` points at, or null (no .git, unreadable, or not a hex id). Follows a
 * worktree's or submodule's `.git` file ("gitdir: <path>") and its `commondir`, then a symbolic
 * HEAD to a loose ref or a `packed-refs` line; a detached HEAD is the id itself.
 */
export function gitHead(root: string): string | null {
  try {
    let gitDir = join(root, '.git');
    let commonDir = gitDir;
    if (!existsSync(join(gitDir, 'HEAD'))) {
      const pointer = /^gitdir: (.+)$/m.exec(readFileSync(gitDir, 'utf8'))?.[1]?.trim();
      if (!pointer) return null;
      gitDir = isAbsolute(pointer) ? pointer : resolve(root, pointer);
      const common = join(gitDir, 'commondir');
      commonDir = existsSync(common) ? resolve(gitDir, readFileSync(common, 'utf8').trim()) : gitDir;
    }
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (!ref) return REVISION.test(head) ? head : null;
    for (const dir of [gitDir, commonDir]) {
      const loose = join(dir, ref);
      if (existsSync(loose)) {
        const id = readFileSync(loose, 'utf8').trim();
        return REVISION.test(id) ? id : null;
      }
    }
    const packed = join(commonDir, 'packed-refs');
    if (!existsSync(packed)) return null;
    for (const line of readFileSync(packed, 'utf8').split('\n')) {
      const [id, name] = line.split(' ');
      if (name === ref && id && REVISION.test(id)) return id;
    }
    return null;
  } catch {
    return null;
  }
}
