/**
 * @module engine/secrets/credentials: the credentials of a blueprint, each once with all its places
 * (issue 32: "one literal secret is one finding with all its locations, not one per copy"; "one
 * secret in two headers of one module is one finding"). The leaves that `scanBlueprint` reports are
 * grouped by the literal text of their secrets: a Supabase key sent both as `apikey` and as
 * `Authorization: Bearer …`, a token pasted into three HTTP modules, a key repeated in sample data or
 * an interface label, are one credential each. Computed once per evaluation (`Analysis.shared`), so
 * SEC-1 and SEC-2 read the same result.
 */
import { SharedKey, type Analysis } from '../analysis.js';
import type { SecretFinding } from './types.js';
import { scanBlueprint, type LeafSecrets } from './blueprint.js';

/** One credential: every string of the blueprint that holds it. */
export interface BlueprintCredential {
  /**
   * The strings holding it, the first one found first (scanned sections in document order, then
   * field specs): that one is where the finding is reported; the others are its further locations.
   */
  readonly locations: readonly LeafSecrets[];
}

/** The credentials of a blueprint and the literal text of every secret found in it. */
export interface BlueprintSecrets {
  readonly credentials: readonly BlueprintCredential[];
  /** The literal text of every secret found (originals and copies), for policies that must not repeat SEC-1. */
  readonly literals: ReadonlySet<string>;
}

const SECRETS = new SharedKey<BlueprintSecrets>('secrets.credentials');

/**
 * The credentials of the blueprint `analysis` holds, computed once per evaluation. Grouping, in the
 * order `scanBlueprint` reports the strings: a string joins the credential of the first earlier string
 * that shares one of its secrets' literal text (whole secret, not a substring), else starts a new
 * one; every literal of a string is then known as that credential's. A string holding two different
 * credentials that were each seen before is listed under the first (a rare case: two keys pasted side
 * by side, both also elsewhere). Linear in the number of secrets.
 */
export function blueprintSecrets(analysis: Analysis): BlueprintSecrets {
  return analysis.shared(SECRETS, () => group(scanBlueprint(analysis)));
}

function group(leaves: readonly LeafSecrets[]): BlueprintSecrets {
  const byLiteral = new Map<string, LeafSecrets[]>();
  const groups: LeafSecrets[][] = [];
  for (const entry of leaves) {
    const literals = entry.secrets.map((s: SecretFinding) => entry.leaf.value.slice(s.start, s.end));
    let target: LeafSecrets[] | undefined;
    for (const l of literals) if ((target = byLiteral.get(l))) break;
    if (target === undefined) groups.push((target = []));
    target.push(entry);
    for (const l of literals) if (!byLiteral.has(l)) byLiteral.set(l, target);
  }
  return {
    credentials: groups.map((locations) => ({ locations })),
    literals: new Set(byLiteral.keys()),
  };
}
