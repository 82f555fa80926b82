/**
 * @module console/pages/scenarios: the scenario list, searched, filtered, sorted and paged on the
 * server (`GET /api/v1/scenarios`): the browser never holds the whole fleet.
 */
import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { BADGES, type ScenarioPage } from '../types.js';
import { Badge, Loaded, PageTitle, When, useLoad } from '../components/common.js';
import { Link } from '../components/link.js';

/** Sortable columns (the server's `sort` values) and their headings. */
const COLUMNS: readonly [sort: string, label: string][] = [
  ['name', 'Scenario'],
  ['score', 'Score'],
  ['badge', 'Worst badge'],
  ['violations', 'Violations'],
  ['evaluated_at', 'Evaluated'],
];
/** Rows per page. */
const PAGE_SIZE = 25;

/** The scenarios page. */
export function ScenariosPage() {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  const [badge, setBadge] = useState('');
  const [sort, setSort] = useState('name');
  const [order, setOrder] = useState<'asc' | 'desc'>('asc');
  // Cursors of the pages before this one (Previous) and of this one.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const cursor = cursors[cursors.length - 1] ?? null;
  useEffect(() => {
    const t = setTimeout(() => setQuery(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);
  useEffect(() => setCursors([null]), [query, badge, sort, order]);
  const [load] = useLoad(
    () => get<ScenarioPage>('/scenarios', { q: query, badge, sort, order, limit: PAGE_SIZE, cursor }),
    [query, badge, sort, order, cursor],
  );
  const sortBy = (col: string) => {
    if (col === sort) setOrder(order === 'asc' ? 'desc' : 'asc');
    else {
      setSort(col);
      setOrder(col === 'name' ? 'asc' : 'desc');
    }
  };
  return (
    <>
      <PageTitle>Scenarios</PageTitle>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label for="scenario-q">Search by name or id</label>
          <input id="scenario-q" type="search" value={q} onInput={(e) => setQ(e.currentTarget.value)} />
        </div>
        <div>
          <label for="scenario-badge">Worst badge</label>
          <select id="scenario-badge" value={badge} onChange={(e) => setBadge(e.currentTarget.value)}>
            <option value="">Any</option>
            {BADGES.map((b) => (
              <option key={b} value={b}>
                {b.replace('_', ' ')}
              </option>
            ))}
          </select>
        </div>
      </form>
      <Loaded load={load}>
        {(page) => (
          <>
            <p role="status">
              {page.total} scenario{page.total === 1 ? '' : 's'}
              {query || badge ? ' match' : ''}
            </p>
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">
                  Scenarios, sorted by {sort} ({order === 'asc' ? 'ascending' : 'descending'})
                </caption>
                <thead>
                  <tr>
                    {COLUMNS.map(([col, label]) => (
                      <th
                        key={col}
                        scope="col"
                        aria-sort={sort === col ? (order === 'asc' ? 'ascending' : 'descending') : undefined}
                      >
                        <button type="button" class="sort" onClick={() => sortBy(col)}>
                          {label}
                          <span aria-hidden="true">{sort === col ? (order === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                        </button>
                      </th>
                    ))}
                    <th scope="col">Modules</th>
                  </tr>
                </thead>
                <tbody>
                  {page.scenarios.map((s) => {
                    const total = Object.values(s.violations).reduce((a, b) => a + b, 0);
                    return (
                      <tr key={s.scenario_id}>
                        <th scope="row">
                          <Link to={`scenarios/${encodeURIComponent(s.scenario_id)}`}>{s.name || s.scenario_id}</Link>
                          <div class="muted mono small">{s.scenario_id}</div>
                        </th>
                        <td>{s.score ?? '—'}</td>
                        <td>
                          <Badge value={s.badge} />
                        </td>
                        <td>
                          {total}
                          {s.violations.critical > 0 && <span class="muted"> ({s.violations.critical} critical)</span>}
                        </td>
                        <td>
                          <When iso={s.evaluated_at} />
                        </td>
                        <td>{s.module_count}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <nav aria-label="Pages" class="row">
              <button type="button" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
                Previous page
              </button>
              <span>Page {cursors.length}</span>
              <button
                type="button"
                disabled={!page.next_cursor}
                onClick={() => page.next_cursor && setCursors([...cursors, page.next_cursor])}
              >
                Next page
              </button>
            </nav>
          </>
        )}
      </Loaded>
    </>
  );
}
