/**
 * @module test/helpers/free-ports: free loopback TCP ports for processes a test starts with a port
 * of its own choosing (scripts that take ports from the environment). A port is free when it could
 * be bound just now; another process may still take it before the child binds it (rare, and the
 * child then fails to start with a clear error). Exports only.
 */
import { createServer } from 'node:net';

/** A Redis developer's own server: never handed out. */
const SYSTEM_REDIS_PORT = 6379;
const ATTEMPTS = 50;

/** Binds `port` on 127.0.0.1 (0: any) and closes it again. @returns the port bound, or null when it is taken. */
function bind(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

/**
 * The first of `count` consecutive loopback ports that are all free now (for a script that numbers
 * its nodes' ports from a base, as scripts/cluster-local.sh does).
 * @param count how many consecutive ports (default 1)
 * @throws Error after 50 attempts without such a run
 */
export async function freePortRun(count = 1): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const first = await bind(0);
    if (first === null || first + count - 1 > 65_535) continue;
    let all = true;
    for (let port = first; port < first + count && all; port++)
      all = port !== SYSTEM_REDIS_PORT && (port === first || (await bind(port)) === port);
    if (all) return first;
  }
  throw new Error(`no run of ${count} free loopback ports found in ${ATTEMPTS} attempts`);
}
