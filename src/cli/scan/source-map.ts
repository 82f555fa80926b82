/**
 * @module cli/scan/source-map: where JSON Pointers (RFC 6901) sit in a JSON text, from ONE pass per
 * file with jsonc-parser's scanner (issue 19). The pointers asked for are put in a trie first; the
 * pass follows the trie and records a region for every pointer it meets, so the cost is one pass
 * over the file whatever the number of findings (the scanner before issue 19 re-scanned the file
 * from its start once per finding, and counted lines from the start once per finding).
 */
// CommonJS build: the package's ESM build imports its files without extensions, which Node cannot load.
import jsonc from 'jsonc-parser';
import { parseBlueprint } from '../../engine/index.js';

/**
 * A SARIF 2.1.0 region (§3.30): 1-based lines and columns, columns in UTF-16 code units (SARIF
 * `columnKind: utf16CodeUnits`), `endColumn` one past the value's last character.
 */
export interface Region {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

interface Trie {
  pointer: string | null;
  readonly children: Map<string, Trie>;
}

/** RFC 6901 tokens of `pointer` (`''` is the whole document: no token). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  const tokens = pointer.split('/').slice(1);
  return pointer.includes('~') ? tokens.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')) : tokens;
}

function trieOf(pointers: Iterable<string>): Trie {
  const root: Trie = { pointer: null, children: new Map() };
  for (const pointer of new Set(pointers)) {
    let node = root;
    for (const token of pointerTokens(pointer)) {
      let next = node.children.get(token);
      if (!next) {
        next = { pointer: null, children: new Map() };
        node.children.set(token, next);
      }
      node = next;
    }
    node.pointer = pointer;
  }
  return root;
}

const { SyntaxKind } = jsonc;

/** A structural character or a string's opening quote (the skip of a value no pointer goes into). */
const STRUCTURAL = /[{}[\]"]/g;

/** The offset just past the string whose opening quote is at `open` (its closing quote: one not escaped). */
function skipString(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q !== -1; q = text.indexOf('"', q + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(q - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
  }
  return text.length;
}

/** The offset just past the object or array opening at `start` (native searches, strings skipped). */
function skipContainer(text: string, start: number): number {
  let depth = 0;
  STRUCTURAL.lastIndex = start;
  for (let m = STRUCTURAL.exec(text); m; m = STRUCTURAL.exec(text)) {
    const c = m[0];
    if (c === '"') STRUCTURAL.lastIndex = skipString(text, m.index);
    else if (c === '{' || c === '[') depth++;
    else if (--depth === 0) return m.index + 1;
  }
  return text.length;
}

/** Thrown inside `regionsOf` only, where the text stops being the JSON expected: the regions found so far stand. */
class NotJson extends Error {}

/**
 * The region of each pointer of `pointers` found in `text` (absent pointers are left out of the map).
 * One pass with jsonc-parser's scanner along the pointers asked for: a value no pointer goes into
 * is stepped over with a native regular-expression search for its end (strings skipped), so a
 * file costs about one search over its text. Lines and columns come from the offsets, in one sweep
 * over the line breaks up to the last offset. `text` is expected to be valid JSON (the scanner has
 * parsed it already); should it not be, the regions found before the error are returned.
 */
export function regionsOf(text: string, pointers: Iterable<string>): Map<string, Region> {
  const root = trieOf(pointers);
  const found = new Map<string, Region>();
  const scanner = jsonc.createScanner(text, true);
  // Offsets first; lines and columns at the end, in one sweep over the line breaks up to the last offset.
  const spans: { pointer: string; start: number; end: number }[] = [];
  const record = (trie: Trie, start: number, end: number): void => {
    if (trie.pointer !== null) spans.push({ pointer: trie.pointer, start, end });
  };
  const next = (): jsonc.SyntaxKind => scanner.scan();
  /** The value whose first token (`kind`) was just scanned; on return its last token is the current one. */
  const value = (trie: Trie | null, kind: jsonc.SyntaxKind): void => {
    const start = scanner.getTokenOffset();
    const container = kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken;
    if (!container || !trie || trie.children.size === 0) {
      if (container) {
        const end = skipContainer(text, start);
        scanner.setPosition(end);
        if (trie) record(trie, start, end);
      } else if (trie) record(trie, start, start + scanner.getTokenLength());
      return;
    }
    if (kind === SyntaxKind.OpenBraceToken) {
      let k = next();
      while (k !== SyntaxKind.CloseBraceToken) {
        if (k !== SyntaxKind.StringLiteral) throw new NotJson();
        const key = scanner.getTokenValue();
        if (next() !== SyntaxKind.ColonToken) throw new NotJson();
        value(trie.children.get(key) ?? null, next());
        k = next();
        if (k === SyntaxKind.CommaToken) k = next();
        else if (k !== SyntaxKind.CloseBraceToken) throw new NotJson();
      }
    } else {
      let k = next();
      for (let index = 0; k !== SyntaxKind.CloseBracketToken; index++) {
        value(trie.children.get(String(index)) ?? null, k);
        k = next();
        if (k === SyntaxKind.CommaToken) k = next();
        else if (k !== SyntaxKind.CloseBracketToken) throw new NotJson();
      }
    }
    record(trie, start, scanner.getTokenOffset() + scanner.getTokenLength());
  };
  try {
    value(root, next());
  } catch (err) {
    if (!(err instanceof NotJson)) throw err;
  }
  const at = positions(
    text,
    spans.flatMap((s) => [s.start, s.end]),
  );
  for (const s of spans) {
    const a = at.get(s.start)!;
    const b = at.get(s.end)!;
    found.set(s.pointer, { startLine: a.line, startColumn: a.column, endLine: b.line, endColumn: b.column });
  }
  return found;
}

/** 1-based line and UTF-16 column of each offset (lines end at `\n`), from one sweep over the line breaks before the last. */
function positions(text: string, offsets: number[]): Map<number, { line: number; column: number }> {
  const out = new Map<number, { line: number; column: number }>();
  let line = 1;
  let lineStart = 0;
  for (const offset of offsets.sort((x, y) => x - y)) {
    if (out.has(offset)) continue;
    for (let nl = text.indexOf('\n', lineStart); nl !== -1 && nl < offset; nl = text.indexOf('\n', lineStart)) {
      line++;
      lineStart = nl + 1;
    }
    out.set(offset, { line, column: offset - lineStart + 1 });
  }
  return out;
}

/**
 * The JSON Pointer of every module of a blueprint by module id, as the engine's parser gives them
 * (src/engine/blueprint/parse.ts: the top-level flow, router routes, error handlers, if/else
 * branches, agent tools and the orphans of `metadata.designer.orphans`), so that a finding on any
 * module, `"id": null` ones included (`unnumbered-<n>`), maps to its region. Empty for a blueprint the
 * engine refuses (the scanner locates findings of evaluated files only).
 */
export function modulePointers(blueprint: unknown): Map<string, string> {
  const parsed = parseBlueprint(blueprint);
  return new Map(parsed.ok ? parsed.graph.modules.map((m): [string, string] => [m.id, m.pointer]) : []);
}
