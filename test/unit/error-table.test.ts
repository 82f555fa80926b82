/** The error table keeps the spec's exact strings, and docs/api.md documents every string we added. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_ERRORS } from '../../src/server/errors.js';

const SPEC = fileURLToPath(new URL('../../../../shared/spec/public-api-v1.md', import.meta.url));
const API_DOC = readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');

it("uses the spec's exact error strings, and documents each added one", () => {
  const spec = readFileSync(SPEC, 'utf8');
  const specRows = new Map<string, number>();
  for (const line of spec.split('\n')) {
    const m = /^\| (\d{3}) \| (.+?) \|.*\|$/.exec(line);
    if (m) specRows.set(m[2]!.replace(/: <ids>$/, ''), Number(m[1]));
  }
  for (const [name, row] of Object.entries(API_ERRORS)) {
    const specStatus = specRows.get(row.error);
    if (specStatus !== undefined) assert.equal(row.status, specStatus, `${name}: status differs from the spec`);
    else
      assert.ok(
        API_DOC.includes(`\`${row.error}\``),
        `${name}: "${row.error}" is neither a spec row nor documented in docs/api.md`,
      );
  }
});
