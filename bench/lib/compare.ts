/**
 * @module bench/lib/compare: this run's figures beside the last committed full run's (issue 20, item
 * 6). The committed results are the table of docs/performance.md (written by a full `npm run bench`);
 * a row is matched by its scenario and target, and its change printed: `was 0.61 → now 0.45 (-26%)`.
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

/**
 * One line per row of `current`: its figure beside the committed one with the same scenario and
 * target, the relative change when both are numbers, or `new` when the committed table lacks it.
 */
export function compareRows(current: readonly ResultRow[], committed: readonly ResultRow[]): string[] {
  const before = new Map(committed.map((r) => [`${r.scenario}\u0000${r.target}`, r.measured]));
  return current.map((r) => {
    const was = before.get(`${r.scenario}\u0000${r.target}`);
    if (was === undefined) return `${r.scenario}: ${r.target}: now ${r.measured} (new)`;
    const a = figure(was);
    const b = figure(r.measured);
    const change =
      a !== null && b !== null && a !== 0 ? ` (${b >= a ? '+' : ''}${Math.round(((b - a) / Math.abs(a)) * 100)}%)` : '';
    return `${r.scenario}: ${r.target}: was ${was} → now ${r.measured}${change}`;
  });
}
