/**
 * @module bench/scenarios/inline: scenario 2. `POST /evaluate/inline` of the median corpus blueprint
 * (by module count): the maximum throughput (closed loop), then p50/p99 at 70% of it on a fixed
 * schedule (open loop, wrk with a paced script; target p99 ≤ 3 × p50).
 */
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startService } from '../lib/processes.js';
import { prepare } from '../lib/setup.js';
import type { LoadResult } from '../lib/wrk.js';
import { runWrk } from '../lib/wrk.js';
import { evaluateBlueprint } from '../../src/engine/index.js';

const CORPUS = fileURLToPath(new URL('../../../../shared/corpus/make/', import.meta.url));

/** The median corpus blueprint by module count. */
export function medianBlueprint(): { file: string; modules: number; text: string } {
  const all = readdirSync(CORPUS)
    .filter((f) => f.endsWith('.blueprint.json'))
    .map((file) => {
      const text = readFileSync(`${CORPUS}${file}`, 'utf8');
      const r = evaluateBlueprint(JSON.parse(text), { scenarioId: file });
      return { file, text, modules: r.ok ? r.evaluation.module_count : 0 };
    })
    .sort((a, b) => a.modules - b.modules || a.file.localeCompare(b.file));
  return all[Math.floor(all.length / 2)]!;
}

/** Results of scenario 2. */
export interface InlineBench {
  readonly blueprint: string;
  readonly modules: number;
  readonly max: LoadResult;
  readonly at70: LoadResult;
}

/** Runs scenario 2 with `threads` workers. */
export async function benchInline(durationS: number, threads: number): Promise<InlineBench> {
  const bp = medianBlueprint();
  const p = await prepare([]);
  const svc = await startService(p.dataDir, { POOL_THREADS: String(threads), POOL_MAX_QUEUE: '4096' });
  try {
    const body = `{"blueprint":${bp.text}}`;
    const base = {
      url: svc.url,
      method: 'POST' as const,
      path: '/api/public/v1/evaluate/inline',
      body,
      credentials: p.credentials,
    };
    await runWrk({ ...base, connections: 8, durationS: 1, uniqueRequests: 5_000 });
    // Maximum: closed loop, 16 connections. Then 70% of it on a fixed schedule (open loop), with
    // enough connections that a free one is always there when a request is due.
    const max = await runWrk({ ...base, connections: 16, durationS, uniqueRequests: durationS * 5_000 });
    const rate = Math.max(1, Math.floor(max.requestsPerSec * 0.7));
    const at70 = await runWrk({ ...base, connections: 64, durationS, uniqueRequests: durationS * rate + 1_000, rate });
    return { blueprint: bp.file, modules: bp.modules, max, at70 };
  } finally {
    await svc.stop();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}
