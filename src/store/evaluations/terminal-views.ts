/**
 * @module store/evaluations/terminal-views: a node's memory of the status views of finished
 * evaluations (Redis backend). A `complete` or `error` view never changes again; it only goes away
 * (deleted by an operator, retired, an ephemeral one expired). Served from memory, a poll of a
 * finished evaluation, the most frequent request of a client waiting for its results, costs no
 * Redis round trip and stays synchronous: measured, the Redis node's CPU per signed read was
 * 1.48-1.79 × the LMDB node's with a round trip per poll (docs/benchmarks.md "Cluster mode").
 * An entry is trusted for TTL_MS, so a deletion on another node is seen within that time (the
 * bound key revocation has too); this node's own deletions clear it at once. Bounded by bytes.
 */
import type { EvaluationView } from './repository.js';

/** How long a remembered view is served without asking Redis again, in ms. */
export const TERMINAL_VIEW_TTL_MS = 1_000;
/** Most bytes of views remembered (oldest dropped first). */
export const TERMINAL_VIEWS_MAX_BYTES = 32 * 1024 * 1024;

/** True when `view` is of a finished evaluation (`renderEvaluationView` writes `status` right after `evaluation_id`). */
export function isTerminalView(view: EvaluationView): boolean {
  const head = Buffer.from(view.json.buffer, view.json.byteOffset, Math.min(view.json.byteLength, 256)).toString(
    'latin1',
  );
  const at = head.indexOf('"status":"');
  if (at < 0) return false;
  return head.startsWith('complete"', at + 10) || head.startsWith('error"', at + 10);
}

/** Finished evaluations' views, by evaluation id. */
export class TerminalViews {
  private readonly entries = new Map<string, { readonly view: EvaluationView; readonly until: number }>();
  private bytes = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** The remembered view, if still trusted. */
  get(evaluationId: string): EvaluationView | undefined {
    const e = this.entries.get(evaluationId);
    if (!e) return undefined;
    if (e.until > this.now()) return e.view;
    this.drop(evaluationId);
    return undefined;
  }

  /** Remembers `view` when it is terminal (its `json` must not be a shared read buffer). */
  offer(evaluationId: string, view: EvaluationView): void {
    if (!isTerminalView(view)) return;
    this.drop(evaluationId);
    this.entries.set(evaluationId, { view, until: this.now() + TERMINAL_VIEW_TTL_MS });
    this.bytes += view.json.byteLength;
    for (const id of this.entries.keys()) {
      if (this.bytes <= TERMINAL_VIEWS_MAX_BYTES) break;
      this.drop(id);
    }
  }

  /** Forgets one evaluation (deleted here), or every one (a purge here). */
  forget(evaluationId?: string): void {
    if (evaluationId === undefined) {
      this.entries.clear();
      this.bytes = 0;
    } else this.drop(evaluationId);
  }

  private drop(evaluationId: string): void {
    const e = this.entries.get(evaluationId);
    if (!e) return;
    this.bytes -= e.view.json.byteLength;
    this.entries.delete(evaluationId);
  }
}
