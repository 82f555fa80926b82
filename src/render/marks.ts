/** @module render/marks: what each module of the picture shows, from a scenario's violations (worst badge, failing, waived). */
import type { Severity } from '../engine/index.js';
import { SEVERITY_RANK } from '../engine/index.js';

/**
 * The least a violation must carry to be drawn: the engine's `Violation`, the service's stored
 * results (`WaivableViolation`, `waived` set on a waived violation or finding) and the scanner's
 * results all fit. `waived` counts when present and not `false` or `null` (its content is not read).
 */
export interface RenderViolation {
  readonly policy: string;
  readonly severity: Severity;
  readonly status: 'fail' | 'warn';
  readonly title: string;
  readonly failing_modules: readonly {
    readonly module_id: string;
    readonly severity: Severity;
    readonly reason: string;
    readonly waived?: unknown;
  }[];
  readonly waived?: unknown;
}

/** The marks of one module. */
export interface ModuleMark {
  /** Worst severity of the module's findings that are not waived; `null` when none. */
  readonly badge: Severity | null;
  /** True when a finding that is not waived belongs to a `fail` violation. */
  readonly failing: boolean;
  /** Findings on the module that are not waived. */
  readonly findings: number;
  /** Waived findings on the module. */
  readonly waived: number;
  /** `policy: reason` of each finding not waived, worst first (for the module's tooltip). */
  readonly reasons: readonly string[];
}

const isWaived = (w: unknown): boolean => w !== undefined && w !== null && w !== false;

/**
 * Marks per module id, for the modules some finding names (others have none). Badges come from each
 * finding's own severity, as the engine's `FailingModule.badge` (spec §2), waived findings left out
 * (issue 17: a waived finding counts in no badge).
 */
export function moduleMarks(violations: readonly RenderViolation[]): Map<string, ModuleMark> {
  const acc = new Map<
    string,
    { badge: Severity | null; failing: boolean; findings: number; waived: number; reasons: [number, string][] }
  >();
  for (const v of violations)
    for (const f of v.failing_modules) {
      let m = acc.get(f.module_id);
      if (!m) {
        m = { badge: null, failing: false, findings: 0, waived: 0, reasons: [] };
        acc.set(f.module_id, m);
      }
      if (isWaived(v.waived) || isWaived(f.waived)) {
        m.waived++;
        continue;
      }
      m.findings++;
      if (m.badge === null || SEVERITY_RANK[f.severity] > SEVERITY_RANK[m.badge]) m.badge = f.severity;
      if (v.status === 'fail') m.failing = true;
      m.reasons.push([SEVERITY_RANK[f.severity], `${v.policy} (${f.severity}): ${f.reason}`]);
    }
  const out = new Map<string, ModuleMark>();
  for (const [id, m] of acc)
    out.set(id, {
      ...m,
      // Stable sort: equal severities keep the violations' order.
      reasons: m.reasons.sort((a, b) => b[0] - a[0]).map(([, r]) => r),
    });
  return out;
}
