/**
 * Issue 32: the risk model's table in `src/engine/risk/model.ts` and the one in `docs/engine.md`
 * ("Risk model (issue 32)") agree: same row ids in the same order, same severities, same policies.
 * Every policy the model names uses rows, and every row id is well formed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RISK_MODEL, riskRow } from '../../src/engine/risk/model.js';
import { POLICY_BY_CODE } from '../../src/engine/index.js';

const ENGINE_DOC = readFileSync(fileURLToPath(new URL('../../../docs/engine.md', import.meta.url)), 'utf8');

/** The rows of the docs table: `| R1 | condition | high | AI-1, AI-2 | source |`. */
function docRows(): { id: string; condition: string; severity: string; policies: string[] }[] {
  const start = ENGINE_DOC.indexOf('## Risk model (issue 32)');
  assert.ok(start >= 0, 'docs/engine.md has a "Risk model (issue 32)" section');
  const end = ENGINE_DOC.indexOf('\n## ', start + 1);
  const section = ENGINE_DOC.slice(start, end < 0 ? undefined : end);
  const rows: { id: string; condition: string; severity: string; policies: string[] }[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (!/^R\d+$/.test(cells[1] ?? '')) continue;
    rows.push({
      id: cells[1]!,
      condition: cells[2]!,
      severity: cells[3]!,
      policies: cells[4]!.split(',').map((p) => p.trim()),
    });
  }
  return rows;
}

describe('the risk model (issue 32)', () => {
  it('docs/engine.md lists every row of model.ts with the same id, severity, policies and statement', () => {
    const docs = docRows();
    assert.deepEqual(
      docs.map((r) => r.id),
      RISK_MODEL.map((r) => r.id),
    );
    for (const [i, r] of RISK_MODEL.entries()) {
      assert.equal(docs[i]!.severity, r.severity, `${r.id} severity`);
      assert.deepEqual(docs[i]!.policies, [...r.policies], `${r.id} policies`);
      assert.equal(docs[i]!.condition, r.title, `${r.id} statement`);
    }
  });

  it('row ids are R1, R2, ... in order, and every policy a row names exists', () => {
    RISK_MODEL.forEach((r, i) => assert.equal(r.id, `R${i + 1}`));
    for (const r of RISK_MODEL) for (const p of r.policies) assert.ok(POLICY_BY_CODE.get(p), `${r.id}: ${p}`);
  });

  it('riskRow carries the row and only the dimensions observed', () => {
    const r = riskRow('R2', { audience: 'third-party' });
    assert.deepEqual(r, { id: 'R2', title: RISK_MODEL[1]!.title, severity: 'high', audience: 'third-party' });
    assert.equal('trust' in r, false);
  });
});
