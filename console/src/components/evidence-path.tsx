/**
 * @module console/components/evidence-path: why a finding was reported (issue 32): its evidence path
 * "source → step → sink" with each module's name and id and what happens to the data there, and the
 * risk-model row that set its severity. Module names come from the blueprint and notes quote it: names
 * are text nodes (never markup), notes go through the Markdown converter (components/markdown: raw
 * HTML escaped, links left as text).
 */
import type { EvidencePathStep, FindingEvidence, Severity } from '../types.js';
import { Markdown } from './markdown.js';

const ROLE_NAMES: Readonly<Record<EvidencePathStep['role'], string>> = {
  source: 'Source',
  step: 'Step',
  sink: 'Sink',
};

/**
 * The evidence path and risk row of a finding, or nothing when its evidence has neither. Each module
 * is a button: pressing it selects the module in the picture (`onSelect`); hovering or focusing the
 * path marks all its modules there (`onHighlight` with their ids, `[]` on leaving).
 */
export function EvidencePath(props: {
  evidence: FindingEvidence | undefined;
  /** The finding's own severity, to say when it differs from the row's (capped, or set by the organization). */
  severity: Severity | undefined;
  onSelect: (moduleId: string) => void;
  onHighlight: (moduleIds: readonly string[]) => void;
}) {
  const { path, risk } = props.evidence ?? {};
  if (!path?.length && !risk) return null;
  const ids = (path ?? []).map((s) => String(s.module_id));
  return (
    <div class="evidence">
      {path && path.length > 0 && (
        <ol
          class="evidence-path"
          aria-label="Evidence path"
          onMouseEnter={() => props.onHighlight(ids)}
          onMouseLeave={() => props.onHighlight([])}
          onFocusIn={() => props.onHighlight(ids)}
          onFocusOut={() => props.onHighlight([])}
        >
          {path.map((s, i) => (
            <li key={`${i}-${s.module_id}`} data-role={s.role} data-module-id={s.module_id}>
              {i > 0 && (
                <span class="arrow" aria-hidden="true">
                  →{' '}
                </span>
              )}
              <span class="muted small">{ROLE_NAMES[s.role] ?? s.role}</span>{' '}
              <button
                type="button"
                class="module-link"
                title={`Select module ${s.module_id} in the picture`}
                onClick={() => props.onSelect(String(s.module_id))}
              >
                {s.module_name} <span class="mono">#{s.module_id}</span>
              </button>{' '}
              <Markdown class="note small" text={s.note} />
            </li>
          ))}
        </ol>
      )}
      {risk && (
        <p class="risk-row small">
          Severity set by <span class="mono">{risk.row}</span>: {risk.title} ({risk.severity})
          {props.severity !== undefined && props.severity !== risk.severity && (
            <span class="muted">; this finding is {props.severity}</span>
          )}
        </p>
      )}
    </div>
  );
}
