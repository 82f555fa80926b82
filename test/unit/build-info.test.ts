/** gov_build_info's labels: GIT_REVISION first, else the commit `.git` resolves to (checkout, worktree, packed refs, detached), else unknown. */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitHead, readBuildInfo } from '../../src/server/build-info.js';
import { ConfigError } from '../../src/server/config-readers.js';

const A = 'a'.repeat(40);
const B = '0123456789abcdef0123456789abcdef01234567';

describe('build info', () => {
  const base = mkdtempSync(join(tmpdir(), 'gov-build-info-'));
  after(() => rmSync(base, { recursive: true, force: true }));
  let n = 0;
  const repo = (files: Record<string, string>): string => {
    const root = join(base, `r${n++}`);
    mkdirSync(root);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ version: '9.8.7' }));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  };

  it('takes GIT_REVISION over .git, the version from package.json and process.version', () => {
    const root = repo({ '.git/HEAD': `${B}\n` });
    assert.deepEqual(readBuildInfo({ GIT_REVISION: 'abc1234' }, root), {
      version: '9.8.7',
      revision: 'abc1234',
      node_version: process.version,
    });
    assert.equal(readBuildInfo({}, root).revision, B);
  });

  it('refuses a GIT_REVISION that is not a hex commit id, naming the variable', () => {
    for (const bad of ['main', 'ABCDEF1', 'abc12', 'abc1234"} 1\nevil{x="'])
      assert.throws(
        () => readBuildInfo({ GIT_REVISION: bad }, repo({})),
        (e: unknown) => e instanceof ConfigError && e.variable === 'GIT_REVISION' && e.value === bad,
      );
  });

  it('follows a symbolic HEAD to a loose ref, then to packed-refs', () => {
    assert.equal(gitHead(repo({ '.git/HEAD': 'ref: refs/heads/main\n', '.git/refs/heads/main': `${A}\n` })), A);
    const packed = repo({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.git/packed-refs': `# pack-refs with: peeled fully-peeled sorted\n${A} refs/heads/other\n${B} refs/heads/main\n`,
    });
    assert.equal(gitHead(packed), B);
  });

  it('follows a worktree .git file to its git dir and the shared refs of its commondir', () => {
    const main = repo({ '.git/refs/heads/obs': `${A}\n`, '.git/worktrees/wt/HEAD': 'ref: refs/heads/obs\n' });
    writeFileSync(join(main, '.git/worktrees/wt/commondir'), '../..\n');
    const wt = repo({ '.git': `gitdir: ${join(main, '.git/worktrees/wt')}\n` });
    assert.equal(gitHead(wt), A);
    assert.equal(readBuildInfo({}, wt).revision, A);
  });

  it('is unknown without .git, with a dangling ref or with garbage in HEAD', () => {
    assert.equal(readBuildInfo({}, repo({})).revision, 'unknown');
    assert.equal(readBuildInfo({}, repo({ '.git/HEAD': 'ref: refs/heads/gone\n' })).revision, 'unknown');
    assert.equal(readBuildInfo({}, repo({ '.git/HEAD': 'not a commit\n' })).revision, 'unknown');
  });
});
