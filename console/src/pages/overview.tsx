/** @module console/pages/overview: the fleet at a glance (`GET /api/v1/overview`): score, badges, top violations, framework coverage, evaluations over time. */
import { useMemo } from 'preact/hooks';
import { get } from '../api.js';
import { BADGES, type Overview } from '../types.js';
import { Badge, Loaded, PageTitle, useLoad } from '../components/common.js';
import { ChartView } from '../components/chart.js';
import { Link } from '../components/link.js';

/** The overview page. */
export function OverviewPage() {
  const [load] = useLoad(() => get<Overview>('/overview'), []);
  return (
    <>
      <PageTitle>Fleet overview</PageTitle>
      <Loaded load={load}>{(o) => <OverviewBody o={o} />}</Loaded>
    </>
  );
}

function OverviewBody({ o }: { o: Overview }) {
  const r = o.rollup;
  // `unknown` only when some scenario has it (results kept from before issue 18; the API sends it only then).
  const badges = useMemo(() => BADGES.filter((b) => b !== 'unknown' || (o.badges[b] ?? 0) > 0), [o]);
  const badgeSeries = useMemo(
    () => [{ label: 'Scenarios', values: badges.map((b) => o.badges[b] ?? 0), color: '#334155' }],
    [o, badges],
  );
  const badgeLabels = useMemo(() => badges.map((b) => b.replace('_', ' ')), [badges]);
  const days = useMemo(() => o.evaluations_by_day.map((d) => d.day.slice(5)), [o]);
  const daySeries = useMemo(
    () => [
      { label: 'Evaluations', values: o.evaluations_by_day.map((d) => d.evaluations), color: '#1d4ed8' },
      { label: 'Scenarios evaluated', values: o.evaluations_by_day.map((d) => d.scenarios), color: '#15803d' },
    ],
    [o],
  );
  const fwLabels = useMemo(() => r.framework_coverage.map((f) => f.framework), [r]);
  const fwSeries = useMemo(
    () => [
      {
        label: 'Coverage %',
        values: r.framework_coverage.map((f) => Math.round(f.coverage * 1000) / 10),
        color: '#0f766e',
      },
    ],
    [r],
  );
  return (
    <>
      <section aria-labelledby="kpi-title">
        <h2 id="kpi-title">Rollup</h2>
        <dl class="kpis">
          <div>
            <dt>Fleet score</dt>
            <dd>{r.score === null ? '—' : r.score}</dd>
          </div>
          <div>
            <dt>Scenarios</dt>
            <dd>
              {r.scenarios_evaluated} evaluated of {r.scenarios_total}
            </dd>
          </div>
          <div>
            <dt>Violations</dt>
            <dd>{r.violations_total}</dd>
          </div>
          <div>
            <dt>Critical</dt>
            <dd>{r.critical_total}</dd>
          </div>
        </dl>
      </section>

      <section aria-labelledby="badges-title" class="panel">
        <h2 id="badges-title">Scenarios by worst badge</h2>
        <ChartView
          kind="bar"
          labels={badgeLabels}
          series={badgeSeries}
          summary="Bar chart of scenarios by worst badge; the table below lists the numbers"
        />
        <table class="compact">
          <caption class="visually-hidden">Scenarios by worst badge</caption>
          <thead>
            <tr>
              <th scope="col">Badge</th>
              <th scope="col">Scenarios</th>
            </tr>
          </thead>
          <tbody>
            {badges.map((b) => (
              <tr key={b}>
                <th scope="row">
                  <Badge value={b} />
                </th>
                <td>{o.badges[b] ?? 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="top-title" class="panel">
        <h2 id="top-title">Top violations</h2>
        {r.top_violations.length === 0 ? (
          <p class="muted">No violations.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Policy</th>
                <th scope="col">Title</th>
                {/* The rollup carries each policy's catalog severity, not its findings' (a risk model may lower those). */}
                <th
                  scope="col"
                  title="The policy's severity in the catalog. A scenario's own findings may be rated lower by their risk model: open the scenario to see them."
                >
                  Catalog severity
                </th>
                <th scope="col">Scenarios</th>
                <th scope="col">Findings</th>
              </tr>
            </thead>
            <tbody>
              {r.top_violations.map((v) => (
                <tr key={v.policy}>
                  <th scope="row" class="mono">
                    {v.policy}
                  </th>
                  <td>{v.title}</td>
                  <td>
                    <Badge value={v.severity} />
                  </td>
                  <td>{v.scenarios}</td>
                  <td>{v.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="fw-title" class="panel">
        <h2 id="fw-title">Framework coverage</h2>
        {r.framework_coverage.length > 0 && (
          <ChartView
            kind="bar"
            horizontal
            labels={fwLabels}
            series={fwSeries}
            summary="Bar chart of control coverage per compliance framework, in percent; the table below lists the numbers"
          />
        )}
        <table>
          <thead>
            <tr>
              <th scope="col">Framework</th>
              <th scope="col">Controls met</th>
              <th scope="col">Controls cited</th>
              <th scope="col">Coverage</th>
            </tr>
          </thead>
          <tbody>
            {r.framework_coverage.map((f) => (
              <tr key={f.framework}>
                <th scope="row">{f.framework}</th>
                <td>{f.controls_met}</td>
                <td>{f.controls_total}</td>
                <td>{(f.coverage * 100).toFixed(1)} %</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="days-title" class="panel">
        <h2 id="days-title">Evaluations over the last 30 days</h2>
        <ChartView
          kind="line"
          labels={days}
          series={daySeries}
          summary="Line chart of evaluations and scenarios evaluated per day; the table below lists the numbers"
        />
        <details>
          <summary>Evaluations per day (table)</summary>
          <table class="compact">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Evaluations</th>
                <th scope="col">Scenarios</th>
              </tr>
            </thead>
            <tbody>
              {o.evaluations_by_day.map((d) => (
                <tr key={d.day}>
                  <th scope="row">{d.day}</th>
                  <td>{d.evaluations}</td>
                  <td>{d.scenarios}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </section>
      <p>
        <Link to="scenarios">Browse every scenario</Link>
      </p>
    </>
  );
}
