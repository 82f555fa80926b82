/**
 * @module bench/rule-patterns: what the linear-time engine of custom-rule patterns costs (issue 31,
 * docs/custom-rules.md *Patterns*): compile and match time of typical rule patterns on a typical value
 * and on a 4,096-character one (the most a pattern is tested on), re2js against V8's backtracking
 * RegExp and, when Node runs with `--enable-experimental-regexp-engine`, V8's linear engine (flag `l`);
 * then the catastrophic patterns of the issue and the worst shape under the program-size limit.
 * A measurement, not a test: `node dist/bench/rule-patterns.js` (add the V8 flag for the third column).
 */
import { RE2JS } from 're2js';
import { RULE_LIMITS, compilePattern } from '../src/engine/rules/index.js';

const URL_VALUE = 'https://hooks.eu1.make.com/abc123def456ghi789?token=Bearer%20xyz&user=jane.doe%40example.com';
const LONG_VALUE = `${URL_VALUE} `.repeat(50).slice(0, RULE_LIMITS.regexInput);
/** Typical rule patterns: RE2 source, and the JavaScript equivalent (inline `(?i)` becomes flag `i`). */
const TYPICAL: readonly (readonly [string, string, string])[] = [
  ['^Bearer [A-Za-z0-9._-]+$', '^Bearer [A-Za-z0-9._-]+$', ''],
  ['(?i)^https://[^/]*\\.example\\.com/', '^https://[^/]*\\.example\\.com/', 'i'],
  ['[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[a-z]{2,}', '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[a-z]{2,}', ''],
  ['(?i)token=[a-z0-9]{32}', 'token=[a-z0-9]{32}', 'i'],
];

/** The service's matcher (`compilePattern`: DFA trimmed after each test), or bare re2js for a pattern it refuses. */
function matcherOf(source: string): { test(text: string): boolean } {
  const c = compilePattern(source);
  return c.ok ? c.matcher : RE2JS.compile(source);
}

/** Mean time of `fn` over `runs` calls after a warm-up, in microseconds. */
function micros(fn: () => unknown, runs: number): number {
  for (let i = 0; i < Math.min(runs, 100); i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < runs; i++) fn();
  return Number(process.hrtime.bigint() - start) / runs / 1000;
}

/** One call's time, in milliseconds (for the slow rows: no warm-up, no repetition). */
function once(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** V8's linear engine for `source`, or a reason it is not there. */
function v8Linear(source: string, flags: string): RegExp | string {
  try {
    return new RegExp(source, `${flags}l`);
  } catch (err) {
    return err instanceof SyntaxError && /Invalid flags/.test(err.message) ? 'no flag' : 'refused';
  }
}

const f = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));
console.log(`| pattern | engine | compile µs | ${URL_VALUE.length}-char value µs | 4,096-char value µs |`);
console.log('|---|---|---|---|---|');
for (const [re2, js, flags] of TYPICAL) {
  const r = matcherOf(re2);
  const rows: [string, number, number, number][] = [
    [
      're2js',
      micros(() => RE2JS.compile(re2), 500),
      micros(() => r.test(URL_VALUE), 5000),
      micros(() => r.test(LONG_VALUE), 500),
    ],
  ];
  const b = new RegExp(js, flags);
  rows.push([
    'RegExp',
    micros(() => new RegExp(js, flags), 5000),
    micros(() => b.test(URL_VALUE), 5000),
    micros(() => b.test(LONG_VALUE), 500),
  ]);
  const l = v8Linear(js, flags);
  if (typeof l !== 'string')
    rows.push([
      'RegExp `l`',
      micros(() => new RegExp(js, `${flags}l`), 5000),
      micros(() => l.test(URL_VALUE), 5000),
      micros(() => l.test(LONG_VALUE), 500),
    ]);
  for (const [engine, c, u, lv] of rows) console.log(`| \`${re2}\` | ${engine} | ${f(c)} | ${f(u)} | ${f(lv)} |`);
}

const A5000 = 'a'.repeat(5000);
/** Letters in a pseudo-random order (a fixed linear congruential sequence: the same every run). */
function letters(seed: number): string {
  let x = seed;
  return Array.from({ length: RULE_LIMITS.regexInput }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return String.fromCharCode(97 + Math.floor((x / 2147483648) * 26));
  }).join('');
}
console.log(
  '\n| pattern (RE2 instructions) | input | re2js ms, first value | re2js ms, next value | V8 linear engine |',
);
console.log('|---|---|---|---|---|');
const CASES: readonly (readonly [string, string, string, string])[] = [
  ['a{0,32}'.repeat(6) + 'b', A5000, `${A5000.slice(1)}c`, '5,000 × a'],
  ['(a|a)'.repeat(30) + 'b', A5000, `${A5000.slice(1)}c`, '5,000 × a'],
  ['(a+)+b', A5000, `${A5000.slice(1)}c`, '5,000 × a'],
  [`[\\p{L}\\p{N}]{${RULE_LIMITS.regexProgram - 3}}b`, letters(1), letters(2), '4,096 letters'],
  ['\\pL{1000}'.repeat(22), letters(3), letters(4), '4,096 letters'],
];
for (const [source, first, next, label] of CASES) {
  const r = matcherOf(source);
  const cold = once(() => r.test(first));
  const warm = once(() => r.test(next));
  const l = v8Linear(source.replace('[\\p{L}\\p{N}]', '[a-z]').replaceAll('\\pL', '[a-z]'), '');
  const v8 = typeof l === 'string' ? l : `${f(once(() => l.test(first)))} ms`;
  const shown = source.length > 40 ? `${source.slice(0, 37)}…` : source;
  const size = RE2JS.compile(source).programSize();
  const over = size > RULE_LIMITS.regexProgram ? ', refused by the limit' : '';
  console.log(`| \`${shown}\` (${size}${over}) | ${label} | ${f(cold)} | ${f(warm)} | ${v8} |`);
}
