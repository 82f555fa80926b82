/**
 * The error table keeps the spec's exact strings (public-api-v1 §7, carried as test/fixtures/spec-errors.ts),
 * docs/api.md documents every string we added, and the carried rows are the spec's own when the spec is here.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { API_ERRORS } from '../../src/server/errors.js';
import { SHARED_SPEC_FILE } from '../helpers/corpus.js';
import { SPEC_ERROR_ROWS } from '../fixtures/spec-errors.js';

const API_DOC = readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');

it("uses the spec's exact error strings, and documents each added one", () => {
  const specRows = new Map(SPEC_ERROR_ROWS.map((r) => [r.error.replace(/: <ids>$/, ''), r.status]));
  let fromSpec = 0;
  for (const [name, row] of Object.entries(API_ERRORS)) {
    const specStatus = specRows.get(row.error);
    if (specStatus !== undefined) {
      fromSpec++;
      assert.equal(row.status, specStatus, `${name}: status differs from the spec`);
    } else
      assert.ok(
        API_DOC.includes(`\`${row.error}\``),
        `${name}: "${row.error}" is neither a spec row nor documented in docs/api.md`,
      );
  }
  assert.ok(fromSpec >= 20, `only ${fromSpec} rows of the table are the spec's`);
});

it(
  "carries the spec's error rows as they stand in public-api-v1 §7",
  {
    skip: existsSync(SHARED_SPEC_FILE)
      ? false
      : `${SHARED_SPEC_FILE} not found: compared when the spec is beside the repository`,
  },
  () => {
    const rows = [];
    for (const line of readFileSync(SHARED_SPEC_FILE, 'utf8').split('\n')) {
      const m = /^\| (\d{3}) \| (.+?) \| ?(.*?) ?\|$/.exec(line);
      if (m) rows.push({ status: Number(m[1]), error: m[2]!, cause: m[3]! });
    }
    assert.deepEqual(SPEC_ERROR_ROWS, rows);
  },
);
