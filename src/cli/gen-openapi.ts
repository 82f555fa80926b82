/** @module cli/gen-openapi: writes docs/openapi.json from the code (`npm run docs:openapi`). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../server/openapi/document.js';

const file = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
writeFileSync(file, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
process.stdout.write(`wrote ${file}\n`);
