/**
 * No pattern may be super-linear: fast-check builds 1 MiB strings from adversarial fragments of every
 * known format (prefixes, separators, URL and expression syntax) and each scanner must process
 * 1 MiB in at most ~10× the time of 256 KiB (linear ≈ 4×, quadratic ≈ 16×). Timing is relative,
 * within one run, and only the ratio is asserted. The time is the process's CPU time, the least of
 * three runs: on CI's 2 cores test files run side by side, and a run descheduled for a while (wall
 * time) once read as super-linear.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isPlaceholder, scanForSecrets } from '../../src/engine/secrets/scan.js';
import { SECRET_PATTERNS } from '../../src/engine/secrets/patterns.js';
import { extractRefs } from '../../src/engine/blueprint/expressions.js';
import { collectAllStrings } from '../../src/engine/leaves.js';
import { parseBlueprint } from '../../src/engine/blueprint/parse.js';
import { findEmails, piiKind } from '../../src/engine/pii.js';
import { urlHost } from '../../src/engine/blueprint/classify.js';
import { regionsOf } from '../../src/cli/scan/source-map.js';
import { captureLabels } from '../../src/engine/regex-captures.js';

const MIB = 1 << 20;
const FRAGMENTS = [
  ...SECRET_PATTERNS.map((p) =>
    p.re.source
      .replace(/\\/g, '')
      .replace(/\[[^\]]*\]|\{[^}]*\}|\(\?[^)]*\)|[()?|+*]/g, '')
      .slice(0, 12),
  ),
  'EAA',
  'eyJ',
  'eyJa.',
  'sk-',
  'a@',
  '@a.',
  '{{1.',
  '{{',
  '}}',
  '://',
  'a://a?',
  '?auth=',
  'key=',
  '&',
  'AA',
  '0',
  '9:',
  'x',
  ' ',
  '-',
  '_',
  '.',
  '`',
  '[',
  ']',
  'a:b@',
  'hook.eu1.make.com/',
  'BEGIN ',
  // Generic detectors (issue 14): path keywords, assignments, pairs, schemes, cookie exports, anchors.
  '/webhook/',
  '/key/',
  '/token/',
  '/instances/',
  'a/',
  '"name":"token","value":"',
  '"value":"',
  'password=',
  'secret: ',
  'Bearer ',
  'earer',
  '"httpOnly"',
  '"domain"',
  '-us1',
  ':AA',
  // URL rules by shape on any host (issue 32): version segments, Telegram segments, formats in queries; publishable keys.
  'a://a/v1/',
  '/bot12345:',
  '?q=ghp_',
  'pk_live_',
  'eyJhbGciOiJIUzI1NiJ9.',
  '; sid=',
  'f',
  '=',
  // Text parser patterns (regex-captures.ts): groups, lookarounds, classes, escapes.
  '(',
  ')',
  '(?<=',
  '(?<n>',
  '\\s*',
  '[^>]',
  '{2,3}',
  'Name: ',
];

const SCANNERS: Record<string, (s: string) => unknown> = {
  'scanForSecrets (credential field)': (s) => scanForSecrets(s, 'Authorization'),
  'scanForSecrets (plain field)': (s) => scanForSecrets(s, null),
  'scanForSecrets (Cookie header)': (s) => scanForSecrets(s, 'Cookie'),
  isPlaceholder,
  extractRefs,
  findEmails,
  urlHost,
  piiKind: (s) => piiKind(s),
  captureLabels: (s) => captureLabels(s),
  'regionsOf (SARIF source map)': (s) => regionsOf(`{"a":"${s.replace(/["\\]/g, '')}","b":1}`, ['/b', '/a']),
};

/** The CPU time of one call, in ms (user + system of the process: not the time it waited for a core). */
function timeOf(fn: (s: string) => unknown, s: string): number {
  const t0 = process.cpuUsage();
  fn(s);
  const t = process.cpuUsage(t0);
  return (t.user + t.system) / 1000;
}

/** The least CPU time of three calls, in ms. */
function leastOf(fn: (s: string) => unknown, s: string): number {
  return Math.min(timeOf(fn, s), timeOf(fn, s), timeOf(fn, s));
}

for (const [name, fn] of Object.entries(SCANNERS)) {
  it(`${name} is linear on 1 MiB adversarial input`, () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 4 }), (parts) => {
        const unit = parts.join('');
        const big = unit.repeat(Math.ceil(MIB / unit.length)).slice(0, MIB);
        const quarter = big.slice(0, MIB / 4);
        timeOf(fn, quarter); // warm-up
        const small = leastOf(fn, quarter);
        const large = leastOf(fn, big);
        // Linear ≈ 4×, quadratic ≈ 16× (and seconds on 1 MiB); the floor absorbs GC pauses on fast cases.
        return large < 150 || large < 10 * Math.max(small, 2);
      }),
      { numRuns: 12, seed: 20261122 },
    );
    assert.ok(true);
  });
}

it('walks every string of a blueprint nested a million levels deep without recursion', () => {
  let deep: unknown = `ghp_${'a'.repeat(36)}`;
  for (let i = 0; i < 1_000_000; i++) deep = [deep];
  const parsed = parseBlueprint({
    name: 'deep',
    flow: [{ id: 1, module: 'util:SetVariable2', mapper: { value: deep } }],
  });
  assert.ok(parsed.ok);
  const leaves = collectAllStrings(parsed.graph);
  assert.deepEqual(
    leaves.map((l) => l.fieldName),
    ['name', 'value'],
  );
  assert.equal(leaves[1]!.pointer.length, '/flow/0/mapper/value'.length + 2 * 1_000_000);
});
