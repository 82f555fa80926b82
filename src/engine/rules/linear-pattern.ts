/**
 * @module engine/rules/linear-pattern: the one matcher of tenant-supplied patterns (a custom rule's
 * `matches`), on a linear-time engine: re2js, a pure-JavaScript port of RE2. Matching a compiled
 * pattern is O(program size × input length) whatever the pattern, so `(a|a){30}b`, `(a+)+b` or six
 * `a{0,32}` then `b` cost what `a` costs per character; there is no backtracking to blow up.
 * Syntax is RE2's (https://github.com/google/re2/wiki/Syntax): lookaround, back-references,
 * possessive quantifiers and atomic groups do not exist there and are refused. docs/custom-rules.md
 * *Patterns* says what a rule author gets, and why re2js rather than V8's experimental engine.
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';
import { RULE_LIMITS } from './types.js';

/** The engine every tenant pattern runs on (tests and docs read it; there is no other). */
export const PATTERN_ENGINE = 're2js' as const;

/** A compiled pattern: `test(text)` is true when the pattern matches anywhere in `text` (RE2 semantics). */
export type LinearPattern = RE2JS;

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
/** JavaScript escapes RE2 spells otherwise. */
const RESPELL: Readonly<Record<string, string>> = {
  '\\u': 'the JavaScript escape `\\u`: write `\\x{HHHH}`',
  '\\c': 'the JavaScript escape `\\c`: write `\\x{HH}`',
};

/**
 * Compiles a pattern for the linear-time engine, or says why it cannot: RE2 does not support a construct (lookaround, back-references,
 * possessive quantifiers, atomic groups: named in the message), it does not parse, or it compiles to
 * more than `RULE_LIMITS.regexProgram` RE2 instructions (matching costs that many steps per character
 * at worst). The length limit (`RULE_LIMITS.regex`) is the schema's. Never throws. Compiled once per source (cached, bounded).
 * @example compilePattern('(?i)^bearer ') // { ok: true, matcher } ; matcher.test('Bearer x') === true
 */
export function compilePattern(source: string): PatternCompilation {
  const hit = cache.get(source);
  if (hit) {
    cache.delete(source);
    cache.set(source, hit);
    return { ok: true, matcher: hit };
  }
  let matcher: LinearPattern;
  try {
    matcher = RE2JS.compile(source);
  } catch (err) {
    return { ok: false, message: refusal(err) };
  }
  const size = matcher.programSize();
  if (size > RULE_LIMITS.regexProgram)
    return {
      ok: false,
      message: `compiles to ${size} RE2 instructions; at most ${RULE_LIMITS.regexProgram} (each repetition is spelled out: \`[a-z]{600}\` is 602): use smaller repeat counts`,
    };
  cache.set(source, matcher);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return { ok: true, matcher };
}

/** The field-level message for a pattern RE2 refused. */
function refusal(err: unknown): string {
  if (!(err instanceof RE2JSSyntaxException)) return 'is not a valid RE2 pattern';
  const at = err.input ?? '';
  const unsupported = UNSUPPORTED.find(([re]) => re.test(at))?.[1] ?? RESPELL[at];
  if (unsupported !== undefined)
    return `uses ${unsupported}, which the linear-time pattern engine (RE2 syntax) does not support`;
  const shown = at.length > 40 ? `${at.slice(0, 39)}…` : at;
  return `is not a valid RE2 pattern: ${err.error}${shown === '' ? '' : ` at \`${shown}\``}`;
}
