/**
 * @module engine/secrets/blueprint: the secrets of a whole blueprint. Scans every string of every
 * section with all detectors except the modules' field specs (`metadata.expect`, `interface`,
 * `parameters`: Make's generated UI schemas, three quarters of an export's strings), then reports
 * every copy of a credential found there in any string, field specs included (a key pasted a second
 * time into `metadata.designer.samples`, an interface label, a restore column header): a copy of a
 * secret is as exposed as the original, whatever field holds it. credentials.ts groups the strings
 * that hold the same secret into one credential (SEC-1 reports each once, with all its places).
 */
import type { Analysis } from '../analysis.js';
import type { BlueprintLeaf, LeafSection } from '../leaves.js';
import type { SecretFinding } from './types.js';
import { scanText, withFieldContext } from './scan.js';

/** Credentials found in one leaf, in offset order. */
export interface LeafSecrets {
  readonly leaf: BlueprintLeaf;
  readonly secrets: readonly SecretFinding[];
}

/** Shortest string scanned at all: no credential format or threshold accepts fewer characters. */
export const MIN_LEAF_LENGTH = 8;
/** Sections scanned with every detector. */
const SCANNED: ReadonlySet<LeafSection> = new Set([
  'mapper',
  'parameters',
  'filter',
  'metadata',
  'module',
  'scenario-metadata',
  'io',
  'scenario',
]);
/** Field specs: searched only for copies of credentials found in SCANNED, and only when there are some. */
const SPECS: ReadonlySet<LeafSection> = new Set(['schema']);
/** Shortest credential searched for as a copy elsewhere (shorter values recur by chance). */
export const MIN_REPEAT_LENGTH = 16;
/** Most distinct credentials searched for as copies (bounds the second pass). */
const MAX_REPEAT_SECRETS = 64;

/**
 * Fields that hold a record's key, never a credential, whatever they look like: Make Data store
 * modules address a record by its `key` (Make documentation "Data store"; make-extra MANIFEST:
 * fostercare's `b514473da2fe`). Their name gives no credential context.
 */
const RECORD_KEY_FIELDS: Readonly<Record<string, ReadonlySet<string>>> = {
  datastore: new Set(['key']),
};

/** The field name to scan a leaf with: none for record-key fields. */
function contextName(leaf: BlueprintLeaf): string | null {
  if (leaf.fieldName === null || leaf.module === null || leaf.section !== 'mapper') return leaf.fieldName;
  return RECORD_KEY_FIELDS[leaf.module.app]?.has(leaf.fieldName) ? null : leaf.fieldName;
}

/**
 * The credentials of a blueprint: every SCANNED string through `scanForSecrets` (with its field name),
 * then every further occurrence of a found credential (at least MIN_REPEAT_LENGTH characters) in any
 * string, field specs included, as a `repeated-credential` finding (`repeated-credential-identifier`
 * for a copy of only the identifier half of a pair, such as a Z-API instance id in sample data).
 * @returns the leaves with at least one finding: scanned sections in document order, then field specs.
 */
export function scanBlueprint(analysis: Analysis): LeafSecrets[] {
  const leaves = analysis.allStrings({ minLength: MIN_LEAF_LENGTH, sections: SCANNED });
  const found = new Map<number, readonly SecretFinding[]>();
  // Each credential text → whether it is only the identifier half of a pair (its copies are marked so).
  const known = new Map<string, boolean>();
  leaves.forEach((leaf, i) => {
    const secrets = withFieldContext(leaf.value, scanText(leaf.value), contextName(leaf));
    if (secrets.length === 0) return;
    found.set(i, secrets);
    for (const s of secrets) {
      if (s.end - s.start >= MIN_REPEAT_LENGTH && known.size < MAX_REPEAT_SECRETS)
        known.set(leaf.value.slice(s.start, s.end), s.identifier === true);
    }
  });
  if (known.size === 0) return [...found].map(([i, secrets]) => ({ leaf: leaves[i]!, secrets }));
  const all = [...leaves, ...analysis.allStrings({ minLength: MIN_REPEAT_LENGTH, sections: SPECS })];
  addCopies(all, known, found);
  return [...found.keys()].sort((a, b) => a - b).map((i) => ({ leaf: all[i]!, secrets: found.get(i)! }));
}

/**
 * Every occurrence of a known credential in any leaf. The leaves are searched as one joined text
 * (NUL-separated: no credential contains NUL), so each credential costs one native `indexOf` pass
 * over the blueprint's strings instead of one call per leaf; hits map back to leaves by binary search.
 */
function addCopies(
  leaves: readonly BlueprintLeaf[],
  known: ReadonlyMap<string, boolean>,
  found: Map<number, readonly SecretFinding[]>,
): void {
  const index: number[] = [];
  const starts: number[] = [];
  const parts: string[] = [];
  let at = 0;
  leaves.forEach((leaf, i) => {
    if (leaf.value.length < MIN_REPEAT_LENGTH) return;
    index.push(i);
    starts.push(at);
    parts.push(leaf.value);
    at += leaf.value.length + 1;
  });
  const text = parts.join('\u0000');
  const copies = new Map<number, SecretFinding[]>();
  for (const [secret, identifier] of known) {
    for (let hit = text.indexOf(secret); hit >= 0; hit = text.indexOf(secret, hit + secret.length)) {
      let lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= hit) lo = mid;
        else hi = mid - 1;
      }
      const start = hit - starts[lo]!;
      const list = copies.get(index[lo]!) ?? copies.set(index[lo]!, []).get(index[lo]!)!;
      list.push(
        identifier
          ? {
              kind: 'repeated-credential-identifier',
              title: 'copy of the identifier half of a credential found elsewhere in this blueprint',
              start,
              end: start + secret.length,
              identifier: true,
            }
          : {
              kind: 'repeated-credential',
              title: 'copy of a credential found elsewhere in this blueprint',
              start,
              end: start + secret.length,
            },
      );
    }
  }
  for (const [i, list] of copies) found.set(i, merge(found.get(i) ?? [], list));
}

/** Findings of both lists by offset; a copy overlapping an earlier finding is dropped. */
function merge(first: readonly SecretFinding[], copies: readonly SecretFinding[]): SecretFinding[] {
  const all = [...first, ...copies].sort((a, b) => a.start - b.start || b.end - a.end);
  let end = 0;
  return all.filter((f) => (f.start >= end ? ((end = f.end), true) : false));
}
