/**
 * @module ops/grafana: builds Grafana dashboard JSON from the panel tables with Grafana's foundation
 * SDK. Every dashboard has a `$datasource` variable (any Prometheus data source; the provisioned one,
 * uid `gov-prometheus`, by default) that every panel and query uses, and an `$instance` variable
 * (the nodes that report `gov_build_info`; several or All) that every query's selectors match.
 */
import {
  DashboardBuilder,
  DatasourceVariableBuilder,
  QueryVariableBuilder,
  RowBuilder,
  VariableRefresh,
  VariableSort,
} from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder as TimeseriesBuilder } from '@grafana/grafana-foundation-sdk/timeseries';
import { PanelBuilder as StatBuilder } from '@grafana/grafana-foundation-sdk/stat';
import type { DashboardSpec } from './panels.js';
import { withInstanceFilter } from './instance-filter.js';

/** The data source provisioned by grafana/provisioning and deploy/grafana/provisioning: `$datasource`'s default. */
export const PROVISIONED_DATASOURCE = { type: 'prometheus', uid: 'gov-prometheus', name: 'Prometheus' };

/** What every panel and query names as its data source: the dashboard's `$datasource` variable. */
export const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

/**
 * The dashboard JSON schema version written: 39, what Grafana 11.1 (grafana/grafana:11.1.0, pinned by
 * docker-compose.yml and docker-compose.cluster.yml) writes when it saves a dashboard. The SDK
 * defaults to 42 (Grafana 12's last v1 schema); an older Grafana does not migrate a newer schema down.
 */
export const SCHEMA_VERSION = 39;

/** PromQL of the `$instance` variable: the `instance` label of every node's build-info series. */
export const INSTANCE_QUERY = 'label_values(gov_build_info, instance)';

/** A dashboard's JSON model. */
export function buildDashboard(spec: DashboardSpec): unknown {
  const builder = new DashboardBuilder(spec.title)
    .uid(spec.uid)
    .description(spec.description)
    .tags(['governance', 'gov'])
    .refresh('30s')
    .time({ from: 'now-1h', to: 'now' })
    .timezone('browser')
    .withVariable(
      new DatasourceVariableBuilder('datasource')
        .label('Data source')
        .type('prometheus')
        .current({ selected: true, text: PROVISIONED_DATASOURCE.name, value: PROVISIONED_DATASOURCE.uid }),
    )
    .withVariable(
      new QueryVariableBuilder('instance')
        .label('Instance')
        .description('Nodes of the service (the instance label of gov_build_info)')
        .datasource(DATASOURCE)
        .query(INSTANCE_QUERY)
        .definition(INSTANCE_QUERY)
        .refresh(VariableRefresh.OnTimeRangeChanged)
        .sort(VariableSort.AlphabeticalAsc)
        .multi(true)
        .includeAll(true)
        .allValue('.*')
        .current({ selected: true, text: ['All'], value: ['$__all'] }),
    );
  for (const row of spec.rows) {
    builder.withRow(new RowBuilder(row.title));
    for (const p of row.panels) {
      const targets = p.queries.map((query, i) =>
        new DataqueryBuilder()
          .expr(withInstanceFilter(query.expr))
          .legendFormat(query.legend)
          .refId(String.fromCharCode(65 + i))
          .datasource(DATASOURCE),
      );
      const panel =
        p.kind === 'stat'
          ? new StatBuilder()
              .title(p.title)
              .description(p.description)
              .unit(p.unit)
              .datasource(DATASOURCE)
              .height(6)
              .span(6)
          : new TimeseriesBuilder()
              .title(p.title)
              .description(p.description)
              .unit(p.unit)
              .datasource(DATASOURCE)
              .height(8)
              .span(12);
      for (const t of targets) panel.withTarget(t);
      builder.withPanel(panel);
    }
  }
  return { ...builder.build(), schemaVersion: SCHEMA_VERSION };
}
