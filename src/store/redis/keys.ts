/**
 * @module store/redis/keys: the whole key layout of the Redis backend (the counterpart of
 * store/lmdb/tables.ts). Only the Redis repositories build keys, and only through this module.
 *
 * Every key starts with a configurable prefix `P` (default `gov:`). Keys of one organization carry
 * its id as a Redis Cluster hash tag, `P{<org>}:…`, so that later, on a cluster, an organization's
 * keys stay in one slot and the scripts that change several of them (an evaluation commit, a
 * scenario deletion) keep working. Global indexes are keys of their own. Ids inside keys are escaped
 * (`%`, `{`, `}`, `:` as `%25`, `%7B`, `%7D`, `%3A`) so that no id can end a hash tag early or make two
 * keys collide; ids are otherwise binary-safe (any UTF-8, any length).
 *
 * | key | type | contents | owner |
 * |---|---|---|---|
 * | `P{org}:scenarios` | hash | scenario id → ScenarioRecord (JSON, built by the save script) | ScenariosRepository |
 * | `P{org}:blueprints:<scenario>` | hash | version → blueprint bytes as imported | ScenariosRepository |
 * | `P{org}:latest:<scenario>` | hash | the scenario's latest results: `json` (results bytes), `rem` (msgpack remediation), `at`, `ev`, `v`, `c` (contribution JSON) | EvaluationsRepository writes, ResultsRepository reads |
 * | `P{org}:rollup` | hash | the rollup, kept with HINCRBY: totals, `p:<code>:n` / `p:<code>:s` per policy, `g:<gap>`, `updated_at` | ResultsRepository |
 * | `P{org}:ev:<evaluation>` | hash | `rec` (msgpack EvaluationRecord), `view` (pre-rendered status view bytes) | EvaluationsRepository |
 * | `P{org}:ev-results:<evaluation>` | hash | scenario index → results bytes of that evaluation | EvaluationsRepository |
 * | `P{org}:keys` | set | the organization's API key ids | OrganizationsRepository |
 * | `P{org}:webhooks` | hash | webhook id → msgpack WebhookRecord | WebhooksRepository |
 * | `P{org}:webhooks-rev` | string | counter bumped by every endpoint change (optimistic check of a commit's deliveries) | WebhooksRepository |
 * | `P{org}:log:<webhook>` | hash | delivery id → msgpack DeliveryRecord (the delivery log) | WebhooksRepository |
 * | `P{org}:log-ids:<webhook>` | zset | delivery ids, all scored 0 (lexical order = creation order) | WebhooksRepository |
 * | `P{org}:outbox:<webhook>` | zset | pending delivery ids, scored 0 (oldest first) | WebhooksRepository |
 * | `P{org}:gov` | hash | governance counters: `settings` (current settings version), `rules-rev`, `rules-seq` (last n of `ORG-<n>`), `rules-active`, `waivers-seq` (absent = 0) | GovernanceRepository |
 * | `P{org}:gov-settings` | hash | version → msgpack GovernanceSettingsRecord (every version kept) | GovernanceRepository |
 * | `P{org}:rules` | hash | n (of `ORG-<n>`) → msgpack CustomRuleRecord (deleted ones kept) | GovernanceRepository |
 * | `P{org}:waivers` | hash | waiver id → msgpack WaiverRecord | GovernanceRepository |
 * | `P{org}:waiver-order` | zset | waiver ids scored by creation sequence (`waivers-seq`) | GovernanceRepository |
 * | `P{org}:scenario-waivers:<scenario>` | zset | the scenario's waiver ids scored by creation sequence | GovernanceRepository |
 * | `P{org}:waivers-active` | zset | unrevoked waiver ids scored by `expires_at` (ms; expired ones pruned by the next creation) | GovernanceRepository |
 * | `P{org}:audit-seq` | string | the organization's last audit sequence number | AuditRepository |
 * | `P{org}:audit` | zset | `<seq>:<entry JSON>` scored by seq (the audit log; never trimmed) | AuditRepository |
 * | `P{org}:fleet` | zset | the fleet sort indexes (issue 18): members `<group>\0<field>\0<sort key>\0<scenario>`, all scored 0 (store/fleet/keys) | FleetRepository; written by the scenario and commit scripts |
 * | `P{org}:fleet-rows` | hash | scenario id → fleet row JSON (store/fleet/redis-lua) | FleetRepository; written by the scenario and commit scripts |
 * | `P{org}:history:<scenario>` | zset | history entry JSON scored by `evaluated_at` (ms); newest 50 kept | FleetRepository; written by the commit script |
 * | `P{org}:chunk-backlog` | zset | the organization's chunk jobs not yet started (cluster mode), scored by when they were queued (ms); entries older than the evaluation budget are pruned | EvaluationsRepository (written with the chunk jobs, actors/cluster/chunk-queue; removed by the node that starts the job) |
 * | `P{org}:days` | hash | `YYYY-MM-DD:e` / `YYYY-MM-DD:s`: evaluations completed that day and their scenarios | FleetRepository; written by the commit script |
 * | `Porgs` | hash | org id → msgpack OrgRecord | OrganizationsRepository |
 * | `Pkey:<key>` | string | msgpack KeyRecord | OrganizationsRepository |
 * | `Pkey-hashes` | hash | keyed hash (hex) → key id | OrganizationsRepository |
 * | `Pkey-last-used` | hash | key id → when the key was last used (epoch ms, decimal; issue 18) | OrganizationsRepository |
 * | `Pwatermarks` | hash | watermark → msgpack WatermarkEntry | OrganizationsRepository |
 * | `Pev-org` | hash | evaluation id → org id | EvaluationsRepository |
 * | `Popen` | hash | open evaluation id → `<status>:<org id>` | EvaluationsRepository |
 * | `Pexpiry` | zset | ephemeral evaluation ids scored by `expires_at` (ms) | EvaluationsRepository |
 * | `Pcompleted` | zset | terminal stored evaluation ids scored by their retirement time (ms, `completed_at`; retention) | EvaluationsRepository |
 * | `Ptoken:<jti>` | string | redemption `{at, evaluation_id}` (JSON), written with SET NX | EvaluationsRepository |
 * | `Preplay` | zset | `<t>:<signature>` scored by t (unix s), written with ZADD NX | ReplayRepository |
 * | `Pidem:<key id>:<key>` | hash | Idempotency-Key record: `f` fingerprint, `e` expiry (ms), `k` claim token; once completed `s` status, `h` headers (JSON), `b` body; PEXPIRE of the same span | IdempotencyRepository |
 * | `Pwebhook-org` | hash | webhook id → org id (kept while its delivery log exists) | WebhooksRepository |
 * | `Poutbox-endpoints` | hash | webhook id → org id of endpoints with pending deliveries | WebhooksRepository |
 * | `Pwaiver-due:notice`, `Pwaiver-due:expiry` | zset | `<org>\0<waiver id>` scored by the epoch ms the waiver's notice or expiry is due | GovernanceRepository |
 * | `Pcounts` | hash | record counts for `stats()` (scenarios, evaluations, results, keys, webhooks, deliveries, waivers, custom_rules, outbox) | RedisStore |
 * | `Pmigrations` | hash | name of a one-time upgrade of earlier releases' data → when it finished (ISO 8601) | store/redis/migrate |
 * | `Puser:<user>` | string | msgpack UserRecord | ConsoleAccountsRepository |
 * | `Puser-emails` | hash | e-mail → user id | ConsoleAccountsRepository |
 * | `Psession:<token hash>` | string | msgpack SessionRecord | ConsoleAccountsRepository |
 * | `Psign-in:<key>` | hash | sign-in throttle of an account or address: `c` failures, `f` of them forgiven, `p` attempts being verified, `s` window start (ms), `l` locked until (ms), `w` window id; expires when window and lock are over | SignInThrottleRepository |
 * | `Prate:<key>:m`, `Prate:<key>:h` | hash | window id → requests leased; expires 2 windows after its last grant | RateLeases |
 *
 * Cluster readiness is partial: the organization's keys of a script share a slot, but the scripts
 * that also maintain a global index (`Popen`, `Pexpiry`, `Pcompleted`, `Pev-org`, `Poutbox-endpoints`, `Pcounts`,
 * `Pwebhook-org`, `Pkey-hashes`, `Pkey-last-used`, `Pwaiver-due:*`), and the sign-in scripts (an account's and an address's `Psign-in:*` together) name keys of other slots, which Redis Cluster refuses (CROSSSLOT).
 * Today the backend targets one primary (with replicas); on a cluster those indexes would be split
 * per slot (one per hash tag) and read by fanning out.
 *
 * API keys, users and sessions are global: they are found by their own id on the authentication
 * path, which has no organization yet. Evaluations and delivery logs are found by their own id too,
 * through `Pev-org` / `Pwebhook-org` (whose answers never change, so the repositories cache them).
 */

/** Escapes the characters that would end a hash tag or a key part early. */
function part(id: string): string {
  return /[%{}:]/.test(id)
    ? id.replace(/[%{}:]/g, (c) => (c === '%' ? '%25' : c === '{' ? '%7B' : c === '}' ? '%7D' : '%3A'))
    : id;
}

/** The default prefix of every key. */
export const DEFAULT_PREFIX = 'gov:';

/** Builds every key of the Redis backend under one prefix. */
export class RedisKeys {
  constructor(readonly prefix: string = DEFAULT_PREFIX) {}

  /** `P{org}:` — the start of every key of the organization (hash-tagged). */
  private org(orgId: string): string {
    return `${this.prefix}{${part(orgId)}}:`;
  }

  scenarios(orgId: string): string {
    return `${this.org(orgId)}scenarios`;
  }
  blueprints(orgId: string, scenarioId: string): string {
    return `${this.org(orgId)}blueprints:${part(scenarioId)}`;
  }
  latest(orgId: string, scenarioId: string): string {
    return `${this.org(orgId)}latest:${part(scenarioId)}`;
  }
  rollup(orgId: string): string {
    return `${this.org(orgId)}rollup`;
  }
  evaluation(orgId: string, evaluationId: string): string {
    return `${this.org(orgId)}ev:${part(evaluationId)}`;
  }
  evaluationResults(orgId: string, evaluationId: string): string {
    return `${this.org(orgId)}ev-results:${part(evaluationId)}`;
  }
  chunkBacklog(orgId: string): string {
    return `${this.org(orgId)}chunk-backlog`;
  }
  orgKeys(orgId: string): string {
    return `${this.org(orgId)}keys`;
  }
  webhooks(orgId: string): string {
    return `${this.org(orgId)}webhooks`;
  }
  webhooksRev(orgId: string): string {
    return `${this.org(orgId)}webhooks-rev`;
  }
  deliveryLog(orgId: string, webhookId: string): string {
    return `${this.org(orgId)}log:${part(webhookId)}`;
  }
  deliveryLogIds(orgId: string, webhookId: string): string {
    return `${this.org(orgId)}log-ids:${part(webhookId)}`;
  }
  outbox(orgId: string, webhookId: string): string {
    return `${this.org(orgId)}outbox:${part(webhookId)}`;
  }
  governance(orgId: string): string {
    return `${this.org(orgId)}gov`;
  }
  govSettings(orgId: string): string {
    return `${this.org(orgId)}gov-settings`;
  }
  customRules(orgId: string): string {
    return `${this.org(orgId)}rules`;
  }
  waivers(orgId: string): string {
    return `${this.org(orgId)}waivers`;
  }
  waiverOrder(orgId: string): string {
    return `${this.org(orgId)}waiver-order`;
  }
  scenarioWaivers(orgId: string, scenarioId: string): string {
    return `${this.org(orgId)}scenario-waivers:${part(scenarioId)}`;
  }
  activeWaivers(orgId: string): string {
    return `${this.org(orgId)}waivers-active`;
  }
  auditSeq(orgId: string): string {
    return `${this.org(orgId)}audit-seq`;
  }
  audit(orgId: string): string {
    return `${this.org(orgId)}audit`;
  }
  fleet(orgId: string): string {
    return `${this.org(orgId)}fleet`;
  }
  fleetRows(orgId: string): string {
    return `${this.org(orgId)}fleet-rows`;
  }
  history(orgId: string, scenarioId: string): string {
    return `${this.org(orgId)}history:${part(scenarioId)}`;
  }
  days(orgId: string): string {
    return `${this.org(orgId)}days`;
  }

  get orgs(): string {
    return `${this.prefix}orgs`;
  }
  key(keyId: string): string {
    return `${this.prefix}key:${part(keyId)}`;
  }
  get keyHashes(): string {
    return `${this.prefix}key-hashes`;
  }
  get keyLastUsed(): string {
    return `${this.prefix}key-last-used`;
  }
  get watermarks(): string {
    return `${this.prefix}watermarks`;
  }
  get evaluationOrgs(): string {
    return `${this.prefix}ev-org`;
  }
  get open(): string {
    return `${this.prefix}open`;
  }
  get expiry(): string {
    return `${this.prefix}expiry`;
  }
  get completed(): string {
    return `${this.prefix}completed`;
  }
  token(jti: string): string {
    return `${this.prefix}token:${part(jti)}`;
  }
  get replay(): string {
    return `${this.prefix}replay`;
  }
  idempotency(keyId: string, key: string): string {
    return `${this.prefix}idem:${part(keyId)}:${part(key)}`;
  }
  get webhookOrgs(): string {
    return `${this.prefix}webhook-org`;
  }
  get outboxEndpoints(): string {
    return `${this.prefix}outbox-endpoints`;
  }
  waiverDue(kind: 'notice' | 'expiry'): string {
    return `${this.prefix}waiver-due:${kind}`;
  }
  get counts(): string {
    return `${this.prefix}counts`;
  }
  get migrations(): string {
    return `${this.prefix}migrations`;
  }
  user(userId: string): string {
    return `${this.prefix}user:${part(userId)}`;
  }
  get userEmails(): string {
    return `${this.prefix}user-emails`;
  }
  session(tokenHash: string): string {
    return `${this.prefix}session:${part(tokenHash)}`;
  }
  signIn(key: string): string {
    return `${this.prefix}sign-in:${part(key)}`;
  }
  rate(keyId: string, kind: 'm' | 'h'): string {
    return `${this.prefix}rate:${part(keyId)}:${kind}`;
  }
}

/** The fields of `Pcounts` (the `records` of StoreStats, plus `outbox`). */
export const COUNTERS = [
  'scenarios',
  'evaluations',
  'results',
  'keys',
  'webhooks',
  'deliveries',
  'waivers',
  'custom_rules',
  'outbox',
] as const;
