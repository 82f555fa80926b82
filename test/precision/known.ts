/**
 * @module test/precision/known: the known disagreements of the labelled set
 * (`test/precision/known-disagreements.json`): in-sample findings where the engine and a reviewer's
 * label differ and no general rule settles it (issue 32: a rule written for one file does not
 * generalise). They count in every figure of docs/precision.md; `precision.test` skips them in its
 * strict checks and fails when one no longer disagrees; `npm run precision` lists them apart.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One known disagreement, with why no general rule settles it. */
export interface KnownDisagreement {
  readonly policy: string;
  readonly file: string;
  readonly module: string;
  readonly severity: string;
  readonly why: string;
}

/** Where the list lives (the source tree). */
export const KNOWN_FILE = fileURLToPath(new URL('../../../test/precision/known-disagreements.json', import.meta.url));

/** Reads the list. @throws SyntaxError when the file is not JSON. */
export function loadKnown(file: string = KNOWN_FILE): KnownDisagreement[] {
  return (JSON.parse(readFileSync(file, 'utf8')) as { disagreements: KnownDisagreement[] }).disagreements;
}

/** The key of a finding at a severity (`PRIV-1 make-more/x #3 high`), as the list is matched. */
export function knownKey(f: {
  readonly policy: string;
  readonly file: string;
  readonly module: string;
  readonly severity: string;
}): string {
  return `${f.policy} ${f.file} #${f.module} ${f.severity}`;
}
