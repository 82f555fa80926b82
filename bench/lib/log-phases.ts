/**
 * @module bench/lib/log-phases: the access log's cost measured in one process (issue 20, item 2;
 * docs/benchmarks.md "Measuring a few per cent"). Two service processes of one configuration
 * measured up to 20% apart in CPU per request on the 2-core test machine, more than the cost to be
 * measured; so a service inside the bench process (bench/lib/in-process-service) is loaded by one
 * wrk run during which its logger switches between `info` (access log on) and `warn` (off) every
 * {@link LOG_PHASE_MS}. Each phase's CPU (this process's: nothing else runs in it meanwhile, the
 * requests are signed before) is divided by the requests the service counted in it, and the figure
 * is the median, over every pair of adjacent phases, of the log-on phase's ÷ the log-off phase's.
 */
import type { InProcessService } from './in-process-service.js';
import { median } from './stats.js';
import { prepareWrk, type WrkOptions } from './wrk.js';

/** Length of a phase, in ms (about 9,000 requests on the test machine). */
export const LOG_PHASE_MS = 250;

/** One phase: whether the log was on, and the CPU µs per request the service answered in it. */
export interface LogPhase {
  readonly on: boolean;
  readonly us: number;
}

/** The access log's cost: CPU µs per request of the log-on and log-off phases (medians), and the median over adjacent pairs of on ÷ off. */
export interface LogCost {
  readonly onUs: number;
  readonly offUs: number;
  readonly ratio: number;
  readonly pairs: number;
}

/** This process's CPU time in seconds (user + system). */
function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * One wrk run (`load`, its requests signed before it starts) against `service`, the service's logger
 * switched every LOG_PHASE_MS; the first and last phases (wrk starting and stopping) are left out.
 * The logger is back at `info` when this returns or throws.
 * @throws what the wrk run throws
 */
export async function logPhases(service: InProcessService, load: WrkOptions): Promise<LogPhase[]> {
  const prepared = prepareWrk(load);
  const phases: LogPhase[] = [];
  try {
    let on = true;
    service.logger.level = 'info';
    let done = false;
    const running = prepared.run();
    // Handled at once (the phases below await timers meanwhile); a failed run is thrown by `await running`.
    running.then(
      () => (done = true),
      () => (done = true),
    );
    let cpu = ownCpuSeconds();
    let requests = await service.requestsSeen();
    for (let i = 0; ; i++) {
      await new Promise((r) => setTimeout(r, LOG_PHASE_MS));
      if (done) break;
      const cpuNow = ownCpuSeconds();
      const requestsNow = await service.requestsSeen();
      if (i > 0 && requestsNow > requests) phases.push({ on, us: ((cpuNow - cpu) * 1e6) / (requestsNow - requests) });
      on = !on;
      service.logger.level = on ? 'info' : 'warn';
      cpu = ownCpuSeconds();
      requests = await service.requestsSeen();
    }
    await running;
    return phases.slice(0, -1);
  } finally {
    service.logger.level = 'info';
    prepared.dispose();
  }
}

/** The cost from the phases of several runs (pairs are taken within a run, never across two). */
export function logCost(runs: readonly (readonly LogPhase[])[]): LogCost {
  const ratios = runs.flatMap((list) =>
    list.slice(1).map((b, i) => {
      const a = list[i]!;
      return a.on ? a.us / b.us : b.us / a.us;
    }),
  );
  const all = runs.flat();
  return {
    onUs: median(all.filter((x) => x.on).map((x) => x.us)),
    offUs: median(all.filter((x) => !x.on).map((x) => x.us)),
    ratio: median(ratios),
    pairs: ratios.length,
  };
}
