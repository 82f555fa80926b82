/** @module cli/gen-policy-docs: writes docs/policies/*.md from the catalog (`npm run docs:policies`). */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { POLICIES } from '../engine/index.js';
import { catalogIndex, policyPage, type MeasuredPrecision } from '../engine/policies/docs.js';

const dir = fileURLToPath(new URL('../../../docs/policies/', import.meta.url));
mkdirSync(dir, { recursive: true });
// The measured precision of each policy, as `npm run precision -- --write` last recorded it.
const precisionFile = fileURLToPath(new URL('../../../docs/precision.json', import.meta.url));
const measured = existsSync(precisionFile)
  ? (JSON.parse(readFileSync(precisionFile, 'utf8')) as { policies: Record<string, MeasuredPrecision> }).policies
  : {};
for (const p of POLICIES) writeFileSync(`${dir}${p.code}.md`, policyPage(p, measured[p.code]));
writeFileSync(`${dir}README.md`, catalogIndex());
process.stdout.write(`wrote ${POLICIES.length} policy pages to ${dir}\n`);
