/**
 * @module server/routes/status-bodies: the rendered bodies of `GET /evaluations/{id}` (issue 20,
 * item 3). A poll used to copy the stored view into a new envelope (`Buffer.concat` of ~2 KB) on
 * every request; here the envelope of a view is built once per watermark and reused while the
 * stored view stays the same. "The same" is decided by content, not by time: each poll still reads
 * the view from the store and compares its bytes with the remembered ones (one `memcmp`), so a
 * state change written by any process or node is served at once, and nothing is served from
 * memory for an evaluation the store no longer has.
 */
import type { EvaluationView } from '../../store/evaluations/repository.js';
import { okBytes } from '../http/envelope.js';

/** Most bytes of views and bodies remembered (oldest evaluation dropped first). */
export const STATUS_BODIES_MAX_BYTES = 16 * 1024 * 1024;
/** Most watermarks (keys and days) remembered per evaluation: one or two keys usually poll one evaluation. */
const BODIES_PER_VIEW = 4;

/** One evaluation's remembered view and its bodies by watermark. */
interface Entry {
  /** A copy of the view's `json` (never the store's shared read buffer). */
  readonly json: Buffer;
  readonly errorJson: string | null;
  readonly bodies: Map<string, Buffer>;
  bytes: number;
}

/** Rendered envelopes of status views, by evaluation id and watermark; bounded by bytes. */
export class StatusBodies {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes = STATUS_BODIES_MAX_BYTES) {}

  /**
   * The body `{"ok":true,"data":<view>,"meta":{"watermark":…}[,"error":…]}` of `view` (the stored
   * view just read for `evaluationId`) for `watermark`: the remembered bytes when the view is
   * byte-for-byte the one they were rendered from, else rendered now (and remembered).
   */
  body(evaluationId: string, view: EvaluationView, watermark: string): Buffer {
    let entry = this.entries.get(evaluationId);
    if (entry !== undefined && (entry.errorJson !== view.errorJson || !entry.json.equals(view.json))) {
      this.drop(evaluationId, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      const json = Buffer.from(view.json); // a copy: `view.json` may be the store's read buffer
      entry = { json, errorJson: view.errorJson, bodies: new Map(), bytes: json.length };
      this.entries.set(evaluationId, entry);
      this.bytes += json.length;
    }
    const known = entry.bodies.get(watermark);
    if (known !== undefined) return known;
    const body = okBytes(entry.json, watermark, view.errorJson === null ? '' : `,"error":${view.errorJson}`)
      .body as Buffer;
    if (entry.bodies.size >= BODIES_PER_VIEW) {
      for (const b of entry.bodies.values()) {
        entry.bytes -= b.length;
        this.bytes -= b.length;
      }
      entry.bodies.clear();
    }
    entry.bodies.set(watermark, body);
    entry.bytes += body.length;
    this.bytes += body.length;
    this.evict(evaluationId);
    return body;
  }

  /** Remembered evaluations (tests). */
  get size(): number {
    return this.entries.size;
  }

  /** Drops the oldest entries (never `keep`, the one just served) until within the byte bound. */
  private evict(keep: string): void {
    if (this.bytes <= this.maxBytes) return;
    for (const [id, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      if (id !== keep) this.drop(id, e);
    }
  }

  private drop(evaluationId: string, entry: Entry): void {
    this.bytes -= entry.bytes;
    this.entries.delete(evaluationId);
  }
}
