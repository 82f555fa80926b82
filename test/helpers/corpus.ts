/** @module test/helpers/corpus: reads the shared corpus and its facts (never copied into this repository). */
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

/** All facts, one entry per corpus blueprint. */
export function corpusFacts(): CorpusFacts[] {
  return (JSON.parse(readFileSync(join(CORPUS_DIR, 'facts.json'), 'utf8')) as { blueprints: CorpusFacts[] }).blueprints;
}

/** The raw text of one corpus blueprint. */
export function corpusText(file: string): string {
  return readFileSync(join(CORPUS_DIR, file), 'utf8');
}

/** `$.flow[1].routes[0].flow[2].mapper.url` → `/flow/1/routes/0/flow/2/mapper/url`. */
export function jsonPathToPointer(path: string): string {
  return path.replace(/^\$/, '').replace(/\[(\d+)\]/g, '/$1').replace(/\.([^./[]+)/g, '/$1');
}
