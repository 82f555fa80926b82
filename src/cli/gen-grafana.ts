/** @module cli/gen-grafana: writes grafana/dashboards/*.json from src/ops/panels.ts (`npm run grafana:build`). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DASHBOARDS } from '../ops/panels.js';
import { buildDashboard } from '../ops/grafana.js';

const dir = fileURLToPath(new URL('../../../grafana/dashboards/', import.meta.url));
for (const spec of DASHBOARDS)
  writeFileSync(`${dir}${spec.uid}.json`, `${JSON.stringify(buildDashboard(spec), null, 2)}\n`);
process.stdout.write(`wrote ${DASHBOARDS.length} dashboards to ${dir}\n`);
