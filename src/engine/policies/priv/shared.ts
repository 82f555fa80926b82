/** @module engine/policies/priv/shared: where personal data goes (shared by the PRIV policies). */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import type { PiiFlow } from '../../dataflow.js';
import { classify } from '../../blueprint/classify.js';

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

/** `email (from 1.email), phone (from 3.mobile)` */
export function describeFlows(flows: readonly PiiFlow[]): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const f of flows) {
    const label = `${f.kind} (\`${f.from.moduleId}.${f.from.path}\`)`;
    if (!seen.has(label)) { seen.add(label); parts.push(label); }
  }
  return parts.slice(0, 4).join(', ') + (parts.length > 4 ? `, +${parts.length - 4} more` : '');
}
