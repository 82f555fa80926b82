/**
 * @module test/helpers/fixtures: the repository's own blueprint corpus (test/fixtures/corpus/), which
 * every clone has. It knows nothing of the shared corpora: a test that needs only these blueprints imports
 * this module, and stays out of the fresh-clone check's run (scripts/fresh-clone.mjs runs the tests
 * that reach test/helpers/corpus.ts, the one that does know).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of the repository's own corpus (small blueprints written for the tests, with their facts). */
export const FIXTURE_CORPUS_DIR = fileURLToPath(new URL('../../../test/fixtures/corpus/', import.meta.url));

/** The text of one of the repository's own blueprints (`order-webhook-router.blueprint.json`, ...). */
export function fixtureText(file: string): string {
  return readFileSync(join(FIXTURE_CORPUS_DIR, file), 'utf8');
}

/** One of the repository's own blueprints, parsed. */
export function fixtureJson(file: string): unknown {
  return JSON.parse(fixtureText(file));
}
