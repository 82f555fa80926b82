/**
 * @module bench/lib/compare: this run's figures beside a previous run's (issue 20, item 6; which
 * previous run: bench/lib/baseline). A row is matched by its scenario and target, and its change
 * printed: `was 0.61 → now 0.45 (-26%)`.
 */

/** One row of a results table: scenario, target and the measured figure as printed. */
export interface ResultRow {
  readonly scenario: string;
  readonly target: string;
  readonly measured: string;
}

/** The rows of a Markdown results table (`| scenario | target | measured | met | detail |`); other lines are ignored. */
export function parseResultRows(markdown: string): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    // ['', scenario, target, measured, met, detail..., '']
    if (cells.length < 6 || cells[1] === 'scenario' || /^-+$/.test(cells[1] ?? '')) continue;
    rows.push({ scenario: cells[1]!, target: cells[2]!, measured: cells[3]! });
  }
  return rows;
}

/** The leading number of a measured figure (`0.61`, `359 MB`, `2.6%`), or null. */
function figure(measured: string): number | null {
  const m = /^-?\d+(?:\.\d+)?/.exec(measured.replace(/,/g, ''));
  return m ? Number(m[0]) : null;
}

/** The key a row is matched by: its scenario and target. */
export function rowKey(r: ResultRow): string {
  return `${r.scenario}\u0000${r.target}`;
}

/**
 * One line per row of `current`: its figure beside the previous one with the same scenario and
 * target, the relative change when both are numbers, or `(<missing>)` when `previous` lacks it.
 * @param missing what a row without a previous figure says (default `new`)
 */
export function compareRows(current: readonly ResultRow[], previous: readonly ResultRow[], missing = 'new'): string[] {
  const before = new Map(previous.map((r) => [rowKey(r), r.measured]));
  return current.map((r) => {
    const was = before.get(rowKey(r));
    if (was === undefined) return `${r.scenario}: ${r.target}: now ${r.measured} (${missing})`;
    const a = figure(was);
    const b = figure(r.measured);
    const change =
      a !== null && b !== null && a !== 0 ? ` (${b >= a ? '+' : ''}${Math.round(((b - a) / Math.abs(a)) * 100)}%)` : '';
    return `${r.scenario}: ${r.target}: was ${was} → now ${r.measured}${change}`;
  });
}
