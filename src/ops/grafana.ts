/** @module ops/grafana: builds Grafana dashboard JSON from the panel tables with Grafana's foundation SDK. */
import { DashboardBuilder, RowBuilder } from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder as TimeseriesBuilder } from '@grafana/grafana-foundation-sdk/timeseries';
import { PanelBuilder as StatBuilder } from '@grafana/grafana-foundation-sdk/stat';
import type { DashboardSpec } from './panels.js';

/** The Prometheus data source every panel uses (provisioned with this uid). */
export const DATASOURCE = { type: 'prometheus', uid: 'gov-prometheus' };

/** A dashboard's JSON model. */
export function buildDashboard(spec: DashboardSpec): unknown {
  const builder = new DashboardBuilder(spec.title)
    .uid(spec.uid)
    .description(spec.description)
    .tags(['governance', 'gov'])
    .refresh('30s')
    .time({ from: 'now-1h', to: 'now' })
    .timezone('browser');
  for (const row of spec.rows) {
    builder.withRow(new RowBuilder(row.title));
    for (const p of row.panels) {
      const targets = p.queries.map((query, i) =>
        new DataqueryBuilder()
          .expr(query.expr)
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
  return builder.build();
}
