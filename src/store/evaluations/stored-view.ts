/**
 * @module store/evaluations/stored-view: the bytes of an evaluation's status view as every backend
 * stores them: `<org id>\n<expires_at ms or "">\n<batch error JSON or "">\n<data JSON>`, rendered
 * once per state change so that a poll neither decodes a record nor encodes JSON (the poll is the
 * hottest read of the signed-reads bench).
 */
import type { EvaluationRecord } from '../../model/records.js';
import type { EvaluationView } from './repository.js';
import { renderEvaluationView } from '../../api/views/evaluation.js';

const NEWLINE = 0x0a;

/** The stored bytes of `record`'s status view. */
export function encodeStoredView(record: EvaluationRecord): Buffer {
  const error = record.status === 'error' ? JSON.stringify(record.error) : '';
  return Buffer.from(`${record.org_id}\n${record.expires_at ?? ''}\n${error}\n${renderEvaluationView(record)}`, 'utf8');
}

/** Splits stored view bytes in place (no copy: `json` is a view of `raw`). */
export function decodeStoredView(raw: Buffer): EvaluationView {
  const a = raw.indexOf(NEWLINE);
  const b = raw.indexOf(NEWLINE, a + 1);
  const c = raw.indexOf(NEWLINE, b + 1);
  return {
    orgId: raw.toString('utf8', 0, a),
    expiresAt: b === a + 1 ? null : Number(raw.toString('latin1', a + 1, b)),
    errorJson: c === b + 1 ? null : raw.toString('utf8', b + 1, c),
    json: raw.subarray(c + 1),
  };
}
