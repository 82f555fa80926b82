/** @module cli/gen-policy-docs: writes docs/policies/*.md from the catalog (`npm run docs:policies`). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { POLICIES } from '../engine/index.js';
import { catalogIndex, policyPage } from '../engine/policies/docs.js';

const dir = fileURLToPath(new URL('../../../docs/policies/', import.meta.url));
mkdirSync(dir, { recursive: true });
for (const p of POLICIES) writeFileSync(`${dir}${p.code}.md`, policyPage(p));
writeFileSync(`${dir}README.md`, catalogIndex());
process.stdout.write(`wrote ${POLICIES.length} policy pages to ${dir}\n`);
