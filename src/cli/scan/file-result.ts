/** @module cli/scan/file-result: what scanning one file gives (evaluated, invalid or skipped). */
import type { EngineError, ScenarioEvaluation } from '../../engine/index.js';

/** One scanned file. */
export type FileResult =
  | {
      readonly file: string;
      readonly text: string;
      readonly kind: 'evaluated';
      readonly evaluation: ScenarioEvaluation;
    }
  | { readonly file: string; readonly text: string; readonly kind: 'invalid'; readonly error: EngineError }
  | { readonly file: string; readonly kind: 'skipped'; readonly reason: string };
