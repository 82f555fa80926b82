/**
 * @module bench/lib/in-process-service: the service started inside a bench process, in its default
 * configuration (access log on, written to /dev/null), for measurements that need the service's own
 * objects: its logger's level switched while it runs, its request counter read without a scrape
 * (bench/read-path, the access log's cost in bench/scenarios/signed-reads).
 */
import { closeSync, openSync } from 'node:fs';
import type { Logger } from 'pino';
import { loadConfig } from '../../src/server/config.js';
import { serviceLog } from '../../src/server/log-destination.js';
import { startServer } from '../../src/server/server.js';

/** The modules a service is started from: this build's by default, another build's for bench/read-path. */
export interface ServiceModules {
  readonly loadConfig: typeof loadConfig;
  readonly startServer: typeof startServer;
  readonly serviceLog: typeof serviceLog;
}

/** A service running in this process. */
export interface InProcessService {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The service's logger: its level is the access log's switch (`info` on, `warn` off). */
  readonly logger: Logger;
  /** Requests the service has answered so far (`gov_http_requests_total`, every series). */
  requestsSeen(): Promise<number>;
  /** Closes the service, flushes its log and closes /dev/null. */
  close(): Promise<void>;
}

/**
 * The environment of a service started inside a bench process: the default configuration on
 * loopback ephemeral ports, the store in `dataDir`, one worker (no evaluation runs while it is
 * measured).
 */
export function inProcessServiceEnv(dataDir: string): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    PORT: '0',
    METRICS_PORT: '0',
    DATA_DIR: dataDir,
    BOOTSTRAP_DEMO: 'false',
    METRICS_ENABLED: 'true',
    POOL_THREADS: '1',
  };
}

/** Starts the service on the store in `dataDir` (see {@link inProcessServiceEnv}) with its log to /dev/null. */
export async function startInProcessService(
  dataDir: string,
  modules: ServiceModules = { loadConfig, startServer, serviceLog },
): Promise<InProcessService> {
  const devNull = openSync('/dev/null', 'w');
  const log = modules.serviceLog('info', devNull);
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await modules.startServer(modules.loadConfig(inProcessServiceEnv(dataDir)), { logger: log.logger });
  } catch (err) {
    closeSync(devNull);
    throw err;
  }
  return {
    url: `http://127.0.0.1:${server.port}`,
    logger: log.logger,
    requestsSeen: async () => {
      const metric = await server.metrics!.registry.getSingleMetric('gov_http_requests_total')!.get();
      return metric.values.reduce((sum, v) => sum + v.value, 0);
    },
    close: async () => {
      await server.close();
      log.flushSync();
      closeSync(devNull);
    },
  };
}
