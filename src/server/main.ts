/** @module server/main: `npm start`: config, first-start bootstrap, serve, graceful shutdown on SIGTERM/SIGINT. */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { startServer, type RunningServer } from './server.js';
import { bootstrapDemo, firstStartBanner, mayPrintFirstStartSecrets, type FirstStart } from './bootstrap.js';
import { evaluateStoredScenarios } from './bootstrap-evaluation.js';

const EXAMPLES_DIR = join(fileURLToPath(new URL('.', import.meta.url)), '../../../examples');

/**
 * Node's pool for small Buffers: every response body up to half of it is carved from one slab
 * (response envelopes are a few KB). 64 KiB instead of 8 KiB means one slab per ~40 responses
 * instead of per ~4, and fewer ArrayBuffers for the garbage collector to track.
 */
const BUFFER_POOL_BYTES = 64 * 1024;

async function main(): Promise<void> {
  Buffer.poolSize = BUFFER_POOL_BYTES;
  const config = loadConfig();
  // Signals are taken before anything starts: a SIGTERM that came between the listener opening and a
  // handler being installed ended the process by its default action, with no drain (seen when a
  // supervisor stopped the service right after its "listening" line). One that comes during the start
  // is acted on once the start is done (the first start's demo work is skipped then).
  const shutdown = onShutdownSignal();
  const server = await startServer(config);
  if (config.bootstrapDemo && !shutdown.requested()) {
    const first = await bootstrapDemo(server.store, server.keys, server.users, config.dataDir, EXAMPLES_DIR);
    if (first) {
      const creds = first.credentials;
      const file = join(config.dataDir, 'bootstrap.json');
      // The key and signing secret go to a terminal only: log collectors keep whatever a service
      // prints to a pipe (issue 13, item 16). Elsewhere only the file's path is said.
      if (mayPrintFirstStartSecrets(process.stdout.isTTY === true, process.env['NODE_ENV']))
        process.stdout.write(firstStartBanner(creds, file));
      else
        process.stdout.write(
          `First start: created a demo organization; its API key, signing secret and the web console's owner password are in ${file} (mode 0600)\n`,
        );
      if (!shutdown.requested()) await evaluateDemo(server, first);
    }
  }
  process.stdout.write(
    config.role === 'worker'
      ? `Governance Evaluation Service worker node (ROLE=worker): running chunk jobs; operators' listener on ${config.metricsHost}:${server.opsPort}\n`
      : `Governance Evaluation Service listening on http://${config.host}:${server.port}/api/public/v1 (web console: http://${config.host}:${server.port}/console/)\n`,
  );
  shutdown.then((signal) => stop(server, config.shutdownDeadlineMs, signal));
}

/** The first SIGTERM or SIGINT, once a handler is ready for it; later ones are ignored while the service drains. */
interface ShutdownSignal {
  /** Whether a signal came already. */
  requested(): boolean;
  /** Calls `handler` with the signal, at once when it came already; only the first handler counts. */
  then(handler: (signal: NodeJS.Signals) => void): void;
}

/**
 * Listens for SIGTERM and SIGINT for the life of the process (not `once`: a second signal during the
 * drain would otherwise end the process by its default action; SHUTDOWN_DEADLINE_MS bounds the drain).
 */
function onShutdownSignal(): ShutdownSignal {
  let received: NodeJS.Signals | null = null;
  let handler: ((signal: NodeJS.Signals) => void) | null = null;
  const on = (signal: NodeJS.Signals) => {
    if (received !== null) return;
    received = signal;
    handler?.(signal);
  };
  process.on('SIGTERM', on);
  process.on('SIGINT', on);
  return {
    requested: () => received !== null,
    then(h) {
      if (handler !== null) return;
      handler = h;
      if (received !== null) h(received);
    },
  };
}

/** Closes the service (new work gets 503 at once, in-flight work finishes or is kept) and exits 0, or 1 when it failed or hung. */
function stop(server: RunningServer, deadlineMs: number, signal: NodeJS.Signals): void {
  server.log.info({ signal }, 'shutting down');
  // close() fits in SHUTDOWN_DEADLINE_MS; this only catches a shutdown that hangs.
  const force = setTimeout(() => process.exit(1), deadlineMs + 2000);
  force.unref();
  server
    .close()
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      server.log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
}

/**
 * Evaluates the demo scenarios once, on the first start only (issue 30), so the console's overview
 * shows a fleet score at once. Resolves when the evaluation is stored and started (the listener is
 * already up; the scenarios take milliseconds in the pool). A failure is logged, never fatal:
 * `npm run demo` evaluates the scenarios too.
 */
async function evaluateDemo(server: RunningServer, first: FirstStart): Promise<void> {
  const key = { org_id: first.credentials.org_id, key_id: first.keyId };
  try {
    const submitted = await evaluateStoredScenarios(
      server.store,
      server.evaluations,
      key,
      first.credentials.scenario_ids,
    );
    if (submitted.length > 0)
      process.stdout.write(
        `First start: evaluating the demo scenarios once (evaluation ${submitted.map((e) => e.evaluation_id).join(', ')}); the console's overview shows their scores\n`,
      );
  } catch (err) {
    server.log.warn({ err }, 'the first evaluation of the demo scenarios failed; npm run demo evaluates them');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `${err instanceof ConfigError ? 'Configuration error' : 'Failed to start'}: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
