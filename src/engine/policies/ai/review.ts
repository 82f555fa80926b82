/**
 * @module engine/policies/ai/review: which modules only put AI output before a person who reviews it
 * (AI-6; AI-1 does not report deliveries to the owner either). A delivery whose audience is `owner`
 * (`risk/audience.ts`), a draft, a record written with a literal review status, and a record such a
 * review record links. Acceptance set: make-extra MANIFEST category 3 (sent unreviewed vs draft,
 * reviewed post, internal-only).
 */
import type { Analysis } from '../../analysis.js';
import type { ModuleNode } from '../../blueprint/types.js';
import { classify } from '../../blueprint/classify.js';
import { audienceOf } from '../../risk/audience.js';

/**
 * Literal status values that stage a record for a person's review or approval (English, Spanish,
 * French, German, Portuguese): `Pending Review`, `Pendiente de aprobación`, `À valider`, `Draft`.
 */
const REVIEW_STATUS =
  /^(?:(?:pending|awaiting|needs?|to|for|ready for|waiting for|in|under)[\s_-]+(?:human[\s_-]+)?(?:review|approval|validation)|to[\s_-]+(?:approve|review|validate)|draft|borrador|brouillon|entwurf|rascunho|pendiente de (?:aprobaci[oó]n|revisi[oó]n)|por (?:revisar|aprobar)|pendente de (?:aprova[cç][aã]o|revis[aã]o)|en attente de (?:validation|relecture)|à (?:valider|relire)|zur (?:prüfung|freigabe)|zu prüfen)$/iu;

/**
 * Modules that only put AI output before a person who reviews it, with the reason: a delivery to the
 * owner or the team (`audienceOf` audience `owner`), a draft (module table `draft`: a Gmail draft,
 * a Contentful entry), a record written with a literal review status (`Pending Review`), and a record
 * such a review record links by id (`{{28.id}}`: the draft it asks a person to review). AI-6 does
 * not count these as acting on the output. Computed once per evaluation over the string index.
 * @returns module id → why it is a review step.
 */
export function reviewSteps(analysis: Analysis): Map<string, string> {
  const steps = new Map<string, string>();
  const df = analysis.dataflow();
  for (const leaf of analysis.strings()) {
    const m = leaf.module;
    if (
      leaf.section !== 'mapper' ||
      leaf.value.length > 48 ||
      steps.has(m.id) ||
      leaf.value.includes('{{') ||
      !REVIEW_STATUS.test(leaf.value.trim()) ||
      classify(m).effect !== 'write'
    )
      continue;
    steps.set(m.id, `writes a record marked \`${leaf.value.trim().slice(0, 40)}\` for a person to review`);
    for (const r of df.refsOf(m.id)) {
      const linked = analysis.graph.byId.get(r.moduleId);
      if (r.path === 'id' && linked && classify(linked).effect === 'write' && !steps.has(linked.id))
        steps.set(linked.id, `writes a record that review record ${m.id} links for a person to review`);
    }
  }
  for (const m of analysis.graph.modules)
    if (classify(m).draft) steps.set(m.id, 'saves a draft for a person to send or publish');
  return steps;
}

/**
 * Why a module that takes AI output only puts it before a person (see `reviewSteps`), or `null`
 * when it acts on it (a write, a delivery to outsiders, a request, code).
 */
export function reviewStepOf(analysis: Analysis, steps: ReadonlyMap<string, string>, m: ModuleNode): string | null {
  const step = steps.get(m.id);
  if (step) return step;
  const delivery = audienceOf(analysis, m);
  return delivery?.audience === 'owner' ? delivery.why : null;
}

/** False for `error.*` paths: in an error route, `{{7.error.message}}` is the failure of module 7, not its output. */
export function isOutput(path: string): boolean {
  return path !== 'error' && !path.startsWith('error.');
}
