/**
 * @module engine/regex-captures: what each capture group of a Make *Text parser* pattern
 * (`regexp:Parser`, `regexp:AdvancedParser`) holds, read from the literal text the pattern puts
 * before it: `Full\s+Name\s*:\s*(\S+)` captures a full name, `Company\s+Name\s*:\s*(.*?)` a company
 * name, `(?<=Location:)(.*?)` a location. Make outputs numbered groups as `$1`, `$2`... and named
 * groups under their name (Make help, *Text parser → Match pattern*). The data flow judges a labelled
 * capture by its label instead of passing on everything the parsed text carries (`dataflow.ts`).
 */
import { boundedMemo } from './memo.js';

/** Group names that name a format or a container, not a field (`(?<json>\{...\})`): such a capture is unlabelled. */
const GENERIC =
  /^(?:json|xml|html|data|result|results|output|match|matches|group\d*|capture\d*|raw|payload|object|array|all|full|whole|content|string|str|part\d*)$/i;
/** Escapes that stand for characters, not literal text (`\s`, `\d`, `\b`...); `\s`, `\n`, `\r`, `\t` separate words. */
const SPACE_ESCAPES = new Set(['s', 'n', 'r', 't', 'f', 'v']);
/** Characters dropped from the end of a label (`Email Address : `, `"datePosted":"`). */
const TRAILING: ReadonlySet<string> = new Set([...' \t\n\r:=#-–—"\'`\u0000']);
const CLASS_ESCAPES = new Set([
  'S',
  'd',
  'D',
  'w',
  'W',
  'b',
  'B',
  'A',
  'z',
  'Z',
  'G',
  'h',
  'H',
  'R',
  'K',
  'p',
  'P',
  'X',
]);

/**
 * Capture group key (`$1`, `$2`..., or the group's name) → its label, `null` when the pattern gives
 * none. The label is the literal text between the previous group boundary and the group, cut after
 * the last punctuation that ends a label (`\n`, `:`, `>`, `"`, `,`...): `\nEmail\s+Address\s*:\s*(`
 * → `Email Address`. A group that follows another with only whitespace between continues it and
 * takes its label (`Full Name: (\S+)\s+(.*?)`: first and last name). A named group is labelled by
 * its name unless the name is generic (`json`, `data`, `result`). Linear in the pattern's length;
 * memoised.
 */
export const captureLabels: (pattern: string) => ReadonlyMap<string, string | null> = boundedMemo(2_000, (pattern) => {
  const out = new Map<string, string | null>();
  let text = '';
  /** Only whitespace seen since the last capture group closed. */
  let onlySpace = false;
  let lastLabel: string | null = null;
  let numbered = 0;
  /** Per open group: true when it is a capturing group (its close ends a label's continuation). */
  const stack: boolean[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      const e = pattern[++i]!;
      if (SPACE_ESCAPES.has(e)) {
        text += e === 'n' || e === 'r' ? '\n' : ' ';
        continue;
      }
      if (CLASS_ESCAPES.has(e)) {
        text += '\u0000';
        onlySpace = false;
        if ((e === 'p' || e === 'P') && pattern[i + 1] === '{') i = skipTo(pattern, i + 1, '}');
        continue;
      }
      text += e;
      onlySpace = false;
      continue;
    }
    if (c === '[') {
      i = skipClass(pattern, i);
      text += '\u0000';
      onlySpace = false;
      continue;
    }
    if (c === '{' && /^\{\d+(?:,\d*)?\}/.test(pattern.slice(i, i + 12))) {
      i = skipTo(pattern, i, '}');
      continue;
    }
    if (c === '*' || c === '+' || c === '?' || c === '^' || c === '$') continue;
    if (c === '.' || c === '|') {
      text += '\u0000';
      onlySpace = false;
      continue;
    }
    if (c === ')') {
      const capturing = stack.pop();
      if (capturing) {
        text = '';
        onlySpace = true;
      }
      continue;
    }
    if (c === '(') {
      let key: string;
      let named: string | null = null;
      if (pattern[i + 1] === '?') {
        const rest = pattern.slice(i + 2, i + 80);
        const m = /^(?:P?<([A-Za-z_][A-Za-z0-9_]*)>|'([A-Za-z_][A-Za-z0-9_]*)')/.exec(rest);
        if (m) {
          named = m[1] ?? m[2]!;
          key = named;
          i += 1 + m[0].length;
        } else {
          // Lookarounds and non-capturing groups: their literal text stays part of the label (`(?<=Location:)`).
          const look = /^(?:<=|<!|=|!|:|[a-z]*(?:-[a-z]+)?:)/.exec(rest);
          i += 1 + (look ? look[0].length : 0);
          stack.push(false);
          continue;
        }
      } else key = `$${++numbered}`;
      let label = named !== null ? (GENERIC.test(named) ? null : named) : labelOf(text);
      if (named === null && label === null && onlySpace) label = lastLabel;
      out.set(key, label);
      if (named !== null) out.set(`$${++numbered}`, label);
      lastLabel = label;
      text = '';
      onlySpace = false;
      stack.push(true);
      continue;
    }
    text += c;
    if (c !== ' ') onlySpace = false;
  }
  return out;
});

/** The label in the literal text before a group: after the last label boundary, without trailing `:`, `=`, `#`, `-` or quotes (`"datePosted":"`); a group right after a tag (`<h4 ...>(`) has none. */
function labelOf(text: string): string | null {
  // A loop, not `/[...]+$/`: that regex is quadratic on long runs of these characters.
  let end = text.length;
  while (end > 0 && TRAILING.has(text[end - 1]!)) end--;
  const trimmed = text.slice(0, end);
  const cut = Math.max(...[...'\n\u0000:;,.!?<>"\'`|/\\()[]{}=*'].map((ch) => trimmed.lastIndexOf(ch)));
  const label = trimmed
    .slice(cut + 1)
    .replace(/\s+/g, ' ')
    .trim();
  return label.length > 0 && label.length <= 40 && /\p{L}/u.test(label) && !GENERIC.test(label) ? label : null;
}

function skipClass(p: string, i: number): number {
  for (let j = i + 1; j < p.length; j++) {
    if (p[j] === '\\') {
      j++;
      continue;
    }
    if (p[j] === ']' && j > i + 1) return j;
  }
  return p.length;
}

function skipTo(p: string, i: number, ch: string): number {
  const j = p.indexOf(ch, i);
  return j < 0 ? p.length : j;
}
