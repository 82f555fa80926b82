/**
 * @module console/pages/scenario: one scenario (`GET /api/v1/scenarios/{id}`): its picture with the
 * failing modules marked, each module's findings on selection, the violations with evidence (the
 * evidence path of a finding about data moving, its modules marked in the picture on hover and
 * selected on click, and the risk-model row that set its severity: components/evidence-path),
 * compliance controls and remediation (their Markdown rendered: components/markdown), and the
 * evaluation history.
 */
import { useState } from 'preact/hooks';
import { get } from '../api.js';
import type { FailingModule, ScenarioDetail, Violation } from '../types.js';
import { Badge, Loaded, PageTitle, When, useLoad } from '../components/common.js';
import { ScenarioSvg } from '../components/scenario-svg.js';
import { Link } from '../components/link.js';
import { Markdown } from '../components/markdown.js';
import { EvidencePath } from '../components/evidence-path.js';

/** A framework reference as text, e.g. `SOC 2 CC6.1`. */
function control(f: { framework: string; control?: string; article?: string }): string {
  return [f.framework, f.control ?? f.article].filter(Boolean).join(' ');
}

/** The scenario page. */
export function ScenarioPage(props: { id: string }) {
  const [load] = useLoad(() => get<ScenarioDetail>(`/scenarios/${encodeURIComponent(props.id)}`), [props.id]);
  return <Loaded load={load}>{(d) => <ScenarioBody d={d} />}</Loaded>;
}

function ScenarioBody({ d }: { d: ScenarioDetail }) {
  const [selected, setSelected] = useState<string | null>(null);
  const [highlighted, setHighlighted] = useState<readonly string[]>([]);
  const r = d.results;
  /** Selects a module of an evidence path and brings the picture into view. */
  const selectOnPicture = (id: string) => {
    setSelected(id);
    document.getElementById('picture-title')?.scrollIntoView({ block: 'start' });
  };
  const findings: { v: Violation; m: FailingModule }[] = [];
  if (selected !== null)
    for (const v of r.violations)
      for (const m of v.failing_modules) if (String(m.module_id) === selected) findings.push({ v, m });
  return (
    <>
      <p class="breadcrumb">
        <Link to="scenarios">Scenarios</Link> / <span class="mono">{d.scenario.scenario_id}</span>
      </p>
      <PageTitle>{d.scenario.name || d.scenario.scenario_id}</PageTitle>
      <dl class="kpis">
        <div>
          <dt>Score</dt>
          <dd>{r.score ?? '—'}</dd>
        </div>
        <div>
          <dt>Violations</dt>
          <dd>{r.violations.length}</dd>
        </div>
        <div>
          <dt>Modules</dt>
          <dd>{d.scenario.module_count}</dd>
        </div>
        <div>
          <dt>Evaluated</dt>
          <dd>
            <When iso={r.evaluated_at} />
          </dd>
        </div>
      </dl>

      <section aria-labelledby="picture-title" class="panel">
        <h2 id="picture-title">Modules</h2>
        <p class="muted">
          Failing modules are marked. Select a module (click, or Tab to it and press Enter) to see its findings.
        </p>
        <ScenarioSvg
          svg={d.svg}
          selected={selected}
          highlighted={highlighted}
          onSelect={setSelected}
          label={`Modules of ${d.scenario.name}`}
        />
        <div class="module-findings" aria-live="polite">
          {selected !== null && (
            <section aria-labelledby="module-title">
              <h3 id="module-title">Findings of module {selected}</h3>
              {findings.length === 0 ? (
                <p>No findings on this module.</p>
              ) : (
                <ul>
                  {findings.map(({ v, m }) => (
                    <li key={`${v.policy}-${m.fingerprint ?? m.reason}`}>
                      <Badge value={m.severity ?? v.severity} /> <strong class="mono">{v.policy}</strong> {v.title}:{' '}
                      <Markdown text={m.reason} />
                      {m.evidence && <div class="muted mono small">{m.evidence.pointer}</div>}
                      <EvidencePath
                        evidence={m.evidence}
                        severity={m.severity}
                        onSelect={setSelected}
                        onHighlight={setHighlighted}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </section>
          )}
        </div>
      </section>

      <section aria-labelledby="violations-title">
        <h2 id="violations-title">Violations</h2>
        {r.violations.length === 0 && (
          <p>No violations{r.evaluation_status === 'not_evaluated' ? ': never evaluated' : ''}.</p>
        )}
        {r.violations.map((v) => {
          const rem = d.remediation[v.policy];
          return (
            <article key={v.policy} class="violation" aria-labelledby={`v-${v.policy}`}>
              <h3 id={`v-${v.policy}`}>
                <Badge value={v.severity} /> <span class="mono">{v.policy}</span> {v.title}
                {v.status === 'warn' && <span class="muted"> (advisory)</span>}
              </h3>
              <Markdown block text={v.summary ?? v.description} />
              {v.failing_modules.length > 0 && (
                <table class="compact">
                  <caption>Evidence</caption>
                  <thead>
                    <tr>
                      <th scope="col">Module</th>
                      <th scope="col">Reason</th>
                      <th scope="col">Evidence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {v.failing_modules.map((m) => (
                      <tr key={m.fingerprint ?? `${m.module_id}-${m.reason}`}>
                        <th scope="row">
                          {m.module_name} <span class="muted">#{m.module_id}</span>
                        </th>
                        <td>
                          <Markdown text={m.reason} />
                          <EvidencePath
                            evidence={m.evidence}
                            severity={m.severity}
                            onSelect={selectOnPicture}
                            onHighlight={setHighlighted}
                          />
                        </td>
                        <td class="mono small">
                          {m.evidence?.pointer}
                          {m.evidence?.value !== undefined && <div>{m.evidence.value}</div>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {v.failing_modules.length === 0 && v.evidence && <p class="mono small">Evidence: {v.evidence.pointer}</p>}
              {v.compliance_frameworks && v.compliance_frameworks.length > 0 && (
                <p>
                  <strong>Controls:</strong> {v.compliance_frameworks.map(control).join(', ')}
                </p>
              )}
              {rem && rem.steps.length > 0 && (
                <div>
                  <h4>Remediation{rem.estimated_effort ? ` (effort: ${rem.estimated_effort})` : ''}</h4>
                  <ol>
                    {rem.steps.map((s, i) => (
                      <li key={i}>
                        <Markdown text={s} />
                      </li>
                    ))}
                  </ol>
                </div>
              )}
            </article>
          );
        })}
      </section>

      {r.compliance_gaps && r.compliance_gaps.length > 0 && (
        <section aria-labelledby="gaps-title">
          <h2 id="gaps-title">Compliance gaps</h2>
          <ul class="inline-list">
            {r.compliance_gaps.map((g) => (
              <li key={g}>{g}</li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="history-title">
        <h2 id="history-title">Evaluation history</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Evaluated</th>
              <th scope="col">Evaluation</th>
              <th scope="col">Score</th>
              <th scope="col">Violations</th>
            </tr>
          </thead>
          <tbody>
            {d.history.map((h) => (
              <tr key={h.evaluation_id}>
                <th scope="row">
                  <When iso={h.evaluated_at} />
                </th>
                <td class="mono">{h.evaluation_id}</td>
                <td>{h.score ?? '—'}</td>
                <td>
                  {typeof h.violations === 'number'
                    ? h.violations
                    : Object.values(h.violations).reduce((a, b) => a + b, 0)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
