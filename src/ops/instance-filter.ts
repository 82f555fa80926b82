/**
 * @module ops/instance-filter: adds a label matcher to every vector selector of a PromQL
 * expression, so that each dashboard query follows the dashboard's `$instance` variable. A small
 * scanner, not a parser: it knows PromQL's lexical classes (strings, numbers, durations, range and
 * subquery brackets, label matchers, label lists after `by`/`without`/`on`/`ignoring`/`group_left`/
 * `group_right`) and treats any other identifier not followed by `(` as a metric name (PromQL grammar,
 * https://prometheus.io/docs/prometheus/latest/querying/basics/).
 */

/** The matcher the dashboards add: the `$instance` template variable (multi-value, so a regex). */
export const INSTANCE_MATCHER = 'instance=~"$instance"';

/**
 * PromQL's keywords, which its lexer never reads as metric names: aggregation operators (followed by
 * `(` or by `by`/`without`), binary-operator and modifier keywords, and the float literals Inf and NaN.
 */
const KEYWORDS = new Set([
  ...['sum', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'count', 'count_values', 'bottomk', 'topk'],
  ...['quantile', 'limitk', 'limit_ratio'],
  ...['and', 'or', 'unless', 'bool', 'offset', 'atan2', 'inf', 'nan'],
]);
/** Keywords followed by a parenthesised label list. */
const LABEL_LIST = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

/** Thrown for PromQL this scanner does not handle (an unterminated string, a bare `{…}` selector). */
export class UnsupportedPromQL extends Error {}

/**
 * `expr` with `matcher` as the first label matcher of every vector selector:
 * `rate(a{x="1"}[5m]) / b` → `rate(a{instance=~"$instance",x="1"}[5m]) / b{instance=~"$instance"}`.
 * Function names, keywords, label lists, strings, numbers and durations are left as they are.
 * @throws UnsupportedPromQL on an unterminated string or bracket, or a selector without a metric name.
 */
export function withInstanceFilter(expr: string, matcher: string = INSTANCE_MATCHER): string {
  let out = '';
  let i = 0;
  /** Index just past the delimiter that closes the group opened at `from` (strings inside skipped). */
  const closing = (from: number, close: string): number => {
    for (let j = from + 1; j < expr.length; j++) {
      const c = expr[j]!;
      if (c === '"' || c === "'" || c === '`') j = stringEnd(expr, j) - 1;
      else if (c === close) return j + 1;
    }
    throw new UnsupportedPromQL(`unterminated ${expr[from]} at ${from} in ${expr}`);
  };
  while (i < expr.length) {
    const c = expr[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = stringEnd(expr, i);
      out += expr.slice(i, end);
      i = end;
      continue;
    }
    if (c === '[') {
      const end = closing(i, ']');
      out += expr.slice(i, end);
      i = end;
      continue;
    }
    if (c === '{') throw new UnsupportedPromQL(`a selector without a metric name at ${i} in ${expr}`);
    if (/\d/.test(c) || (c === '.' && /\d/.test(expr[i + 1] ?? ''))) {
      const number = /^(?:(?:\d+(?:ms|[smhdwy]))+|0x[0-9a-f]+|\d*\.?\d+(?:e[+-]?\d+)?)/i.exec(expr.slice(i))![0];
      out += number;
      i += number.length;
      continue;
    }
    const ident = /^[A-Za-z_:][\w:]*/.exec(expr.slice(i))?.[0];
    if (!ident) {
      out += c;
      i++;
      continue;
    }
    i += ident.length;
    const ws = /^\s*/.exec(expr.slice(i))![0];
    const next = expr[i + ws.length];
    if (LABEL_LIST.has(ident.toLowerCase())) {
      out += ident + ws;
      i += ws.length;
      if (next === '(') {
        const end = closing(i, ')');
        out += expr.slice(i, end);
        i = end;
      }
      continue;
    }
    if (KEYWORDS.has(ident.toLowerCase()) || next === '(') {
      out += ident;
      continue;
    }
    // A metric name: add the matcher to its braces, or give it braces.
    if (next === '{') {
      const open = i + ws.length;
      const end = closing(open, '}');
      const inner = expr.slice(open + 1, end - 1).trim();
      out += `${ident}{${matcher}${inner ? `,${inner}` : ''}}`;
      i = end;
    } else out += `${ident}{${matcher}}`;
  }
  return out;
}

/** Index just past the string literal that starts at `from` (double, single or back quotes; `\` escapes except in back quotes). */
function stringEnd(expr: string, from: number): number {
  const quote = expr[from]!;
  for (let j = from + 1; j < expr.length; j++) {
    if (expr[j] === '\\' && quote !== '`') j++;
    else if (expr[j] === quote) return j + 1;
  }
  throw new UnsupportedPromQL(`unterminated string at ${from} in ${expr}`);
}
