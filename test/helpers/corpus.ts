/** @module test/helpers/corpus: reads the shared corpora and their facts (never copied into this repository). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_DIR } from './server.js';

/** One blueprint's verified facts (corpus facts.json). */
export interface CorpusFacts {
  readonly file: string;
  readonly webhook_trigger: boolean;
  readonly error_handlers: boolean;
  readonly ai: boolean;
  readonly flags: Readonly<Record<string, string>>;
  readonly credentials: readonly { path: string; kind: string }[];
  readonly placeholder_credentials: readonly string[];
  readonly plain_http: readonly string[];
  readonly ai_modules: readonly string[];
}

/** The development corpora: `make` (50 exports) and `make-extra` (25 hard cases for issue 14). */
export type CorpusName = 'make' | 'make-extra';

const dirOf = (corpus: CorpusName): string => (corpus === 'make' ? CORPUS_DIR : join(CORPUS_DIR, '..', 'make-extra'));

/** All facts, one entry per corpus blueprint. */
export function corpusFacts(corpus: CorpusName = 'make'): CorpusFacts[] {
  return (JSON.parse(readFileSync(join(dirOf(corpus), 'facts.json'), 'utf8')) as { blueprints: CorpusFacts[] })
    .blueprints;
}

/** The raw text of one corpus blueprint. */
export function corpusText(file: string, corpus: CorpusName = 'make'): string {
  return readFileSync(join(dirOf(corpus), file), 'utf8');
}

/** One corpus blueprint as parsed JSON (a UTF-8 BOM, as in some exports, is dropped first). */
export function corpusJson(file: string, corpus: CorpusName = 'make'): unknown {
  return JSON.parse(corpusText(file, corpus).replace(/^\uFEFF/, ''));
}

/** `$.flow[1].routes[0].flow[2].mapper.url` → `/flow/1/routes/0/flow/2/mapper/url`. */
export function jsonPathToPointer(path: string): string {
  return path
    .replace(/^\$/, '')
    .replace(/\[(\d+)\]/g, '/$1')
    .replace(/\.([^./[]+)/g, '/$1');
}

/** The value at a facts.json path in a parsed blueprint (undefined when absent). */
export function valueAt(blueprint: unknown, path: string): unknown {
  let at: unknown = blueprint;
  for (const token of jsonPathToPointer(path).split('/').slice(1)) {
    at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[token] : undefined;
  }
  return at;
}

/**
 * Credentials found by review that a set's facts.json does not record (to be reported to the corpus
 * owner). Precision tests expect SEC-1 to report exactly the recorded credentials and these.
 */
export const UNRECORDED_CREDENTIALS: Readonly<
  Record<CorpusName, Readonly<Record<string, readonly { path: string; kind: string }[]>>>
> = {
  make: {
    // Module 19 and its three siblings POST a literal TOTP seed (`"secret": "<32 base32>"`, `"algorithm": "SHA1"`,
    // RFC 6238 shared secret K) of a shared account to a TOTP generator: anyone with the export can mint that account's codes.
    'luxisoft-automatizacion-venta.blueprint.json': [0, 1, 2, 3].map((route) => ({
      path: `$.flow[1].routes[3].flow[7].routes[0].flow[1].routes[1].flow[0].routes[0].flow[0].routes[${route}].flow[0].mapper.data`,
      kind: 'totp-shared-secret-in-json-body',
    })),
  },
  'make-extra': {},
};
