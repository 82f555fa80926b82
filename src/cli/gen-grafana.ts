/**
 * @module cli/gen-grafana: writes the dashboards (`npm run grafana:build`): grafana/dashboards/*.json
 * from src/ops/panels.ts (one node), deploy/grafana/dashboards/*.json from src/ops/cluster-panels.ts
 * (cluster mode, provisioned by docker-compose.cluster.yml).
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DashboardSpec } from '../ops/panels.js';
import { DASHBOARDS } from '../ops/panels.js';
import { CLUSTER_DASHBOARDS } from '../ops/cluster-panels.js';
import { buildDashboard } from '../ops/grafana.js';

/** Where each set of dashboards is committed, relative to the repository root. */
export const DASHBOARD_DIRS: readonly { readonly dir: string; readonly specs: readonly DashboardSpec[] }[] = [
  { dir: 'grafana/dashboards/', specs: DASHBOARDS },
  { dir: 'deploy/grafana/dashboards/', specs: CLUSTER_DASHBOARDS },
];

for (const { dir, specs } of DASHBOARD_DIRS) {
  const path = fileURLToPath(new URL(`../../../${dir}`, import.meta.url));
  for (const spec of specs)
    writeFileSync(`${path}${spec.uid}.json`, `${JSON.stringify(buildDashboard(spec), null, 2)}\n`);
  process.stdout.write(`wrote ${specs.length} dashboards to ${path}\n`);
}
