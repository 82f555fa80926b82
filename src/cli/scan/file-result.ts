/** @module cli/scan/file-result: what scanning one file gives (evaluated, invalid or skipped). */
import type { EngineError, ScenarioEvaluation } from '../../engine/index.js';
import type { TextPosition } from './json-position.js';
import type { Region } from './source-map.js';

/**
 * Where one finding sits in its file (SARIF): the JSON Pointer located (the finding's evidence, else
 * its module's `module` member, else its module, else the document) and its region.
 */
export interface FindingLocation {
  readonly pointer: string;
  readonly region: Region;
}

/** One scanned file. */
export type FileResult =
  | {
      readonly file: string;
      readonly kind: 'evaluated';
      readonly evaluation: ScenarioEvaluation;
      /** The file's text, kept only when a report needs it (`ScanOptions.keepText`: HTML draws the scenario). */
      readonly text?: string;
      /** Each finding's location by fingerprint (`ScanOptions.locate`: SARIF), from one pass over the text. */
      readonly locations?: ReadonlyMap<string, FindingLocation>;
      /** Each module of the findings' evidence paths by module id (`ScanOptions.locate`: SARIF `codeFlows`), from the same pass. */
      readonly moduleLocations?: ReadonlyMap<string, FindingLocation>;
      /** The further places of findings reported once for several (`evidence.locations`), by JSON Pointer, from the same pass. */
      readonly placeLocations?: ReadonlyMap<string, FindingLocation>;
    }
  | {
      readonly file: string;
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
