/**
 * @module bench/scenarios/soak: scenario 5. Mixed traffic for a fixed time: signed reads, inline
 * evaluations, batches, token redemptions, some bad signatures and an over-limit key. Targets: RSS
 * growth under 10% after warm-up, zero 5xx, zero lost evaluations.
 */
import { rmSync } from 'node:fs';
import { GovernanceClient, pollEvaluation } from '../../src/client/client.js';
import type { EvaluationStatus, Ok, StoredSubmitResult } from '../../src/client/responses.js';
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
  const client = new GovernanceClient(svc.url, p.credentials);
  const overLimit = new GovernanceClient(svc.url, { apiKey: limited.api_key, signingSecret: limited.signing_secret });
  const badSig = new GovernanceClient(svc.url, { apiKey: p.credentials.apiKey, signingSecret: 'gov_sig_wrong' });
  const byStatus: Record<string, number> = {};
  const count = (s: number) => {
    byStatus[s] = (byStatus[s] ?? 0) + 1;
  };
  const submitted: { id: string; token: string }[] = [];
  const inline = JSON.stringify({ blueprint: variant(7, examples) });
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
      if (k < 10 && submitted.length > 0)
        count((await client.call('GET', `/evaluations/${submitted[n % submitted.length]!.id}?n=${n}`)).status);
      else if (k < 13)
        count(
          (await client.call('POST', '/evaluate/inline', undefined, { rawBody: inline.replace('#7', `#7-${n}`) }))
            .status,
        );
      else if (k < 15) {
        const ids = Array.from({ length: 10 }, (_, i) => `s${(n + i) % 50}`);
        const res = await client.call<Ok<StoredSubmitResult>>('POST', '/evaluate', { scenario_ids: ids, n });
        count(res.status);
        if (res.status === 200) submitted.push({ id: res.body.data.evaluation_id, token: res.body.data.result_token });
      } else if (k < 17 && submitted.length > 0)
        count(
          (await client.call('POST', '/results/fetch', { result_token: submitted[n % submitted.length]!.token, n }))
            .status,
        );
      else if (k < 18) count((await badSig.call('GET', `/scenarios/s1/results?n=${n}`)).status);
      else if (k < 19) count((await overLimit.call('GET', `/scenarios/s1/results?n=${n}`)).status);
      else count((await client.call('GET', `/organization/rollup?n=${n}`)).status);
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
      const d = await pollEvaluation<Ok<EvaluationStatus>>(client, s.id, {
        delaysMs: [200, 500],
        timeoutMs: 120_000,
      }).catch(() => null);
      if (!d || (d.body.data.status !== 'complete' && d.body.data.status !== 'error')) lost++;
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
