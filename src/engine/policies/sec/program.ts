/**
 * @module engine/policies/sec/program: what a code or pattern module runs, and which of its fields
 * hold that program (SEC-7, SEC-13; issue 32: "a fixed regex written by the scenario's author … is not
 * code on untrusted input").
 *
 * A module *runs code* when it executes general-purpose source text: the code apps of the module
 * table (`classify().code`: Make Code, Custom JS `jscode`, cloud functions) with a source field, or a
 * runner app whose every action calls the author's function. A module *applies a pattern* when its
 * program is a regular expression (Make Text parser `regexp:*` `pattern`, a code suite's regex
 * action): the pattern decides what is matched, never what else runs. A code-suite action with
 * neither (a PDF or barcode utility) is not a program at all.
 */
import type { ModuleNode, JsonObject } from '../../blueprint/types.js';
import { RUNNER_APPS, actionWords, classify } from '../../blueprint/classify.js';

/** What a module runs: general-purpose `code`, or a regular-expression `pattern`. */
export type ProgramKind = 'code' | 'pattern';

/** Field names holding a code module's source text (Custom JS `jscode`, Make Code `code`, `script`, `sourceCode`, `python`). */
export const CODE_FIELD =
  /^(?:js|javascript|python|py|ts)?_?code$|^(?:source|script|function|program)(?:_?code|_?body)?$|^(?:javascript|python)$/i;
/** Field names holding a pattern (Make Text parser `pattern`; `regex`, `regexp`). */
export const PATTERN_FIELD = /^(?:pattern|regexp?|regular_?expression)$/i;

/** Action words of a code-suite action that runs source text (`runJavascript`, `executePythonScript`). */
const CODE_WORDS: ReadonlySet<string> = new Set(['javascript', 'js', 'python', 'script']);
/** Action words of a pattern action (`regexMatch`, `testPattern`). */
const PATTERN_WORDS: ReadonlySet<string> = new Set(['regex', 'regexp', 'pattern']);

/**
 * What `m` runs, `null` when it runs no program: a code module with a source field, of a runner
 * app, or a code-suite action named for a language (`runJavascript`) runs `code`; a `regexp` module
 * with a pattern, or a code-suite action named for or carrying a pattern, applies a `pattern`.
 */
export function programOf(m: ModuleNode): ProgramKind | null {
  const hasField = (re: RegExp) => hasKey(m.mapper, re) || hasKey(m.parameters, re);
  if (m.app === 'regexp') return hasField(PATTERN_FIELD) ? 'pattern' : null;
  if (!classify(m).code) return null;
  if (hasField(CODE_FIELD)) return 'code';
  const words = actionWords(m.action);
  if (hasField(PATTERN_FIELD) || words.some((w) => PATTERN_WORDS.has(w))) return 'pattern';
  return RUNNER_APPS.has(m.app) || words.some((w) => CODE_WORDS.has(w)) ? 'code' : null;
}

/** True when a field of a module running `kind` holds the program itself (source text or pattern), by its name. */
export function isProgramField(kind: ProgramKind, fieldName: string | null): boolean {
  return fieldName !== null && (kind === 'code' ? CODE_FIELD : PATTERN_FIELD).test(fieldName);
}

function hasKey(section: JsonObject | null, re: RegExp): boolean {
  if (!section) return false;
  for (const key of Object.keys(section)) if (re.test(key)) return true;
  return false;
}
