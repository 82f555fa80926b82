/**
 * @module engine/rules/linear-pattern: the one matcher of tenant-supplied patterns (a custom rule's
 * `matches`), on a linear-time engine: re2js, a pure-JavaScript port of RE2. Matching a compiled
 * pattern is O(program size × input length) whatever the pattern, so thirty `(a|a)` then `b`, `(a+)+b`
 * or six `a{0,32}` then `b` cost what `a` costs per character; there is no backtracking to blow up.
 * Syntax is RE2's (https://github.com/google/re2/wiki/Syntax): lookaround, back-references,
 * possessive quantifiers and atomic groups do not exist there and are refused. docs/custom-rules.md
 * *Patterns* says what a rule author gets, and why re2js rather than V8's experimental engine.
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { RULE_LIMITS } from './types.js';

/** The engine every tenant pattern runs on (tests and docs read it; there is no other). */
export const PATTERN_ENGINE = 're2js' as const;

/** A compiled pattern. */
export interface LinearPattern {
  /** The re2js program it runs (RE2 semantics). */
  readonly re2js: RE2JS;
  /**
   * True when the pattern matches anywhere in `text`. At most (program size × `text.length`) steps;
   * afterwards the matcher keeps at most `DFA_KEEP_BYTES` of cached automaton states.
   */
  test(text: string): boolean;
}

/** The outcome of `compilePattern`: the matcher, or why the pattern is refused (a field-level message). */
export type PatternCompilation =
  { readonly ok: true; readonly matcher: LinearPattern } | { readonly ok: false; readonly message: string };

/**
 * Compiled patterns kept per process (per worker), by source. Rules run on every module of every
 * scenario; a worker compiles an organization's rules once per rules revision, and this cache makes
 * the validation at `POST /governance/rules`, the catalog and every worker's compile of the same
 * pattern share one compile. Bounded: least recently used first out.
 */
const CACHE_SIZE = 512;
const cache = new Map<string, LinearPattern>();

/**
 * Cached automaton states a matcher keeps between tests, in bytes (re2js's own estimate). re2js
 * builds a lazy DFA per pattern and lets it grow to 8 MiB; a pattern built to explode it
 * (`a[ab]{20}[cd]{3}` on random `a`/`b`) kept about 5 MiB of heap per matcher in a measurement, and
 * compiled rules stay cached in a worker across organizations, so hundreds of such patterns could
 * exhaust a worker's heap for whoever runs on it next. Typical rule patterns need under 10 KiB and
 * keep theirs; a larger DFA is dropped after the test that grew it (the next test rebuilds it).
 */
const DFA_KEEP_BYTES = 32 * 1024;

/** re2js's lazy DFA of a program (null until its first test). */
type LazyDfa = ReturnType<RE2JS['re2']>['lazyDFA'] | null;

/** Wraps a compiled program: `test`, then the DFA trimmed to `DFA_KEEP_BYTES`. */
function linear(re2js: RE2JS): LinearPattern {
  const re2 = re2js.re2();
  return {
    re2js,
    test(text) {
      const hit = re2js.test(text);
      const dfa = re2.lazyDFA as LazyDfa;
      if (dfa && dfa.stateBudget - dfa.memBudget > DFA_KEEP_BYTES) dfa.clearCache();
      return hit;
    },
  };
}

/**
 * What RE2 reports at the fragment where parsing stopped (`RE2JSSyntaxException.input`), for the
 * constructs JavaScript has and RE2 does not: a message that says what is unsupported and why.
 */
const UNSUPPORTED: readonly (readonly [RegExp, string])[] = [
  [/^\(\?=/, 'lookahead `(?=...)`'],
  [/^\(\?!/, 'negative lookahead `(?!...)`'],
  [/^\(\?<=/, 'lookbehind `(?<=...)`'],
  [/^\(\?<!/, 'negative lookbehind `(?<!...)`'],
  [/^\\[1-9]$/, 'a back-reference (`\\1`)'],
  [/^\\k$/, 'a named back-reference (`\\k<name>`)'],
  [/^\(\?>/, 'an atomic group `(?>...)`'],
  [/^[*+?}]\+$/, 'a possessive quantifier (`a++`)'],
];
/** JavaScript escapes RE2 spells otherwise, and how (a Map: the key is pattern text). */
const RESPELL: ReadonlyMap<string, string> = new Map([
  [
    '\\u',
    'the JavaScript escape `\\u`, which the linear-time pattern engine (RE2 syntax) does not support: write `\\x{HHHH}`',
  ],
  [
    '\\c',
    'the JavaScript escape `\\c`, which the linear-time pattern engine (RE2 syntax) does not support: write `\\x{HH}`',
  ],
]);

/**
 * Compiles a pattern for the linear-time engine, or says why it cannot: RE2 does not support a
 * construct (lookaround, back-references, possessive quantifiers, atomic groups, JavaScript's `\u`
 * and `\c`: named in the message), it does not parse, or it compiles to more than
 * `RULE_LIMITS.regexProgram` RE2 instructions (matching costs that many steps per character at
 * worst). The length limit (`RULE_LIMITS.regex`) is the schema's. Never throws. Compiled once per
 * source (cached, bounded).
 * @example compilePattern('(?i)^bearer ') // { ok: true, matcher } ; matcher.test('Bearer x') === true
 */
export function compilePattern(source: string): PatternCompilation {
  const hit = cache.get(source);
  if (hit) {
    cache.delete(source);
    cache.set(source, hit);
    return { ok: true, matcher: hit };
  }
  let re2js: RE2JS;
  try {
    re2js = RE2JS.compile(source);
  } catch (err) {
    return { ok: false, message: refusal(err) };
  }
  const size = re2js.programSize();
  if (size > RULE_LIMITS.regexProgram)
    return {
      ok: false,
      message: `compiles to ${size} RE2 instructions; at most ${RULE_LIMITS.regexProgram} (a bounded repetition is spelled out: \`[a-z]{64}\` is 66): use smaller repeat counts`,
    };
  const matcher = linear(re2js);
  cache.set(source, matcher);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return { ok: true, matcher };
}

/** The field-level message for a pattern RE2 refused. */
function refusal(err: unknown): string {
  if (!(err instanceof RE2JSSyntaxException)) return 'is not a valid RE2 pattern';
  const at = err.input ?? '';
  const unsupported = UNSUPPORTED.find(([re]) => re.test(at))?.[1];
  if (unsupported !== undefined)
    return `uses ${unsupported}, which the linear-time pattern engine (RE2 syntax) does not support`;
  const respelled = RESPELL.get(at);
  if (respelled !== undefined) return `uses ${respelled}`;
  const shown = at.length > 40 ? `${at.slice(0, 39)}…` : at;
  return `is not a valid RE2 pattern: ${err.error}${shown === '' ? '' : ` at \`${shown}\``}`;
}
