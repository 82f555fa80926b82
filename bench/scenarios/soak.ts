/**
 * @module bench/scenarios/soak: scenario 5. Mixed traffic for a fixed time: signed reads, inline
 * evaluations, batches, token redemptions, some bad signatures and an over-limit key. Targets: RSS
 * growth under 10% after warm-up, zero 5xx, zero lost evaluations.
 */
import { rmSync } from 'node:fs';
import { GovernanceApiError, GovernanceClient, type ApiResult, type InlineEvaluationBody } from '@gov/sdk';
import { exampleBlueprints, variant } from '../../src/fleet/variants.js';
import { KeyService } from '../../src/server/auth/keys.js';
import { loadServerSecrets } from '../../src/server/auth/server-secrets.js';
import { openStore } from '../../src/store/open.js';
import { startService } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';
import { median } from '../lib/stats.js';

/** Results of scenario 5. */
export interface SoakBench {
  readonly seconds: number;
  readonly requests: number;
  readonly byStatus: Record<string, number>;
  readonly fiveXx: number;
  readonly evaluationsSubmitted: number;
  readonly evaluationsLost: number;
  readonly rssAfterWarmupBytes: number;
  readonly rssEndBytes: number;
  /**
   * Growth of anonymous memory (heap) after warm-up: median of the samples in the last tenth of the
   * run over the median of the first tenth after warm-up (a sample every 2 s, or 1/40 of a short run; single samples land
   * anywhere on the garbage collector's sawtooth). LMDB's mapped pages grow with stored data and
   * are page cache, not the process's heap.
   */
  readonly rssGrowth: number;
  readonly anonAfterWarmupBytes: number;
  readonly anonEndBytes: number;
}

/**
 * The soak counts every answer of the service, so its clients do not retry (a retried 429 or reset would
 * hide an answer): the retry matrix is tested in test/integration/sdk-retry.test.ts.
 */
const NO_RETRY = { maxNetworkRetries: 0, maxRemediationRetries: 0, maxRateLimitRetries: 0 };

/** The HTTP status of one call: its answer's, or the error answer's; `network` when none came. */
async function statusOf(call: Promise<ApiResult<unknown>>): Promise<number | 'network'> {
  try {
    return (await call).status;
  } catch (err) {
    if (err instanceof GovernanceApiError) return err.status;
    return 'network';
  }
}

/** Runs scenario 5 for `seconds`. */
export async function benchSoak(seconds: number, threads: number): Promise<SoakBench> {
  const examples = exampleBlueprints();
  const p = await prepare(
    Array.from({ length: 50 }, (_, i) => [`s${i}`, JSON.stringify(variant(i, examples))] as [string, string]),
  );
  const store = openStore(p.dataDir);
  const limited = await new KeyService(store.organizations, loadServerSecrets(p.dataDir), 'gov').createKey(p.orgId, {
    perMinute: 30,
    perHour: 1000,
  });
  await store.close();
  const svc = await startService(p.dataDir, { POOL_THREADS: String(threads) });
  const baseUrl = svc.url;
  const client = new GovernanceClient({ baseUrl, ...p.credentials, retry: NO_RETRY });
  const overLimit = new GovernanceClient({
    baseUrl,
    apiKey: limited.api_key,
    signingSecret: limited.signing_secret,
    retry: NO_RETRY,
  });
  const badSig = new GovernanceClient({
    baseUrl,
    apiKey: p.credentials.apiKey,
    signingSecret: 'gov_sig_wrong',
    retry: NO_RETRY,
  });
  const byStatus: Record<string, number> = {};
  const count = async (call: Promise<ApiResult<unknown>>) => {
    const s = await statusOf(call);
    byStatus[s] = (byStatus[s] ?? 0) + 1;
  };
  const submitted: { id: string; token: string }[] = [];
  const inline = variant(7, examples) as InlineEvaluationBody['blueprint'];
  const end = Date.now() + seconds * 1000;
  let rssAfterWarmup = 0;
  const warmupAt = Date.now() + seconds * 250;
  const samples: { at: number; anon: number }[] = [];
  const sampler = setInterval(
    () => samples.push({ at: Date.now(), anon: svc.rssAnon() }),
    Math.min(2000, seconds * 25),
  );
  let n = 0;
  // Steady traffic rather than maximum load: each of 6 workers pauses 4 ms between calls.
  const worker = async (w: number) => {
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 4));
      n++;
      const k = n % 40 < 20 ? n % 20 : n % 20 === 13 || n % 20 === 14 ? 0 : n % 20;
      if (k < 10 && submitted.length > 0) await count(client.getEvaluation(submitted[n % submitted.length]!.id));
      else if (k < 13)
        await count(client.evaluateInline({ blueprint: { ...inline, name: `${String(inline['name'])}-${n}` } }));
      else if (k < 15) {
        const ids = Array.from({ length: 10 }, (_, i) => `s${(n + i) % 50}`);
        const call = client.submitEvaluation({ scenario_ids: ids });
        await count(call);
        const res = await call.catch(() => null);
        if (res?.data.result_token) submitted.push({ id: res.data.evaluation_id, token: res.data.result_token });
      } else if (k < 17 && submitted.length > 0)
        await count(client.fetchResults(submitted[n % submitted.length]!.token));
      else if (k < 18) await count(badSig.getScenarioResults('s1'));
      else if (k < 19) await count(overLimit.getScenarioResults('s1'));
      else await count(client.getOrganizationRollup());
      if (rssAfterWarmup === 0 && Date.now() > warmupAt) rssAfterWarmup = svc.rss();
      void w;
    }
  };
  try {
    await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    clearInterval(sampler);
    const rssEnd = svc.rss();
    const window = seconds * 100; // a tenth of the run, in ms
    const anonAfterWarmup = median(
      samples.filter((x) => x.at >= warmupAt && x.at < warmupAt + window).map((x) => x.anon),
    );
    const anonEnd = median(samples.filter((x) => x.at >= end - window).map((x) => x.anon));
    let lost = 0;
    for (const s of submitted) {
      const d = await client.waitForEvaluation(s.id, { intervalsMs: [200, 500], timeoutMs: 120_000 }).catch(() => null);
      if (!d || (d.status !== 'complete' && d.status !== 'error')) lost++;
    }
    const fiveXx = Object.entries(byStatus)
      .filter(([s]) => s.startsWith('5'))
      .reduce((a, [, c]) => a + c, 0);
    return {
      seconds,
      requests: n,
      byStatus,
      fiveXx,
      evaluationsSubmitted: submitted.length,
      evaluationsLost: lost,
      rssAfterWarmupBytes: rssAfterWarmup,
      rssEndBytes: rssEnd,
      anonAfterWarmupBytes: anonAfterWarmup,
      anonEndBytes: anonEnd,
      rssGrowth: anonAfterWarmup > 0 ? (anonEnd - anonAfterWarmup) / anonAfterWarmup : 0,
    };
  } finally {
    clearInterval(sampler);
    await svc.stop();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}
