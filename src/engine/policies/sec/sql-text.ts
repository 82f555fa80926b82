/**
 * @module engine/policies/sec/sql-text: where a Make mapping (`{{…}}`) sits inside SQL text (SEC-13).
 * The mapped string is scanned with every `{{…}}` block masked, so that quotes inside an expression
 * (`{{replace(2.name; "'"; "''")}}`) never count as SQL quotes. Linear scans, no backtracking regex
 * over user text beyond anchored, bounded prefixes.
 * Sources: OWASP SQL Injection Prevention Cheat Sheet (option 1 bound parameters; option 4 escaping,
 * "strongly discouraged"); ISO/IEC 9075 string literals (a quote inside a literal is doubled); MySQL
 * 8.0 reference "String Literals" (backslash escapes unless `NO_BACKSLASH_ESCAPES`).
 */
import type { Impact } from '../../risk/types.js';

/** One `{{…}}` block of a mapped string: `[start, end)` including the braces, and the expression inside. */
export interface Block {
  readonly start: number;
  readonly end: number;
  readonly expr: string;
}

/** One SQL statement found in a string: `[start, end)` and its verb (`select`, `delete`...), lower case. */
export interface SqlStatement {
  readonly start: number;
  readonly end: number;
  readonly verb: string;
}

/** Where a block sits in a statement: inside a single-quoted string literal, or in the SQL itself. */
export type SqlPosition = 'quoted' | 'unquoted';

/** The character that stands in for a masked block (never in a Make export's text). */
const MASK = '\u0001';

/** Every `{{…}}` block, in order (an unclosed `{{` runs to the end). */
export function blocksOf(text: string): Block[] {
  const out: Block[] = [];
  for (let from = 0; ;) {
    const open = text.indexOf('{{', from);
    if (open < 0) return out;
    const close = text.indexOf('}}', open + 2);
    const end = close < 0 ? text.length : close + 2;
    out.push({ start: open, end, expr: text.slice(open + 2, close < 0 ? text.length : close) });
    from = end;
  }
}

/** `text` with every block replaced by as many `\u0001` as it is long (positions are kept). */
export function maskBlocks(text: string, blocks: readonly Block[]): string {
  let out = '';
  let at = 0;
  for (const b of blocks) {
    out += text.slice(at, b.start) + MASK.repeat(b.end - b.start);
    at = b.end;
  }
  return out + text.slice(at);
}

/**
 * Statement openers of any dialect, for text a database module executes (Make PostgreSQL, MySQL,
 * Microsoft SQL Server apps): the field holds SQL, so a leading keyword is enough.
 */
const ANY_STATEMENT =
  /^\s*\(?\s*(select|insert|update|delete|merge|replace|upsert|with|truncate|drop|alter|create|call|exec|execute|declare|begin|set|show|describe|explain|grant|revoke|copy|do)\b/i;

/**
 * The four data statements in full shape, for text outside a database module (a query string or
 * JSON body of an HTTP call, `webCRM /Queries?script=SELECT …`): the verb, its table and its
 * clause, so that prose ("Select one of the options below") is not SQL.
 */
const TABLE = String.raw`[^\s,;()=]+`;
const COLUMN = String.raw`[^\s,;()=]+(?:\s+as\s+[^\s,;()=]+)?`;
const SHAPED_STATEMENT = new RegExp(
  String.raw`^\s*(?:(select)\s+(?:distinct\s+|top\s+\d+\s+)?(?:\*|${COLUMN}(?:\s*,\s*${COLUMN})*)\s+from\s+${TABLE}` +
    String.raw`|(insert)\s+into\s+${TABLE}\s*(?:\(|values\b|select\b)|(update)\s+${TABLE}\s+set\s+${TABLE}\s*=|(delete)\s+from\s+${TABLE})`,
  'i',
);
/** A clause only SQL has, for a shaped statement written in lower case. */
const SQL_CLAUSE = /\b(?:where|join|order\s+by|group\s+by|limit\s+\d|values\s*\()/i;
/** One of the four data verbs anywhere: most strings have none and are not scanned further. */
const DATA_VERB = /\b(?:select|insert|update|delete)\b/i;
/** True when `text` names one of the four data verbs anywhere: a cheap test before a string is masked and scanned. */
export function mayHoldDataStatement(text: string): boolean {
  return DATA_VERB.test(text);
}

/** Longest prefix the shape is matched on (statements are judged by their head). */
const HEAD = 400;

/**
 * SQL statements in a masked string. `lenient`: the whole string when it opens with any statement
 * keyword (text a database module runs). `shaped`: a data statement in full shape at the start of
 * the string or of a JSON string inside it (`"query": "SELECT …"`), with upper-case keywords or an
 * SQL clause; it ends at the end of its JSON string.
 */
export function sqlStatements(masked: string, mode: 'lenient' | 'shaped'): SqlStatement[] {
  if (mode === 'lenient') {
    const m = ANY_STATEMENT.exec(masked.slice(0, HEAD));
    return m ? [{ start: 0, end: masked.length, verb: m[1]!.toLowerCase() }] : [];
  }
  if (!mayHoldDataStatement(masked)) return [];
  const out: SqlStatement[] = [];
  const starts = [0];
  for (let i = masked.indexOf('"'); i >= 0; i = masked.indexOf('"', i + 1)) starts.push(i + 1);
  for (const start of starts) {
    if (out.length > 0 && start < out[out.length - 1]!.end) continue;
    const head = masked.slice(start, start + HEAD);
    const m = SHAPED_STATEMENT.exec(head);
    if (!m) continue;
    const verb = (m[1] ?? m[2] ?? m[3] ?? m[4])!;
    if (verb !== verb.toUpperCase() && !SQL_CLAUSE.test(head)) continue;
    const end = start === 0 ? masked.length : jsonStringEnd(masked, start);
    out.push({ start, end, verb: verb.toLowerCase() });
  }
  return out;
}

/** Index of the `"` that closes a JSON string opened before `from` (a `\"` does not close it); the text's end when none. */
function jsonStringEnd(s: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return s.length;
}

/**
 * Whether offset `at` of a masked string lies inside a single-quoted literal of the statement that
 * starts at `start`. A doubled quote (`''`) stays inside; with `backslash` (MySQL) a `\` escapes the
 * next character inside a literal.
 */
export function sqlPosition(masked: string, start: number, at: number, backslash: boolean): SqlPosition {
  let quoted = false;
  for (let i = start; i < at; i++) {
    const c = masked[i];
    if (quoted && backslash && c === '\\') i++;
    else if (c === "'") quoted = !quoted;
  }
  return quoted ? 'quoted' : 'unquoted';
}

/** Make's `replace(…; "'"; "''")` as the outermost call: every quote of the value doubled. */
const DOUBLES_QUOTES = /^\s*replace\s*\([\s\S]*;\s*"'"\s*;\s*"''"\s*\)\s*$/;
/** A `replace(…; "\"; …)` anywhere in the expression: backslashes handled too. */
const HANDLES_BACKSLASH = /replace\s*\([\s\S]*;\s*"\\{1,2}"\s*;/;

/**
 * True when the expression escapes a value for a single-quoted SQL literal: its outermost call
 * doubles every quote (ISO SQL), and for a `backslash` dialect (MySQL) it also replaces backslashes,
 * which MySQL reads as escapes (`\'` would otherwise end the literal).
 */
export function escapesForLiteral(expr: string, backslash: boolean): boolean {
  return DOUBLES_QUOTES.test(expr) && (!backslash || HANDLES_BACKSLASH.test(expr));
}

/** Make functions that return a number (Make help "Math functions", `parseNumber`, `length`). */
const NUMERIC_CALL = /^\s*(?:parseNumber|round|floor|ceil|abs|trunc|formatNumber|length|sum|average|max|min)\s*\(/i;

/** True when the expression's value is a number by construction (its outermost call returns one): no SQL can ride in it. */
export function numericExpression(expr: string): boolean {
  return NUMERIC_CALL.test(expr) && expr.trimEnd().endsWith(')');
}

/**
 * What a statement does, by its verb (issue 32 risk model, impact): reads, writes the owner's
 * records, deletes, or changes access; `undefined` for other statements.
 */
export function statementImpact(verb: string): Impact | undefined {
  return STATEMENT_IMPACT.get(verb);
}

const STATEMENT_IMPACT: ReadonlyMap<string, Impact> = new Map<string, Impact>([
  ['select', 'read'],
  ['show', 'read'],
  ['describe', 'read'],
  ['explain', 'read'],
  ['with', 'read'],
  ['insert', 'write-own'],
  ['update', 'write-own'],
  ['merge', 'write-own'],
  ['replace', 'write-own'],
  ['upsert', 'write-own'],
  ['copy', 'write-own'],
  ['create', 'write-own'],
  ['alter', 'write-own'],
  ['delete', 'delete'],
  ['truncate', 'delete'],
  ['drop', 'delete'],
  ['grant', 'change-access'],
  ['revoke', 'change-access'],
]);
