/**
 * @module engine/rules/conditions: a validated condition tree compiled once into tests of one module.
 * Each test returns a witness (what matched, where) or `null`. Cost per module is O(conditions ×
 * values per path), patterns run on at most 4,096 characters, in linear time (`linear-pattern.ts`);
 * nothing in a rule is executed as code.
 */
import type { Analysis } from '../analysis.js';
import type { GraphEdge, Json, ModuleNode } from '../blueprint/types.js';
import { SharedKey } from '../analysis.js';
import { classify } from '../blueprint/classify.js';
import { PII_KIND_LABELS } from '../pii.js';
import { isCredentialName } from '../secrets/patterns.js';
import { fixedHost, hostList, listed } from './domains.js';
import { compilePattern } from './linear-pattern.js';
import { parseFieldPath, pointerWithin, resolveField, type FieldPath, type FieldValue } from './field-path.js';
import { RULE_LIMITS, type Condition, type NameOrList } from './types.js';

/** What made a condition hold on a module: a phrase for the reason, and the evidence when it is a field. */
export interface Witness {
  readonly detail: string;
  readonly pointer?: string;
  readonly value?: string;
  /** How specific it is: a field (2) beats a position (1) beats a module selection (0) as the finding's evidence. */
  readonly weight: 0 | 1 | 2;
}

/** A compiled condition. */
export type ModuleTest = (m: ModuleNode, analysis: Analysis) => Witness | null;

/** Outgoing `next` and `route` edges by module id, shared by every rule of one evaluation. */
const OUTGOING = new SharedKey<ReadonlyMap<string, readonly GraphEdge[]>>('rules.outgoing');

const list = (names: NameOrList): ReadonlySet<string> => new Set(typeof names === 'string' ? [names] : names);

/** A value excerpt for a reason or evidence: cut at 80 characters, and never the value of a credential-named field. */
function excerpt(v: FieldValue): string | undefined {
  if (isCredentialName(v.name)) return undefined;
  const text = typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const fieldWitness = (path: FieldPath, v: FieldValue, what: string): Witness => {
  const value = excerpt(v);
  const rel = v.pointer.slice(v.pointer.indexOf(`/${path.section}`));
  return value === undefined
    ? { detail: `\`${rel}\` ${what}`, pointer: v.pointer, weight: 2 }
    : { detail: `\`${rel}\` = \`${value}\` ${what}`.trimEnd(), pointer: v.pointer, value, weight: 2 };
};

/** A set value: not null, not an empty string (Make exports unset fields as either). */
const isSet = (v: Json) => v !== null && v !== '';

/** Compiles a field condition's operator into a test of one value. */
function valueTest(c: Condition): ((v: Json) => string | null) | null {
  if ('equals' in c) {
    const expected = c.equals;
    return (v) => (v === expected ? '' : null);
  }
  if ('matches' in c) {
    const compiled = compilePattern(c.matches);
    if (!compiled.ok) {
      // A body stored by a release that ran patterns as JavaScript RegExp: reported as this rule's
      // policy error (`policy_errors`) on every evaluation rather than dropped without a word.
      const message = `pattern \`${c.matches}\` ${compiled.message}; submit the rule again with an RE2 pattern`;
      return () => {
        throw new Error(message);
      };
    }
    const re = compiled.matcher;
    return (v) => {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return null;
      return re.test(String(v).slice(0, RULE_LIMITS.regexInput)) ? `matches \`${c.matches}\`` : null;
    };
  }
  if ('domain_in' in c || 'domain_not_in' in c) {
    const inList = 'domain_in' in c;
    const hosts = hostList(inList ? c.domain_in : c.domain_not_in);
    return (v) => {
      if (typeof v !== 'string' || v.trim() === '') return null;
      const host = fixedHost(v);
      if (inList) return host !== null && listed(host, hosts) ? `(host \`${host}\` is listed)` : null;
      if (host === null) return '(host mapped at run time, not on the list)';
      return listed(host, hosts) ? null : `(host \`${host}\` is not on the list)`;
    };
  }
  return null;
}

/**
 * Compiles a validated condition (`validateRule`). Patterns are compiled here, once per rule (and
 * cached by source across rules: `compilePattern`). A pattern the linear-time engine refuses (a rule
 * stored before it) makes the rule's evaluation throw, which `runPolicy` reports as its policy error.
 */
export function compileCondition(c: Condition): ModuleTest {
  if ('all' in c) {
    const parts = c.all.map(compileCondition);
    return (m, a) => {
      const seen: Witness[] = [];
      for (const t of parts) {
        const w = t(m, a);
        if (!w) return null;
        seen.push(w);
      }
      seen.sort((x, y) => y.weight - x.weight);
      const top = seen[0]!;
      const detail = seen
        .filter((w) => w.weight === top.weight)
        .slice(0, 3)
        .map((w) => w.detail)
        .join('; ');
      return { ...top, detail };
    };
  }
  if ('any' in c) {
    const parts = c.any.map(compileCondition);
    return (m, a) => {
      for (const t of parts) {
        const w = t(m, a);
        if (w) return w;
      }
      return null;
    };
  }
  if ('not' in c) {
    const inner = compileCondition(c.not);
    const text = JSON.stringify(c.not);
    const shown = text.length > 80 ? `${text.slice(0, 79)}…` : text;
    return (m, a) => (inner(m, a) ? null : { detail: `does not match \`${shown}\``, weight: 0 });
  }
  if ('app' in c) {
    const apps = list(c.app);
    return (m) => (apps.has(m.app) ? { detail: `app \`${m.app}\``, weight: 0 } : null);
  }
  if ('module' in c) {
    const types = list(c.module);
    return (m) => (types.has(m.type) ? { detail: `module \`${m.type}\``, weight: 0 } : null);
  }
  if ('has_error_handler' in c) {
    const want = c.has_error_handler;
    return (m) =>
      m.errorHandlerIds.length > 0 === want
        ? { detail: want ? 'has an error handler' : 'has no error handler', weight: 1 }
        : null;
  }
  if ('is_trigger' in c) {
    const want = c.is_trigger;
    return (m, a) =>
      (a.first === m && classify(m).role === 'trigger') === want
        ? { detail: want ? 'is the trigger' : 'is not the trigger', weight: 1 }
        : null;
  }
  if ('followed_by_filter' in c) {
    const want = c.followed_by_filter;
    return (m, a) => {
      const edges = a.shared(OUTGOING, () => outgoing(a)).get(m.id) ?? [];
      const filtered = edges.some((e) => (a.graph.byId.get(e.to)?.filter?.conditions.length ?? 0) > 0);
      return filtered === want
        ? { detail: want ? 'is followed by a filter' : 'is not followed by a filter', weight: 1 }
        : null;
    };
  }
  const path = c.field === undefined ? null : (parseFieldPath(c.field) as FieldPath);
  if ('value_from' in c) return valueFrom(c.value_from, path);
  if ('present' in c || 'absent' in c) {
    const present = 'present' in c;
    return (m) => {
      const found = resolveField(m, path!).find((v) => isSet(v.value));
      if (present) return found ? fieldWitness(path!, found, 'is set') : null;
      return found ? null : { detail: `\`${path!.text}\` is not set`, pointer: m.pointer, weight: 2 };
    };
  }
  const test = valueTest(c)!;
  return (m) => {
    for (const v of resolveField(m, path!)) {
      const what = test(v.value);
      if (what !== null) return fieldWitness(path!, v, what);
    }
    return null;
  };
}

/** `value_from`: a mapped reference of the module (under the path, when given) from an untrusted or personal source. */
function valueFrom(origin: 'untrusted' | 'personal', path: FieldPath | null): ModuleTest {
  const under = (m: ModuleNode, pointer: string) => path === null || pointerWithin(m, pointer, path);
  const at = (m: ModuleNode, pointer: string) => pointer.slice(m.pointer.length);
  if (origin === 'untrusted')
    return (m, a) => {
      const df = a.dataflow();
      const r = df.untrustedInputs(m.id).find((x) => under(m, x.pointer));
      if (!r) return null;
      const source = df.untrustedSourceOf(r.moduleId);
      const from = source ? ` of ${source.label}` : '';
      return {
        detail: `\`${at(m, r.pointer)}\` maps untrusted input \`${r.moduleId}.${r.path}\`${from}`,
        pointer: r.pointer,
        weight: 2,
      };
    };
  return (m, a) => {
    const f = a
      .dataflow()
      .piiInputs(m.id)
      .find((x) => under(m, x.pointer));
    if (!f) return null;
    const kind = PII_KIND_LABELS[f.kind];
    return {
      detail: `\`${at(m, f.pointer)}\` maps ${kind} \`${f.from.moduleId}.${f.from.path}\`${f.origin ? ` of ${f.origin}` : ''}`,
      pointer: f.pointer,
      weight: 2,
    };
  };
}

function outgoing(a: Analysis): ReadonlyMap<string, readonly GraphEdge[]> {
  const out = new Map<string, GraphEdge[]>();
  for (const e of a.graph.edges) {
    if (e.kind === 'error') continue;
    const own = out.get(e.from);
    if (own) own.push(e);
    else out.set(e.from, [e]);
  }
  return out;
}
