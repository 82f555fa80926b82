/**
 * @module store/evaluations/redis: EvaluationsRepository on Redis (`P{org}:ev:<id>`: record and
 * pre-rendered view; `P{org}:ev-results:<id>`; `Pev-org`, `Popen`, `Pexpiry`, `Pcompleted`, `Ptoken:<jti>`;
 * store/redis/keys). Every write is one script; the commit is store/evaluations/redis-commit.
 */
import type { EvaluationRecord, WebhookRecord } from '../../model/records.js';
import type {
  CommitReceipt,
  EvaluationCommit,
  EvaluationView,
  EvaluationsRepository,
  OpenCounts,
  UpdateReceipt,
} from './repository.js';
import type { RedisContext } from '../redis/context.js';
import type { ScriptArg, ScriptCall } from '../redis/script.js';
import { decodeStoredView, encodeStoredView } from './stored-view.js';
import { TerminalViews } from './terminal-views.js';
import type { Awaitable } from '../awaitable.js';
import { byCodePoint, packRecord, unpackRecord, valuesById } from '../redis/codec.js';
import { CommitContentionError, luaScript, runScript } from '../redis/script.js';
import { COMMIT, resultArgs } from './redis-commit.js';
import { ARGS_PER_DELIVERY, deliveryParams } from '../webhooks/redis-outbox.js';
import { isTerminal, retiredAtMs } from './retirement.js';
import { historyEntry } from '../fleet/keys.js';

/** KEYS: evaluation, ev-org, open, expiry, counts. ARGV: id, org, record, view, open value, expires_at ms ('' = none). */
const CREATE = luaScript(
  'evaluation-create',
  `local added = redis.call('HSET', KEYS[1], 'rec', ARGV[3], 'view', ARGV[4])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[5])
if ARGV[6] ~= '' then redis.call('ZADD', KEYS[4], ARGV[6], ARGV[1]) end
if added > 0 then redis.call('HINCRBY', KEYS[5], 'evaluations', 1) end
return 1`,
);

/** KEYS: the organization's chunk backlog. ARGV: oldest score kept (ms). Prunes entries older than it. @returns the entries left. */
const CHUNK_BACKLOG = luaScript(
  'chunk-backlog',
  `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
return redis.call('ZCARD', KEYS[1])`,
);

/** KEYS: the organization's chunk backlog. ARGV: score (ms), then the job ids. @returns 1. */
const CHUNKS_QUEUED = luaScript(
  'chunks-queued',
  `for i = 2, #ARGV do redis.call('ZADD', KEYS[1], ARGV[1], ARGV[i]) end
return 1`,
);

/**
 * KEYS: evaluation, evaluation results, open, expiry, ev-org, counts, completed. ARGV: id, retired
 * ('1': retention, which deletes only a terminal evaluation, one not in the open index, and only
 * when it retired before ARGV[3], epoch ms, by its `Pcompleted` score). Removes the record and every
 * index entry (a scenario's latest results are copies and stay).
 * @returns 1, 0 when the record was already gone (its index entries are removed all the same), or
 *   -1 when retention kept it (open, or retired later: nothing written).
 */
const DELETE = luaScript(
  'evaluation-delete',
  `if ARGV[2] == '1' then
  local at = redis.call('ZSCORE', KEYS[7], ARGV[1])
  if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 1 or (at and tonumber(at) >= tonumber(ARGV[3])) then return -1 end
end
local existed = redis.call('DEL', KEYS[1])
redis.call('DEL', KEYS[2])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('HDEL', KEYS[5], ARGV[1])
redis.call('ZREM', KEYS[7], ARGV[1])
if existed == 1 then redis.call('HINCRBY', KEYS[6], 'evaluations', -1) end
return existed`,
);

const NO_DELIVERIES: CommitReceipt = { webhookIds: [] };
/** A commit whose endpoints keep changing under it gives up after this many attempts (the caller's write-failure path). */
const MAX_COMMIT_ATTEMPTS = 20;

/** `Popen` value: `<status>:<org id>` (countOpen reads statuses, listOpen the owners, without reading records). */
const openValue = (r: EvaluationRecord) => `${r.status}:${r.org_id}`;

/** Evaluations in Redis. */
export class RedisEvaluations implements EvaluationsRepository {
  /** Finished evaluations' views in this node's memory (store/evaluations/terminal-views). */
  private readonly terminalViews = new TerminalViews();

  constructor(private readonly c: RedisContext) {}

  async create(record: EvaluationRecord): Promise<void> {
    const call = this.creation(record);
    await runScript(this.c.redis, call.script, call.keys, call.args);
    this.created(record);
  }

  /**
   * What `create` runs, as a value: cluster mode runs it in one `MULTI` with the evaluation's chunk
   * jobs (actors/cluster/chunk-queue `create`), so that both are stored or neither.
   */
  creation(record: EvaluationRecord): ScriptCall {
    const k = this.c.keys;
    const id = record.evaluation_id;
    return {
      script: CREATE,
      keys: [k.evaluation(record.org_id, id), k.evaluationOrgs, k.open, k.expiry, k.counts],
      args: [
        id,
        record.org_id,
        packRecord(record),
        encodeStoredView(record),
        openValue(record),
        record.expires_at ?? '',
      ],
    };
  }

  /** To call once `creation(record)` ran: this node knows the evaluation's owner without asking Redis. */
  created(record: EvaluationRecord): void {
    this.c.evaluationOwners.remember(record.evaluation_id, record.org_id);
  }

  /**
   * How many of organization `orgId`'s chunk jobs wait to start (cluster mode's fair order between
   * organizations, actors/cluster/chunk-queue): its backlog, after dropping entries queued before
   * `oldestMs` (epoch ms: a job never started by then belongs to an evaluation its budget has closed,
   * or to a transaction that failed).
   */
  async chunkBacklog(orgId: string, oldestMs: number): Promise<number> {
    return Number(await runScript(this.c.redis, CHUNK_BACKLOG, [this.c.keys.chunkBacklog(orgId)], [oldestMs]));
  }

  /** The script call that counts `jobIds` into `orgId`'s backlog at `atMs`, to run in the transaction that adds them. */
  chunksQueued(orgId: string, jobIds: readonly string[], atMs: number): ScriptCall {
    return { script: CHUNKS_QUEUED, keys: [this.c.keys.chunkBacklog(orgId)], args: [atMs, ...jobIds] };
  }

  /** Takes a chunk job out of its organization's backlog: a node started it (idempotent). */
  async chunkStarted(orgId: string, jobId: string): Promise<void> {
    await this.c.redis.zrem(this.c.keys.chunkBacklog(orgId), jobId);
  }

  async get(evaluationId: string): Promise<EvaluationRecord | undefined> {
    const orgId = await this.c.evaluationOwners.orgOf(evaluationId);
    if (orgId === undefined) return undefined;
    const bytes = await this.c.redis.hgetBuffer(this.c.keys.evaluation(orgId, evaluationId), 'rec');
    return unpackRecord<EvaluationRecord>(bytes);
  }

  /**
   * A finished evaluation's view from this node's memory when trusted (synchronous), else one HGET
   * once the owner is cached; the bytes are split in place (no decode, no copy).
   */
  view(evaluationId: string): Awaitable<EvaluationView | undefined> {
    return this.terminalViews.get(evaluationId) ?? this.readView(evaluationId);
  }

  private async readView(evaluationId: string): Promise<EvaluationView | undefined> {
    const orgId = await this.c.evaluationOwners.orgOf(evaluationId);
    if (orgId === undefined) return undefined;
    const raw = await this.c.redis.hgetBuffer(this.c.keys.evaluation(orgId, evaluationId), 'view');
    if (raw === null) return undefined;
    const view = decodeStoredView(raw);
    this.terminalViews.offer(evaluationId, view);
    return view;
  }

  /** One script; retried (deliveries made again) while the organization's endpoints change under it. */
  async commit(change: EvaluationCommit): Promise<CommitReceipt> {
    for (let attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
      const outcome = await this.write(change, '');
      if (outcome === 'deleted') return NO_DELIVERIES; // deleted by an operator meanwhile: stays deleted
      if (outcome !== 'retry') return outcome;
    }
    throw new CommitContentionError(
      `evaluation ${change.record.evaluation_id}: ${MAX_COMMIT_ATTEMPTS} commit attempts conflicted`,
    );
  }

  /**
   * Reads the record, asks `decide`, and writes its change only if the record still holds the bytes
   * read (a compare-and-set inside the commit script); on a conflict it reads and decides again.
   */
  async update(
    evaluationId: string,
    decide: (current: EvaluationRecord) => EvaluationCommit | undefined,
  ): Promise<UpdateReceipt | undefined> {
    const orgId = await this.c.evaluationOwners.orgOf(evaluationId);
    if (orgId === undefined) return undefined;
    const key = this.c.keys.evaluation(orgId, evaluationId);
    for (let attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
      const bytes = await this.c.redis.hgetBuffer(key, 'rec');
      const current = unpackRecord<EvaluationRecord>(bytes);
      const change = current && decide(current);
      if (!bytes || !change) return undefined;
      const outcome = await this.write(change, bytes);
      if (outcome === 'deleted') return undefined;
      if (outcome !== 'retry') return { ...outcome, record: change.record };
    }
    throw new CommitContentionError(`evaluation ${evaluationId}: ${MAX_COMMIT_ATTEMPTS} update attempts conflicted`);
  }

  /** One attempt of the commit script (store/evaluations/redis-commit), `expected` the record bytes it must still hold ('' = any). */
  private async write(change: EvaluationCommit, expected: Buffer | ''): Promise<CommitReceipt | 'deleted' | 'retry'> {
    const { record } = change;
    const k = this.c.keys;
    const org = record.org_id;
    const evKey = k.evaluation(org, record.evaluation_id);
    const results = record.kind === 'stored' ? (change.results ?? []) : [];
    const keys = [evKey, k.open, k.rollup(org), k.counts, k.webhooksRev(org), k.scenarios(org)];
    keys.push(k.evaluationResults(org, record.evaluation_id), k.outboxEndpoints, k.completed);
    keys.push(k.fleet(org), k.fleetRows(org), k.days(org));
    const perResult: ScriptArg[] = [];
    for (const w of results) {
      const sid = record.scenario_ids[w.index]!;
      keys.push(k.latest(org, sid), k.history(org, sid));
      const version = record.versions[w.index] ?? 0;
      const contribution = JSON.stringify(w.contribution);
      const history = JSON.stringify(historyEntry(record.evaluation_id, w));
      perResult.push(
        ...resultArgs(w.index, sid, version, w.evaluatedAt, w.results, w.remediation, contribution, history),
      );
    }
    let rev = '';
    const perDelivery: ScriptArg[] = [];
    let webhookIds: string[] = [];
    if (isTerminal(record) && change.deliveries) {
      const [exists, stored, all] = await Promise.all([
        this.c.redis.exists(evKey),
        this.c.redis.get(k.webhooksRev(org)),
        this.c.redis.hgetallBuffer(k.webhooks(org)),
      ]);
      if (exists === 0) return 'deleted';
      rev = stored ?? '0';
      const endpoints = valuesById(all, (b) => unpackRecord<WebhookRecord>(b)!);
      webhookIds = deliveryParams(k, change.deliveries(endpoints), keys, perDelivery);
    }
    const args: ScriptArg[] = [record.evaluation_id, packRecord(record), encodeStoredView(record)];
    args.push(isTerminal(record) ? '1' : '0', openValue(record), rev, this.c.nowIso());
    args.push(results.length, perDelivery.length / ARGS_PER_DELIVERY, expected, retiredAtMs(record) ?? '');
    const completedDay = record.status === 'complete' ? (record.completed_at ?? record.updated_at).slice(0, 10) : '';
    args.push(completedDay, record.total_scenarios);
    const outcome = await runScript(this.c.redis, COMMIT, keys, [...args, ...perResult, ...perDelivery]);
    if (outcome === 'deleted' || outcome === 'retry') return outcome;
    return { webhookIds };
  }

  async scenarioResults(evaluationId: string, index: number): Promise<Uint8Array | undefined> {
    const orgId = await this.c.evaluationOwners.orgOf(evaluationId);
    if (orgId === undefined) return undefined;
    return (
      (await this.c.redis.hgetBuffer(this.c.keys.evaluationResults(orgId, evaluationId), String(index))) ?? undefined
    );
  }

  /** Two round trips: the open index (id → status and owner), then every record. */
  async listOpen(): Promise<EvaluationRecord[]> {
    const index = await this.c.redis.hgetall(this.c.keys.open);
    const ids = Object.keys(index).sort(byCodePoint);
    const records = await Promise.all(
      ids.map((id) => {
        const value = index[id]!;
        const orgId = value.slice(value.indexOf(':') + 1);
        return this.c.redis.hgetBuffer(this.c.keys.evaluation(orgId, id), 'rec');
      }),
    );
    const open: EvaluationRecord[] = [];
    const stale: string[] = [];
    for (const [i, bytes] of records.entries()) {
      const record = unpackRecord<EvaluationRecord>(bytes);
      if (!record || isTerminal(record)) stale.push(ids[i]!);
      else open.push(record);
    }
    // Entries of missing or terminal records (the scripts never leave them; this only repairs) are
    // dropped; a failed removal leaves them for the next call, which skips them again.
    if (stale.length > 0) this.c.redis.hdel(this.c.keys.open, ...stale).catch(() => undefined);
    return open;
  }

  async countOpen(): Promise<OpenCounts> {
    let pending = 0;
    let processing = 0;
    for (const value of await this.c.redis.hvals(this.c.keys.open)) {
      if (value.startsWith('pending:')) pending++;
      else processing++;
    }
    return { pending, processing };
  }

  /** Reads only the expired part of the expiry index (expires_at < nowMs); each evaluation is deleted by one script. */
  async purgeExpired(nowMs: number, busy: (evaluationId: string) => boolean): Promise<number> {
    const k = this.c.keys;
    const expired = await this.c.redis.zrangebyscore(k.expiry, '-inf', `(${nowMs}`);
    const due = expired.filter((id) => !busy(id));
    await Promise.all(
      due.map(async (id) => {
        const orgId = await this.c.evaluationOwners.orgOf(id);
        if (orgId === undefined) await this.c.redis.zrem(k.expiry, id);
        else await this.remove(orgId, id);
      }),
    );
    return due.length;
  }

  /**
   * Pages through the retired part of `Pcompleted` (score < beforeMs) until `limit` ids not busy are
   * collected, then deletes each by one script, which checks again that it is terminal and retired
   * (a concurrent purge on another node deletes it once: only the script that found it counts it).
   */
  async purgeRetired(beforeMs: number, busy: (evaluationId: string) => boolean, limit: number): Promise<number> {
    const k = this.c.keys;
    const due: string[] = [];
    for (let offset = 0; due.length < limit; offset += limit) {
      const page = await this.c.redis.zrangebyscore(k.completed, '-inf', `(${beforeMs}`, 'LIMIT', offset, limit);
      for (const id of page) if (due.length < limit && !busy(id)) due.push(id);
      if (page.length < limit) break;
    }
    const outcomes = await Promise.all(
      due.map(async (id) => {
        const orgId = await this.c.evaluationOwners.orgOf(id);
        if (orgId !== undefined) return this.remove(orgId, id, beforeMs);
        await this.c.redis.zrem(k.completed, id); // deleted meanwhile: only its entry was left
        return 0;
      }),
    );
    return outcomes.filter((o) => o === 1).length;
  }

  async delete(evaluationId: string): Promise<boolean> {
    const orgId = await this.c.evaluationOwners.orgOf(evaluationId);
    if (orgId === undefined) return false;
    return (await this.remove(orgId, evaluationId)) === 1;
  }

  async isTokenConsumed(jti: string): Promise<boolean> {
    return (await this.c.redis.exists(this.c.keys.token(jti))) === 1;
  }

  /** SET NX: of N concurrent redemptions exactly one sets the key (PITFALLS 20). No TTL: kept as long as in LMDB. */
  async consumeToken(jti: string, evaluationId: string, atMs: number): Promise<boolean> {
    const value = JSON.stringify({ at: atMs, evaluation_id: evaluationId });
    return (await this.c.redis.set(this.c.keys.token(jti), value, 'NX')) === 'OK';
  }

  /** Runs DELETE; with `retiredBeforeMs`, only a terminal evaluation retired before it (retention). @returns the script's reply. */
  private async remove(orgId: string, id: string, retiredBeforeMs?: number): Promise<unknown> {
    const k = this.c.keys;
    const reply = await runScript(
      this.c.redis,
      DELETE,
      [
        k.evaluation(orgId, id),
        k.evaluationResults(orgId, id),
        k.open,
        k.expiry,
        k.evaluationOrgs,
        k.counts,
        k.completed,
      ],
      retiredBeforeMs === undefined ? [id, '0', ''] : [id, '1', retiredBeforeMs],
    );
    this.terminalViews.forget(id); // after the script: a read racing the delete may have remembered it
    return reply;
  }
}
