/** @module store/audit/lmdb: AuditRepository on LMDB (`audit`, `audit-seqs`). */
import type { AuditEntry, AuditRepository, StoredAuditEntry } from './repository.js';
import type { LmdbTables } from '../lmdb/tables.js';
import { k } from '../lmdb/tables.js';
import { prefixRange } from '../lmdb/ranges.js';

/** Digits of a sequence number in keys (keys sort by sequence). */
const SEQ_DIGITS = 12;
const seqKey = (n: number): string => String(n).padStart(SEQ_DIGITS, '0');

/** The audit log in LMDB: the sequence is taken and the entry stored in one write transaction. */
export class LmdbAudit implements AuditRepository {
  constructor(private readonly t: LmdbTables) {}

  async append(entry: AuditEntry): Promise<number> {
    const seq = await this.t.root.transaction(() => {
      const n = (this.t.auditSeqs.get(entry.org_id) ?? 0) + 1;
      this.t.auditSeqs.putSync(entry.org_id, n);
      this.t.audit.putSync(k(entry.org_id, seqKey(n)), entry);
      return n;
    });
    await this.t.flushed();
    return seq;
  }

  list(orgId: string, limit: number, before?: number): StoredAuditEntry[] {
    if (limit <= 0) return [];
    const below = before === undefined ? undefined : seqKey(before);
    const out: StoredAuditEntry[] = [];
    // Entries above the cursor are skipped key by key (the prefix scan has no upper bound of its own).
    for (const { key, value } of prefixRange(this.t.audit, [orgId], { reverse: true })) {
      const seq = key.slice(key.length - SEQ_DIGITS);
      if (below !== undefined && seq >= below) continue;
      out.push({ ...value, seq: Number(seq) });
      if (out.length >= limit) break;
    }
    return out;
  }
}
