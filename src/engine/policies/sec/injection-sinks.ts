/**
 * @module engine/policies/sec/injection-sinks: where a module splices mapped values into text that
 * a parser runs (SEC-13): SQL a database module or an HTTP call executes, a shell command, a code
 * module's source. A value passed in a field of its own (a bound parameter, a code module's
 * `input`, a stored procedure's argument) is data and is not a site.
 * Sources: Make apps PostgreSQL, MySQL and Microsoft SQL Server (apps.make.com/postgres, /mysql,
 * /mssql: queries, functions and stored procedures), SSH (apps.make.com/ssh, "Execute a command"),
 * Code and Custom JS (`program.ts`); OWASP Injection Prevention Cheat Sheet.
 */
import type { StringLeaf } from '../../analysis.js';
import type { FieldRef } from '../../blueprint/expressions.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { MappedValue } from '../../dataflow.js';
import { classify } from '../../blueprint/classify.js';
import { extractRefs } from '../../blueprint/expressions.js';
import { isProgramField, programOf } from './program.js';
import {
  blocksOf,
  escapesForLiteral,
  maskBlocks,
  mayHoldDataStatement,
  numericExpression,
  sqlPosition,
  sqlStatements,
  type Block,
} from './sql-text.js';

/** What parses the spliced text. */
export type SinkKind = 'sql' | 'command' | 'code';

/**
 * One field of a module that splices values into SQL, a command or code. `position`: inside a
 * single-quoted SQL string (`quoted`), in the text itself (`unquoted`), or the whole statement
 * comes from data (`whole`).
 */
export interface InjectionSite {
  readonly kind: SinkKind;
  readonly leaf: StringLeaf;
  /** The references spliced in: not escaped for their literal, not numbers by construction. */
  readonly refs: readonly FieldRef[];
  readonly position: 'quoted' | 'unquoted' | 'whole';
  /** The SQL statement's verb (`select`, `delete`), lower case; absent for commands, code and whole statements. */
  readonly verb?: string;
}

/**
 * Make apps that run SQL written in the scenario (app slugs of apps.make.com). `backslash`: the
 * server reads `\` as an escape inside string literals (MySQL, unless `NO_BACKSLASH_ESCAPES`), so
 * doubling quotes alone does not escape a value.
 */
export const SQL_APPS: ReadonlyMap<string, { readonly backslash: boolean }> = new Map([
  ['postgres', { backslash: false }],
  ['mysql', { backslash: true }],
  ['mssql', { backslash: false }],
  ['microsoft-sql-server', { backslash: false }],
]);

/** Make apps that run a shell command (apps.make.com/ssh "Execute a command"), with the fields holding it. */
export const COMMAND_APPS: ReadonlySet<string> = new Set(['ssh']);
const COMMAND_FIELD = /^(?:command|commands|cmd|script)$/i;
/** Field names that hold a whole query (a database module's `query`, an API's `sql` or `script` parameter). */
const QUERY_FIELD = /^(?:query|sql|statement|command|script|sql_?query|query_?text)$/i;
/** Generic "Make an API call" actions (`hubspotcrm:MakeAPICall`, `lemlist:makeApiCall`): a raw request like `http`. */
const API_CALL_ACTION = /api.?call/i;

/**
 * The injection sites of a module, in document order; empty for AI modules (a prompt is read by a
 * model, not parsed: AI-2 judges it), sends, transforms and flow modules (they build text, the module
 * that runs it is the sink).
 * @param mapped The module's mapped strings (`DataFlow.mappedValuesOf`).
 */
export function injectionSites(m: ModuleNode, mapped: readonly MappedValue[]): InjectionSite[] {
  const cls = classify(m);
  if (cls.ai || cls.effect === 'send' || cls.role === 'transform' || cls.role === 'flow') return [];
  const sql = SQL_APPS.get(m.app);
  const code = programOf(m) === 'code';
  const command = COMMAND_APPS.has(m.app);
  const raw = cls.http || API_CALL_ACTION.test(m.action);
  const out: InjectionSite[] = [];
  for (const { leaf } of mapped) {
    const name = leaf.fieldName ?? '';
    if (code && isProgramField('code', leaf.fieldName)) push(out, leaf, 'code');
    else if (command && COMMAND_FIELD.test(name)) push(out, leaf, 'command');
    else if (sql) sqlSites(leaf, 'lenient', sql.backslash, QUERY_FIELD.test(name), out);
    else if (raw || QUERY_FIELD.test(name)) sqlSites(leaf, 'shaped', false, false, out);
  }
  return out;
}

/** A command or code site: every mapped block that is not a number. */
function push(out: InjectionSite[], leaf: StringLeaf, kind: 'command' | 'code'): void {
  const refs = blocksOf(leaf.value).flatMap((b) => (numericExpression(b.expr) ? [] : refsOf(b)));
  if (refs.length > 0) out.push({ kind, leaf, refs, position: 'unquoted' });
}

/**
 * SQL sites of one string: the blocks inside each SQL statement that are neither escaped for the
 * literal they sit in nor numbers; with `wholeQuery`, a query field that is nothing but one mapping.
 */
function sqlSites(
  leaf: StringLeaf,
  mode: 'lenient' | 'shaped',
  backslash: boolean,
  wholeQuery: boolean,
  out: InjectionSite[],
): void {
  if (mode === 'shaped' && !mayHoldDataStatement(leaf.value)) return;
  const blocks = blocksOf(leaf.value);
  if (blocks.length === 0) return;
  const masked = maskBlocks(leaf.value, blocks);
  const statements = sqlStatements(masked, mode);
  if (statements.length === 0) {
    const only = blocks[0]!;
    if (wholeQuery && blocks.length === 1 && leaf.value.trim() === leaf.value.slice(only.start, only.end)) {
      const refs = refsOf(only);
      if (refs.length > 0) out.push({ kind: 'sql', leaf, refs, position: 'whole' });
    }
    return;
  }
  for (const s of statements) {
    const refs: FieldRef[] = [];
    let quoted = 0;
    let spliced = 0;
    for (const b of blocks) {
      if (b.start < s.start || b.start >= s.end || numericExpression(b.expr)) continue;
      const position = sqlPosition(masked, s.start, b.start, backslash);
      if (position === 'quoted' && escapesForLiteral(b.expr, backslash)) continue;
      const found = refsOf(b);
      if (found.length === 0) continue;
      refs.push(...found);
      spliced++;
      if (position === 'quoted') quoted++;
    }
    if (refs.length > 0)
      out.push({ kind: 'sql', leaf, refs, position: quoted === spliced ? 'quoted' : 'unquoted', verb: s.verb });
  }
}

function refsOf(b: Block): FieldRef[] {
  return extractRefs(`{{${b.expr}}}`);
}
