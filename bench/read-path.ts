/**
 * @module bench/read-path: `node dist/bench/read-path.js [rounds] [baseline dist dir]`, the signed
 * read's JavaScript path alone (issue 20, items 2 and 3): the service's own uWS handler, in the
 * service's default configuration, driven in-process with stand-ins for uWS's request and response
 * objects, so that neither the kernel, nor uWS's native code, nor a load generator on the same cores
 * is in the figure. On the 2-core test machine two service processes with the same configuration
 * measured 20% apart in CPU per request under wrk (docs/benchmarks.md "Measuring a few per cent"):
 * this is the bench that can tell a change of a few per cent.
 *
 * Each round is a child process that starts the service (its LMDB store in a temporary directory,
 * its worker pool, the access log on, written to /dev/null), evaluates one stored scenario over
 * HTTP, then calls the handler uWS would call for `GET /evaluations/{id}` with a signed request
 * (1,000 distinct signed URLs in turn) and reads the process's CPU (`process.cpuUsage()`, user +
 * system; the pool's worker and the store's threads are idle) per request: with the access log on,
 * and with it off (the logger's level raised to `warn` in the same process), in 40 alternating
 * slices of 20,000 requests; the on ÷ off figure is the median of adjacent pairs' ratios. With a baseline dist directory (another build
 * of this repository), rounds alternate between it and this build.
 *
 * The handler is caught by wrapping uWS's `App` before the service creates its app (the first `/*`
 * route is the API's catch-all; the operators' listener registers its own after it).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { GovernanceClient, signRequest } from '@gov/sdk';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { prepare } from './lib/setup.js';
import { alternateBuilds } from './lib/builds.js';
import { startInProcessService } from './lib/in-process-service.js';
import { median } from './lib/stats.js';
import { variant } from '../src/fleet/variants.js';

/**
 * Requests per measured slice, and slices per round: short slices in pairs (log on, log off, in
 * alternating order), so that the machine's slow drifts land on both halves of a pair.
 */
const SLICE = 20_000;
const SLICES = 40;
const WARM_UP = 60_000;

/** CPU time of this process in µs (user + system; its idle threads add next to nothing). */
function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** A round's figures: CPU µs per request with the access log on and off (medians of the slices), and the median of the pairs' ratios. */
interface RoundFigures {
  readonly on: number;
  readonly off: number;
  readonly ratio: number;
}

type Handler = (res: HttpResponse, req: HttpRequest) => void;

/** One round in this process against the build under `root` (a dist directory). */
async function round(root: string): Promise<RoundFigures> {
  // Another build has the same modules: typed as this build's.
  const { loadNativeUws } = (await import(
    join(root, 'src/server/uws/adapter.js')
  )) as typeof import('../src/server/uws/adapter.js');
  const { loadConfig } = (await import(join(root, 'src/server/config.js'))) as typeof import('../src/server/config.js');
  const { startServer } = (await import(
    join(root, 'src/server/server.js')
  )) as typeof import('../src/server/server.js');
  const { serviceLog } = (await import(
    join(root, 'src/server/log-destination.js')
  )) as typeof import('../src/server/log-destination.js');

  const uws = loadNativeUws() as unknown as { App: (...args: unknown[]) => TemplatedApp };
  const makeApp = uws.App;
  let handler: Handler | null = null;
  uws.App = (...args: unknown[]) => {
    const app = makeApp(...args);
    const any = app.any.bind(app);
    app.any = (pattern: string, h: Handler) => {
      if (pattern === '/*' && handler === null) handler = h;
      return any(pattern, h);
    };
    return app;
  };

  const p = await prepare([['r1', JSON.stringify(variant(1))]]);
  const service = await startInProcessService(p.dataDir, { loadConfig, startServer, serviceLog });
  try {
    const client = new GovernanceClient({ baseUrl: service.url, ...p.credentials });
    const submitted = (await client.submitEvaluation({ scenario_ids: ['r1'] })).data;
    await client.waitForEvaluation(submitted, { intervalsMs: [50], timeoutMs: 30_000 });
    const path = `/api/public/v1/evaluations/${submitted.evaluation_id}`;
    const t = Math.floor(Date.now() / 1000);
    const authorization = `Bearer ${p.credentials.apiKey}`;
    // The headers wrk sends (bench/lib/wrk): Host, Authorization, X-Service-Signature.
    const requests = Array.from({ length: 1000 }, (_, i): HttpRequest => {
      const query = `n=${i}`;
      const signature = signRequest(p.credentials.signingSecret, t, 'GET', `${path}?${query}`, '');
      return {
        forEach(cb: (name: string, value: string) => void) {
          cb('host', '127.0.0.1:8080');
          cb('authorization', authorization);
          cb('x-service-signature', signature);
        },
        getMethod: () => 'get',
        getUrl: () => path,
        getQuery: () => query,
        getHeader: () => '',
      } as unknown as HttpRequest;
    });
    let status: unknown = null;
    const response = {
      writeStatus(s: unknown) {
        status = s;
        return response;
      },
      writeHeader: () => response,
      end: () => response,
      endWithoutBody: () => response,
      write: () => true,
      cork(f: () => void) {
        f();
        return response;
      },
      onAborted: () => response,
      onData: () => response,
      pause: () => undefined,
      resume: () => undefined,
      close: () => response,
      getRemoteAddressAsText: () => new TextEncoder().encode('127.0.0.1').buffer,
    } as unknown as HttpResponse;
    const h = handler as Handler | null;
    if (h === null) throw new Error('the API handler was not registered');
    const run = (n: number): void => {
      for (let i = 0; i < n; i++) h(response, requests[i % requests.length]!);
    };
    run(WARM_UP);
    if (!String(status).startsWith('200')) throw new Error(`the read answered ${String(status)}`);
    const on: number[] = [];
    const off: number[] = [];
    for (let s = 0; s < SLICES; s++) {
      const logOn = s % 4 === 0 || s % 4 === 3; // on, off, off, on: each level measured first and last as often
      service.logger.level = logOn ? 'info' : 'warn';
      const before = cpuUs();
      run(SLICE);
      (logOn ? on : off).push((cpuUs() - before) / SLICE);
      await new Promise((r) => setImmediate(r)); // timers and flushes run between slices, as between requests
    }
    return { on: median(on), off: median(off), ratio: median(on.map((x, i) => x / off[i]!)) };
  } finally {
    await service.close();
    rmSync(p.dataDir, { recursive: true, force: true });
  }
}

if (process.env['READ_PATH_ROOT']) {
  const figures = await round(process.env['READ_PATH_ROOT']);
  if (process.send) process.send(figures);
  else
    console.log(
      `access log on ${figures.on.toFixed(2)} µs, off ${figures.off.toFixed(2)} µs per request (on ÷ off ${figures.ratio.toFixed(3)})`,
    );
  process.exit(0);
} else {
  const figures = await alternateBuilds<RoundFigures>(import.meta.url, 'READ_PATH_ROOT', (name, f) =>
    console.log(
      `${name}: access log on ${f.on.toFixed(2)} µs, off ${f.off.toFixed(2)} µs per request (on ÷ off ${f.ratio.toFixed(3)})`,
    ),
  );
  for (const [name, list] of figures)
    console.log(
      `${name}: median of ${list.length} rounds: access log on ${median(list.map((f) => f.on)).toFixed(2)} µs, off ${median(list.map((f) => f.off)).toFixed(2)} µs per request; on ÷ off ${median(list.map((f) => f.ratio)).toFixed(3)}`,
    );
}
