/** @module engine/policies/priv/shared: where personal data goes (shared by the PRIV policies). */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { PiiFlow } from '../../dataflow.js';
import type { EvidenceStep } from '../../risk/types.js';
import { SharedKey } from '../../analysis.js';
import { classify, moduleUrl, urlHost } from '../../blueprint/classify.js';
import { PII_KIND_LABELS } from '../../pii.js';
import { OWN_SERVICE_HOSTS, type OwnService } from '../../hosts/service-hosts.js';
import { evidencePath } from '../../risk/path.js';
import { identifyingFlows } from '../../risk/sensitivity.js';

/** A module receiving personal data, with the flows that reach it. */
export interface PiiSink {
  readonly module: ModuleNode;
  readonly flows: readonly PiiFlow[];
}

/** External (non-Make) modules that receive personal data. */
export function externalPiiSinks(analysis: Analysis): PiiSink[] {
  const df = analysis.dataflow();
  const out: PiiSink[] = [];
  for (const m of analysis.graph.modules) {
    const cls = classify(m);
    if (!cls.external && !cls.http) continue;
    const flows = df.piiInputs(m.id);
    if (flows.length > 0) out.push({ module: m, flows });
  }
  return out;
}

/**
 * External modules that receive personal data by what it is (`risk/sensitivity.ts`
 * `identifyingFlows`: free text that identifies no one is left out), as PRIV-1, PRIV-4 and PRIV-6
 * judge it (issue 32). Computed once per evaluation.
 */
export function personalDataSinks(analysis: Analysis): readonly PiiSink[] {
  return analysis.shared(PERSONAL_SINKS, () =>
    externalPiiSinks(analysis)
      .map((s) => ({ module: s.module, flows: identifyingFlows(analysis, s.flows) }))
      .filter((s) => s.flows.length > 0),
  );
}

const PERSONAL_SINKS = new SharedKey<readonly PiiSink[]>('personal data sinks by content');

/** `e-mail address \`1.email\`, \`2.text\` of an incoming e-mail (\`google-email:TriggerNewEmail\`)` */
export function describeFlows(flows: readonly PiiFlow[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const f of flows) {
    const ref = `\`${f.from.moduleId}.${f.from.path}\``;
    const label =
      f.kind === 'personal'
        ? f.origin
          ? `${ref} of ${f.origin}`
          : ref
        : `${PII_KIND_LABELS[f.kind]} ${ref}${f.origin ? ` (${f.origin})` : ''}`;
    if (!seen.has(label)) {
      seen.add(label);
      parts.push(label);
    }
  }
  return parts.slice(0, 4).join(', ') + (parts.length > 4 ? `, +${parts.length - 4} more` : '');
}

/**
 * The evidence path of personal data reaching `sink` (issue 32): from the module whose field is the
 * data (`flow.from`, noted with the kind and the field: ``e-mail address `1.email` ``), through the
 * modules that map that field on (`risk/path.ts`, which prefers a first hop reading that very field),
 * to the sink with what it does with it (`sinkNote`).
 */
export function piiPath(analysis: Analysis, flow: PiiFlow, sink: ModuleNode, sinkNote: string): EvidenceStep[] {
  return evidencePath(analysis, flow.from.moduleId, sink.id, {
    source: `${PII_KIND_LABELS[flow.kind]} \`${flow.from.moduleId}.${flow.from.path}\``,
    sink: sinkNote,
    field: flow.from.path,
  });
}

export type { OwnService, OwnServiceKind } from '../../hosts/service-hosts.js';

/** The well-known service an HTTP module reaches with the operator's account (`luxisoft-default-rtdb.firebaseio.com` → Firebase Realtime Database, `database`), `null` for any other address. */
export function ownServiceOf(m: ModuleNode): OwnService | null {
  const url = moduleUrl(m);
  const host = url ? urlHost(url) : null;
  if (url === null || host === null) return null;
  const path = url.replace(/^\s*[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  for (const [h, name, kind, re] of OWN_SERVICE_HOSTS) {
    if (!(h.startsWith('.') ? host.endsWith(h) : host === h)) continue;
    if (re && !re.test(path)) continue;
    return { name, kind };
  }
  return null;
}
