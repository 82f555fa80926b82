/** @module cli/scan/file-result: what scanning one file gives (evaluated, invalid or skipped). */
import type { EngineError, ScenarioEvaluation } from '../../engine/index.js';
import type { TextPosition } from './json-position.js';

/** One scanned file. */
export type FileResult =
  | {
      readonly file: string;
      readonly text: string;
      readonly kind: 'evaluated';
      readonly evaluation: ScenarioEvaluation;
    }
  | {
      readonly file: string;
      readonly text: string;
      readonly kind: 'invalid';
      readonly error: EngineError;
      /** Where the text stops being JSON, for a file that is not valid JSON (issue 19). */
      readonly position?: TextPosition;
    }
  | { readonly file: string; readonly kind: 'skipped'; readonly reason: string };

/**
 * One line for an invalid file, shared by the table, JUnit and HTML reports: `<message> at line L,
 * column C` for malformed JSON, `<message> at <JSON Pointer>` per issue for a blueprint the engine refuses.
 */
export function describeInvalid(r: Extract<FileResult, { kind: 'invalid' }>): string {
  if (r.position) return `${r.error.message} at line ${r.position.line}, column ${r.position.column}`;
  if (r.error.issues.length === 0) return r.error.message;
  return r.error.issues.map((i) => `${i.message} at ${i.pointer || '/'}`).join('; ');
}
