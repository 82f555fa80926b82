/**
 * Custom-rule patterns run on the linear-time engine (issue 31, item 1): the patterns that backtrack
 * for minutes in JavaScript compile to re2js matchers and answer on 5,000 characters; what RE2 does not
 * support (lookaround, back-references, possessive quantifiers, atomic groups) is refused with a
 * message naming it; the program-size limit; the semantics a rule author gets; one compile per source.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RE2JS } from 're2js';
import { bp, m } from '../helpers/blueprints.js';
import { ruleOutcome } from '../helpers/rules.js';
import { Analysis } from '../../src/engine/analysis.js';
import { parseBlueprint } from '../../src/engine/blueprint/parse.js';
import { runPolicy } from '../../src/engine/evaluate.js';
import { PATTERN_ENGINE, RULE_LIMITS, compilePattern, compileRule } from '../../src/engine/rules/index.js';
import type { CustomRule, LinearPattern } from '../../src/engine/rules/index.js';

/** Catastrophic for a backtracking engine (issue 31: the first two took 35.8 s on 64 characters in Node). */
const CATASTROPHIC = ['a{0,32}'.repeat(6) + 'b', '(a|a)'.repeat(30) + 'b', '(a+)+b'];
const A5000 = 'a'.repeat(5000);

/** The compiled matcher, failing the test with the refusal otherwise. */
function matcher(source: string): LinearPattern {
  const c = compilePattern(source);
  assert.ok(c.ok, c.ok ? '' : `${source}: ${c.message}`);
  return c.matcher;
}

/** The refusal message of a pattern (it must be refused). */
function refusal(source: string): string {
  const c = compilePattern(source);
  assert.equal(c.ok, false, `${source} should be refused`);
  return c.ok ? '' : c.message;
}

describe('compilePattern', () => {
  it('compiles the catastrophic patterns to re2js matchers that answer false on 5,000 a', () => {
    assert.equal(PATTERN_ENGINE, 're2js');
    for (const source of CATASTROPHIC) {
      const re = matcher(source);
      assert.ok(re.re2js instanceof RE2JS, `${source} runs on re2js`);
      assert.equal(re.test(A5000), false, source);
      assert.equal(re.test(`${A5000}b`), true, source);
    }
  });

  it('refuses what RE2 does not support, naming the construct', () => {
    const cases: [string, RegExp][] = [
      ['(a)\\1', /back-reference/],
      ['(?<x>a)\\k<x>', /named back-reference/],
      ['(?=a)', /lookahead `\(\?=/],
      ['(?!a)', /negative lookahead/],
      ['(?<=a)b', /lookbehind `\(\?<=/],
      ['x(?<!a)b', /negative lookbehind/],
      ['a++', /possessive quantifier/],
      ['(?>a)', /atomic group/],
    ];
    for (const [source, message] of cases) {
      const text = refusal(source);
      assert.match(text, message, source);
      assert.match(text, /linear-time pattern engine \(RE2 syntax\) does not support$/, source);
    }
    assert.equal(
      refusal('\\u0041'),
      'uses the JavaScript escape `\\u`, which the linear-time pattern engine (RE2 syntax) does not support: write `\\x{HHHH}`',
    );
    assert.equal(refusal('(a'), 'is not a valid RE2 pattern: missing closing ) at `(a`');
  });

  it(`refuses a pattern over ${RULE_LIMITS.regexProgram} RE2 instructions, accepts a long hex token`, () => {
    assert.match(refusal('[a-z]{600}'), /^compiles to 602 RE2 instructions; at most 500 /);
    assert.ok(matcher('(?i)[a-f0-9]{64}').re2js.programSize() <= RULE_LIMITS.regexProgram);
  });

  it('gives RE2 semantics: inline flags, anchors at the ends of the text, code points, ASCII classes', () => {
    assert.ok(matcher('(?i)^bearer ').test('Bearer abc'));
    assert.ok(!matcher('^bearer ').test('Bearer abc'));
    assert.ok(!matcher('a$').test('a\n'), '$ is the end of the text');
    assert.ok(matcher('(?m)a$').test('a\nb'));
    assert.ok(matcher('^.$').test('😀'), '. is one code point');
    assert.ok(!matcher('\\d').test('٣'), '\\d is ASCII');
    assert.ok(!matcher('\\s').test('\u00a0'), '\\s is ASCII white space');
    assert.ok(matcher('\\p{L}').test('é'));
    assert.ok(matcher('(?<host>[a-z]+)\\.example').test('api.example.com'), 'named groups are accepted');
  });

  it('keeps at most 32 KiB of DFA states after a test, and a typical pattern its whole DFA', () => {
    // Random a/b: a DFA state per window of the last 21 characters (2^21 possible), the classic blow-up.
    let x = 7;
    const ab = Array.from({ length: RULE_LIMITS.regexInput }, () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x < 1073741824 ? 'a' : 'b';
    }).join('');
    const kept = (m: LinearPattern) => {
      const dfa = m.re2js.re2().lazyDFA as { stateBudget: number; memBudget: number; stateCount: number } | null;
      return dfa === null
        ? { bytes: 0, states: 0 }
        : { bytes: dfa.stateBudget - dfa.memBudget, states: dfa.stateCount };
    };
    const explosive = matcher('a[ab]{20}[cd]{3}');
    assert.equal(explosive.test(ab), false);
    assert.ok(kept(explosive).bytes <= 32 * 1024, JSON.stringify(kept(explosive)));
    const typical = matcher('(?i)token=[a-z0-9]{32}');
    assert.equal(typical.test(`x${'token='.repeat(100)}`), false);
    assert.ok(kept(typical).states > 0, 'kept: the next test reuses it');
  });

  it('compiles a source once: the same matcher for every rule that uses it', () => {
    assert.equal(matcher('^https://[^/]+\\.example\\.com/'), matcher('^https://[^/]+\\.example\\.com/'));
  });
});

describe('a custom rule with a catastrophic pattern', () => {
  it('evaluates a 5,000-character value and gives its verdict', () => {
    const text = (value: string) => bp([m(1, 'util:SetVariable2', { mapper: { value } })]);
    for (const source of CATASTROPHIC) {
      const match = { field: '/mapper/value', matches: source };
      assert.equal(ruleOutcome(match, text(A5000)), null, `${source} does not match`);
      // The value is cut at 4,096 characters: the `b` must be within them.
      assert.deepEqual(
        ruleOutcome(match, text(`${'a'.repeat(RULE_LIMITS.regexInput - 1)}b`))?.findings.map((f) => f.moduleId),
        ['1'],
        source,
      );
    }
  });

  it('reports a stored pattern RE2 refuses (a body of an older release) as the rule policy error', () => {
    const rule = {
      title: 'Old rule',
      severity: 'high',
      category: 'SEC',
      remediation: 'Fix it.',
      match: { field: '/mapper/value', matches: '(?=a)' },
    } as CustomRule;
    const parsed = parseBlueprint(bp([m(1, 'util:SetVariable2', { mapper: { value: 'a' } })]));
    assert.ok(parsed.ok);
    const run = runPolicy(compileRule('ORG-4', rule), new Analysis(parsed.graph), {});
    assert.ok('error' in run);
    assert.match(run.error, /^pattern `\(\?=a\)` uses lookahead .* submit the rule again with an RE2 pattern$/);
  });
});
