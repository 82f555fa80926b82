/**
 * @module sdk/scripts/gen-types: writes `src/generated/openapi.ts` from the served OpenAPI document
 * (`docs/openapi.json`, which the contract test keeps equal to what `GET /openapi.json` serves) with
 * openapi-typescript, formatted by Prettier. `npm run sdk:types`; the drift test calls `generate()`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import prettier from 'prettier';

/** The served document, as committed in the repository. */
export const DOCUMENT_FILE = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
/** The generated module, committed. */
export const OUTPUT_FILE = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

const HEADER =
  '/**\n * @module sdk/generated/openapi: request and response types of the public API, generated from docs/openapi.json\n' +
  ' * by openapi-typescript. Do not edit: run `npm run sdk:types` (a test fails when this file drifts).\n */\n';

/**
 * The TypeScript source for an OpenAPI document (default: docs/openapi.json), Prettier-formatted with the
 * repository's settings. @returns the file's whole text.
 */
export async function generate(document = JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8'))) {
  const ast = await openapiTS(document, { alphabetize: false, exportType: false, emptyObjectsUnknown: true });
  const source = HEADER + astToString(ast);
  const options = (await prettier.resolveConfig(OUTPUT_FILE)) ?? {};
  return prettier.format(source, { ...options, parser: 'typescript' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OUTPUT_FILE, await generate());
  process.stdout.write(`wrote ${OUTPUT_FILE}\n`);
}
