/**
 * @module engine/policies/di/route-cover: which bundles a router's filtered routes let through,
 * decided on the filters alone. A Make filter is an OR of AND groups of conditions `{ a, o, b }`
 * (corpus FORMAT.md "filter"); a router sends each bundle to every route whose filter passes
 * (Make Help, *Router*). Conditions are read as propositions: the same operand `a` and value `b`
 * under an operator and its negation (`exist` / `notexist`, `text:equal` / `text:notequal`,
 * `number:greater` / `number:lessorequal`) is one proposition and its negation; anything else is an
 * independent proposition. Known relations between propositions (`constraintsOf`): two `equal`
 * conditions on one operand with different literal values cannot both hold, nor `notexist` and an
 * `equal` to a literal, nor two of `=`, `>`, `<` against one value (numbers, dates, times); an
 * operand compared with both `true` and `false` is a boolean, one of them holds; a count
 * (`length(…)`, `__IMTLENGTH__`) is never negative, and a module's `__IMTLENGTH__` is at least 1
 * wherever one of its bundles is read. An operand the caller resolves to a constant (`resolve`: a
 * variable set once to a literal) decides its conditions. Every assignment of the propositions is
 * tried (at most `MAX_PROPOSITIONS`), so the answers are exact for this reading and conservative
 * otherwise: coverage is claimed only when it holds whatever the unknown conditions are.
 */
import type { JsonObject, ModuleFilter } from '../../blueprint/types.js';

/** Most distinct propositions decided (2^12 assignments); beyond it the router is not judged. */
export const MAX_PROPOSITIONS = 12;

/** What a router's route filters let through. */
export interface RouteCover {
  /** Every bundle passes at least one route: the filters are complementary (`X exists` / `X notexist`). */
  readonly complete: boolean;
  /** Some bundle can pass two routes or more: the routes are independent steps, not a case split. */
  readonly overlapping: boolean;
  /**
   * Every bundle would pass a route if the exclusions were dropped: negated conditions (`≠ X`,
   * `does not match P`) on a proposition no other route tests positively. The bundles no route takes
   * are then the ones the author excluded by name (a repost, a test payment, a contact already at
   * the right company), not an unforeseen case.
   */
  readonly completeButExclusions: boolean;
}

/** Resolves an operand (`{{11.path}}`) to the literal it always holds, `null` when it varies. */
export type OperandResolver = (operand: string) => string | null;

/** Operators whose negation is another operator (Make filter operator names); `:ci` variants follow. */
const NEGATION: Readonly<Record<string, readonly [string, boolean]>> = {
  exist: ['exist', true],
  notexist: ['exist', false],
  'number:greater': ['number:greater', true],
  'number:lessorequal': ['number:greater', false],
  'number:less': ['number:less', true],
  'number:greaterorequal': ['number:less', false],
  'date:greater': ['date:greater', true],
  'date:lessorequal': ['date:greater', false],
  'date:less': ['date:less', true],
  'date:greaterorequal': ['date:less', false],
  'time:greater': ['time:greater', true],
  'time:lessorequal': ['time:greater', false],
  'time:less': ['time:less', true],
  'time:greaterorequal': ['time:less', false],
};

interface Literal {
  readonly variable: number;
  readonly positive: boolean;
}

/** What is known about one proposition, for the constraints between propositions. */
interface Proposition {
  readonly operand: string;
  /** Operator family with its `:ci` flag (`text:equal:ci`, `number:greater`, `exist`). */
  readonly family: string;
  /** The compared value (lower-cased under `:ci`), `''` for `exist`. */
  readonly value: string;
  /** The truth value when the operand is a known constant, else `null`. */
  readonly constant: boolean | null;
}

/** A constraint over an assignment (bit i = proposition i holds). */
type Constraint = (bits: number) => boolean;

/** Operands that are always a count: Make's `length()` and the `__IMTLENGTH__` of a module's bundles. */
const COUNT_OPERAND = /^\{\{\s*length\(|__IMTLENGTH__/;
/** A module's own bundle count, read from one of its bundles: at least 1. */
const BUNDLE_COUNT_OPERAND = /^\{\{\s*\d+\.`?__IMTLENGTH__`?\s*\}\}$/;
const BOOLEAN_VALUE = /^(?:\{\{\s*)?(true|false)(?:\s*\}\})?$/i;

/**
 * Decides what the filters of a router's routes (one per enabled route) let through, or `null` when
 * they hold more than `MAX_PROPOSITIONS` distinct propositions.
 */
export function routeCover(filters: readonly ModuleFilter[], resolve: OperandResolver = () => null): RouteCover | null {
  const variables = new Map<string, number>();
  const propositions: Proposition[] = [];
  const routes: Literal[][][] = filters.map((f) =>
    f.conditions.map((group) => group.map((c) => literal(c, variables, propositions, resolve))),
  );
  const n = variables.size;
  if (n > MAX_PROPOSITIONS) return null;
  const constraints = constraintsOf(propositions);
  const withoutExclusions = routes.map((groups, r) =>
    groups.map((g) => g.filter((l) => !excludes(l, g, r, routes, propositions))),
  );
  let complete = true;
  let overlapping = false;
  let completeButExclusions = true;
  let valid = 0;
  for (let bits = 0; bits < 1 << n; bits++) {
    if (!constraints.every((holds) => holds(bits))) continue;
    valid++;
    const passing = passes(routes, bits);
    if (passing === 0) complete = false;
    if (passing > 1) overlapping = true;
    if (passing === 0 && passes(withoutExclusions, bits) === 0) completeButExclusions = false;
  }
  // No consistent assignment: filters that can never pass (or a relation read wrongly); nothing is decided.
  if (valid === 0) return null;
  return { complete, overlapping, completeButExclusions };
}

function passes(routes: readonly (readonly (readonly Literal[])[])[], bits: number): number {
  let count = 0;
  for (const groups of routes) if (groups.some((g) => g.every((l) => bit(bits, l.variable) === l.positive))) count++;
  return count;
}

/**
 * A negated literal whose proposition no other route tests positively, narrowing a route that is
 * defined by something else: another condition of its group, or the same operand tested by another
 * route (`≠ DDkpyu and ≠ test_…` against `= {{41.codigo_extra}}`). A route whose only condition is
 * `role does not exist` is not an exclusion: that is what the route is for.
 */
function excludes(
  l: Literal,
  group: readonly Literal[],
  route: number,
  routes: readonly (readonly (readonly Literal[])[])[],
  props: readonly Proposition[],
): boolean {
  const candidate = (x: Literal, r: number) =>
    !x.positive &&
    !routes.some((groups, o) => o !== r && groups.some((g) => g.some((y) => y.variable === x.variable && y.positive)));
  if (!candidate(l, route)) return false;
  if (group.some((x) => x !== l && !candidate(x, route))) return true;
  const operand = props[l.variable]!.operand;
  return routes.some(
    (groups, o) => o !== route && groups.some((g) => g.some((y) => props[y.variable]!.operand === operand)),
  );
}

function literal(
  c: JsonObject,
  variables: Map<string, number>,
  propositions: Proposition[],
  resolve: OperandResolver,
): Literal {
  const a = typeof c['a'] === 'string' ? c['a'].trim() : '';
  const op = typeof c['o'] === 'string' ? c['o'] : '';
  const base = op.endsWith(':ci') ? op.slice(0, -3) : op;
  const [family, positive] =
    NEGATION[base] ?? (base.includes(':not') ? [base.replace(':not', ':'), false] : [base, true]);
  const b = c['b'] ?? '';
  // A container operand (malformed export) is compared by its JSON text, so two different ones stay two propositions.
  const raw =
    family === 'exist' ? '' : typeof b === 'string' ? b.trim() : typeof b === 'object' ? JSON.stringify(b) : String(b);
  // Case only matters for a value with letters: `= "200"` and `≠ "200" (case-insensitive)` are one proposition.
  const ci = op.endsWith(':ci') && raw.toLowerCase() !== raw.toUpperCase();
  const value = ci ? raw.toLowerCase() : raw;
  const fam = `${family}${ci ? ':ci' : ''}`;
  const key = `${a}\u0000${fam}\u0000${value}`;
  let variable = variables.get(key);
  if (variable === undefined) {
    variable = variables.size;
    variables.set(key, variable);
    propositions.push({ operand: a, family: fam, value, constant: decide(resolve(a), family, value, ci) });
  }
  return { variable, positive };
}

/** The truth of a proposition on a constant operand, for the operators whose meaning is plain; `null` otherwise. */
function decide(constant: string | null, family: string, value: string, ci: boolean): boolean | null {
  if (constant === null || value.includes('{{'))
    return family === 'exist' && constant !== null ? constant !== '' : null;
  const v = ci ? constant.toLowerCase() : constant;
  switch (family) {
    case 'exist':
      return v !== '';
    case 'text:equal':
      return v === value;
    case 'text:contain':
      return v.includes(value);
    case 'number:equal':
      return v.trim() !== '' && value.trim() !== '' ? Number(v) === Number(value) : null;
    default:
      return null;
  }
}

const isLiteral = (v: string) => v !== '' && !v.includes('{{');
const bit = (bits: number, i: number) => ((bits >> i) & 1) === 1;

/**
 * The impossible combinations: a constant operand's decided propositions; two `equal` propositions
 * on one operand with different literal values; `equal` to a literal while the operand does not
 * exist; two of `=`, `>`, `<` against one value; neither `= true` nor `= false` on one operand; and
 * for a count, none of `=`, `>`, `<` when `<` cannot hold (against its least value or below).
 */
function constraintsOf(props: readonly Proposition[]): Constraint[] {
  const out: Constraint[] = [];
  props.forEach((p, i) => {
    if (p.constant !== null) out.push((b) => bit(b, i) === p.constant);
  });
  for (let x = 0; x < props.length; x++) {
    const px = props[x]!;
    if (!/:equal(?::ci)?$/.test(px.family) || !isLiteral(px.value)) continue;
    for (let y = x + 1; y < props.length; y++) {
      const py = props[y]!;
      if (py.operand === px.operand && py.family === px.family && isLiteral(py.value) && py.value !== px.value)
        out.push((b) => !(bit(b, x) && bit(b, y)));
    }
    for (let y = 0; y < props.length; y++)
      if (props[y]!.family === 'exist' && props[y]!.operand === px.operand) out.push((b) => !bit(b, x) || bit(b, y));
  }
  // An operand compared with both `true` and `false` is a boolean: one of the two holds.
  const booleans = new Map<string, { t?: number; f?: number }>();
  props.forEach((p, i) => {
    const m = /:equal$/.test(p.family) ? BOOLEAN_VALUE.exec(p.value) : null;
    if (!m) return;
    const entry = booleans.get(p.operand) ?? {};
    entry[m[1]!.toLowerCase() === 'true' ? 't' : 'f'] = i;
    booleans.set(p.operand, entry);
  });
  for (const { t, f } of booleans.values())
    if (t !== undefined && f !== undefined) out.push((b) => bit(b, t) || bit(b, f));
  // Orders: at most one of =, >, < against one value; a count also has a least value (0, or 1 for a bundle count).
  const orders = new Map<string, { eq?: number; gt?: number; lt?: number; operand: string; value: string }>();
  props.forEach((p, i) => {
    const m = /^(number|date|time):(equal|greater|less)$/.exec(p.family);
    if (!m) return;
    const key = `${m[1]}\u0000${p.operand}\u0000${m[1] === 'number' && isLiteral(p.value) ? Number(p.value) : p.value}`;
    const entry = orders.get(key) ?? { operand: p.operand, value: p.value };
    entry[m[2] === 'equal' ? 'eq' : m[2] === 'greater' ? 'gt' : 'lt'] = i;
    orders.set(key, entry);
  });
  for (const { eq, gt, lt, operand, value } of orders.values()) {
    const present = [eq, gt, lt].filter((i): i is number => i !== undefined);
    out.push((b) => present.filter((i) => bit(b, i)).length <= 1);
    const least = BUNDLE_COUNT_OPERAND.test(operand) ? 1 : COUNT_OPERAND.test(operand) ? 0 : null;
    if (least === null || !isLiteral(value) || !Number.isFinite(Number(value))) continue;
    const n = Number(value);
    // The relations a count can have with n: only `>` below its least value, `=` or `>` at it, any above it.
    const possible = n < least ? [gt] : n === least ? [eq, gt] : [eq, gt, lt];
    for (const i of present) if (!possible.includes(i)) out.push((b) => !bit(b, i));
    if (possible.every((i) => i !== undefined)) out.push((b) => possible.some((i) => bit(b, i)));
  }
  // A bundle count compared as text with "0" (`{{1.__IMTLENGTH__}}` ≠ "0") never equals it.
  props.forEach((p, i) => {
    if (p.family.startsWith('text:equal') && p.value === '0' && BUNDLE_COUNT_OPERAND.test(p.operand))
      out.push((b) => !bit(b, i));
  });
  return out;
}
