/**
 * @module engine/rules/regex-safety: a conservative structural check that a custom rule's pattern
 * cannot backtrack catastrophically (OWASP *Regular expression Denial of Service*). JavaScript
 * regular expressions backtrack and cannot be interrupted inside a worker, so a pattern is refused
 * when it has a shape known to blow up, even where a given input would not:
 * 1. a repeated group containing any quantifier (`(a+)+`, `(\.\w+)*`: exponential);
 * 2. a repeated alternation whose alternatives can start with the same character or match nothing
 *    (`(a|a)*`, `(a|ab)+`: exponential);
 * 3. three unbounded repetitions in a row that can match the same characters with nothing between
 *    them that only one can take (`.*a.*b` unanchored, where the implicit scan of every start position
 *    is the first: cubic; measured 12-28 s on a 4,096-character value);
 * 4. back-references (matching with them is NP-hard).
 * Patterns are compiled without flags. The check errs on refusal: `^([a-z]+\.)+example\.com$` is
 * safe but refused by rule 1 (use `domain_in`).
 */
import type { CharSet } from './char-set.js';
import { DOT, char, classEscape, complement, every, intersects, none, range, union } from './char-set.js';

type Node =
  | { readonly t: 'set'; readonly set: CharSet }
  | { readonly t: 'seq'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly branches: readonly Node[] }
  | { readonly t: 'group'; readonly body: Node; readonly look: boolean }
  | { readonly t: 'quant'; readonly body: Node; readonly min: number; readonly max: number }
  | { readonly t: 'anchor'; readonly start: boolean };

/** A repetition with more than this many iterations counts as unbounded (rule 3). */
const UNBOUNDED = 32;

class Refused extends Error {}

/** Reads a pattern that `new RegExp(source)` accepted (no flags, Annex B syntax). */
class Parser {
  private at = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    return this.alt();
  }

  private peek(): string | undefined {
    return this.src[this.at];
  }

  private alt(): Node {
    const branches = [this.seq()];
    while (this.peek() === '|') {
      this.at++;
      branches.push(this.seq());
    }
    return branches.length === 1 ? branches[0]! : { t: 'alt', branches };
  }

  private seq(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek())
      items.push(this.quantified(this.atom()));
    return { t: 'seq', items };
  }

  private atom(): Node {
    const c = this.src[this.at++]!;
    if (c === '(') {
      let look = false;
      if (this.src.startsWith('?:', this.at)) this.at += 2;
      else if (/^\?<?[=!]/.test(this.src.slice(this.at, this.at + 3))) {
        look = true;
        this.at += this.src[this.at + 1] === '<' ? 3 : 2;
      } else if (this.src.startsWith('?<', this.at)) this.at = this.src.indexOf('>', this.at) + 1;
      const body = this.alt();
      this.at++; // ')'
      return { t: 'group', body, look };
    }
    if (c === '[') return { t: 'set', set: this.charClass() };
    if (c === '.') return { t: 'set', set: DOT };
    if (c === '^' || c === '$') return { t: 'anchor', start: c === '^' };
    if (c === '\\') return this.escape(false);
    return { t: 'set', set: char(c.charCodeAt(0)) };
  }

  private escape(inClass: boolean): Node & { t: 'set' | 'anchor' } {
    const c = this.src[this.at++]!;
    const cls = classEscape(c);
    if (cls) return { t: 'set', set: cls };
    if (!inClass && (c === 'b' || c === 'B')) return { t: 'anchor', start: false };
    if (!inClass && (/[1-9]/.test(c) || (c === 'k' && this.peek() === '<'))) throw new Refused('uses a back-reference');
    const hex = (n: number) => {
      const digits = this.src.slice(this.at, this.at + n);
      if (digits.length !== n || !/^[0-9a-fA-F]+$/.test(digits)) return null;
      this.at += n;
      return parseInt(digits, 16);
    };
    const simple: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0 };
    if (c in simple) return { t: 'set', set: char(simple[c]!) };
    if (c === 'b') return { t: 'set', set: char(8) };
    if (c === 'x' || c === 'u') {
      const code = hex(c === 'x' ? 2 : 4);
      if (code !== null) return { t: 'set', set: char(code) };
    }
    if (c === 'c' && /[A-Za-z]/.test(this.peek() ?? ''))
      return { t: 'set', set: char(this.src.charCodeAt(this.at++) % 32) };
    // Anything else is the character itself (Annex B identity escapes); an unknown case stays conservative.
    return { t: 'set', set: c.charCodeAt(0) < 128 ? char(c.charCodeAt(0)) : every() };
  }

  private charClass(): CharSet {
    const negate = this.peek() === '^';
    if (negate) this.at++;
    let set = none();
    while (this.peek() !== ']' && this.peek() !== undefined) {
      const from = this.classAtom();
      if (this.peek() === '-' && this.src[this.at + 1] !== ']' && from.code !== null) {
        this.at++;
        const to = this.classAtom();
        set = union(set, to.code !== null ? range(from.code, to.code) : union(from.set, to.set));
      } else set = union(set, from.set);
    }
    this.at++; // ']'
    return negate ? complement(set) : set;
  }

  private classAtom(): { set: CharSet; code: number | null } {
    if (this.peek() === '\\') {
      this.at++;
      const node = this.escape(true);
      const set = node.t === 'set' ? node.set : every();
      const single = set.bits.reduce((n, w) => n + popcount(w), 0) === 1 && !set.other;
      return { set, code: single ? set.bits.findIndex((w) => w !== 0) * 32 + lowBit(set) : null };
    }
    const code = this.src.charCodeAt(this.at++);
    return { set: char(code), code };
  }

  private quantified(atom: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.at));
      if (!m) return atom; // a literal `{` (Annex B)
      this.at += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    } else return atom;
    if (this.peek() === '?') this.at++; // lazy: the same backtracking
    return { t: 'quant', body: atom, min, max };
  }
}

function popcount(w: number): number {
  let n = 0;
  for (let x = w >>> 0; x; x &= x - 1) n++;
  return n;
}

/** The offset of the lowest set bit within its word (`set` holds one ASCII character). */
function lowBit(set: CharSet): number {
  const w = set.bits.find((x) => x !== 0)!;
  return 31 - Math.clz32(w & -w);
}

function some(node: Node, test: (n: Node) => boolean): boolean {
  if (test(node)) return true;
  switch (node.t) {
    case 'seq':
      return node.items.some((n) => some(n, test));
    case 'alt':
      return node.branches.some((n) => some(n, test));
    case 'group':
    case 'quant':
      return some(node.body, test);
    default:
      return false;
  }
}

function nullable(node: Node): boolean {
  switch (node.t) {
    case 'set':
      return false;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.branches.some(nullable);
    case 'group':
      return node.look || nullable(node.body);
    case 'quant':
      return node.min === 0 || nullable(node.body);
    case 'anchor':
      return true;
  }
}

/** Characters a match of `node` can start with. */
function first(node: Node): CharSet {
  switch (node.t) {
    case 'set':
      return node.set;
    case 'seq': {
      let out = none();
      for (const item of node.items) {
        out = union(out, first(item));
        if (!nullable(item)) break;
      }
      return out;
    }
    case 'alt':
      return node.branches.map(first).reduce(union);
    case 'group':
      return node.look ? none() : first(node.body);
    case 'quant':
      return first(node.body);
    case 'anchor':
      return none();
  }
}

/** Every character `node` can consume anywhere. */
function chars(node: Node): CharSet {
  switch (node.t) {
    case 'set':
      return node.set;
    case 'seq':
      return node.items.map(chars).reduce(union, none());
    case 'alt':
      return node.branches.map(chars).reduce(union);
    case 'group':
    case 'quant':
      return chars(node.body);
    case 'anchor':
      return none();
  }
}

/** One step of the pattern read left to right: an unbounded loop, or an atom that is mandatory or not. */
interface Step {
  readonly loop: boolean;
  readonly set: CharSet;
  /** It may match nothing here, so it cannot separate two loops. */
  readonly optional: boolean;
}

const unbounded = (n: Node) => n.t === 'quant' && n.max > UNBOUNDED;

function steps(node: Node, optional: boolean, out: Step[]): void {
  switch (node.t) {
    case 'set':
      out.push({ loop: false, set: node.set, optional });
      return;
    case 'seq':
      for (const item of node.items) steps(item, optional, out);
      return;
    case 'alt':
      if (some(node, unbounded)) out.push({ loop: true, set: chars(node), optional: optional || nullable(node) });
      else out.push({ loop: false, set: first(node), optional: optional || nullable(node) });
      return;
    case 'group':
      steps(node.body, optional || node.look, out);
      return;
    case 'quant':
      if (node.max > UNBOUNDED)
        out.push({ loop: true, set: chars(node.body), optional: optional || node.min === 0 || nullable(node.body) });
      else steps(node.body, optional || node.min === 0, out);
      return;
    case 'anchor':
      return;
  }
}

/**
 * Rule 3: loops i < j are ambiguous when they share characters and nothing mandatory between them
 * escapes loop i (an atom whose first character, or a loop whose every character, loop i cannot take).
 */
function cubic(list: readonly Step[]): boolean {
  const loops = list.flatMap((s, i) => (s.loop ? [i] : []));
  const ambiguous = (i: number, j: number) => {
    const a = list[i]!.set;
    if (!intersects(a, list[j]!.set)) return false;
    for (let k = i + 1; k < j; k++) {
      const s = list[k]!;
      if (!s.optional && !intersects(a, s.set)) return false;
    }
    return true;
  };
  return loops.some(
    (j, jx) => loops.slice(0, jx).some((i) => ambiguous(i, j)) && loops.slice(jx + 1).some((k) => ambiguous(j, k)),
  );
}

/**
 * Why a pattern could backtrack catastrophically, or `null` when the structural check passes.
 * The caller has already compiled it (`new RegExp(source)`).
 */
export function regexRisk(source: string): string | null {
  let root: Node;
  try {
    root = new Parser(source).parse();
  } catch (err) {
    if (err instanceof Refused) return err.message;
    throw err;
  }
  const repeated = (n: Node): n is Node & { t: 'quant' } => n.t === 'quant' && n.max > 1;
  if (some(root, (n) => repeated(n) && some(n.body, (x) => x.t === 'quant')))
    return 'repeats a group that contains a quantifier (as in `(a+)+`): exponential backtracking';
  const overlapping = (alt: Node): boolean => {
    if (alt.t !== 'alt') return false;
    if (alt.branches.some(nullable)) return true;
    const firsts = alt.branches.map(first);
    return firsts.some((f, i) => firsts.slice(i + 1).some((g) => intersects(f, g)));
  };
  if (some(root, (n) => repeated(n) && some(n.body, overlapping)))
    return 'repeats alternatives that can match the same text (as in `(a|ab)*`): exponential backtracking';
  const list: Step[] = [];
  steps(root, false, list);
  const anchored = root.t === 'seq' && root.items[0]?.t === 'anchor' && root.items[0].start;
  if (cubic(anchored ? list : [{ loop: true, set: every(), optional: true }, ...list]))
    return 'has repetitions in a row that can match the same characters (as in `.*a.*b`): backtracking grows with the cube of the value length';
  return null;
}
