/**
 * @module test/helpers/free-ports: free loopback TCP ports for processes a test starts with a port
 * of its own choosing (scripts that take ports from the environment). Ports are drawn below the
 * kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`, 32768-60999 by default): the
 * kernel hands those to every outgoing connection and every `listen(0)` of the other tests running
 * beside this one, so a port found free there can be taken before the child binds it. Below it only
 * fixed-port listeners compete. Exports only.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Lowest port drawn: above the usual fixed development ports (a system Redis's 6379, 8080, ...). */
const LOWEST = 10_000;
const ATTEMPTS = 50;

/** Binds `port` on 127.0.0.1 and closes it again. @returns whether it could be bound. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The first port of the kernel's ephemeral range (32768 when it cannot be read, Linux's default). */
function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * The first of `count` consecutive loopback ports that are all free now, drawn at random between
 * 10000 and the start of the ephemeral range (for a script that numbers its nodes' ports from a
 * base, as scripts/cluster-local.sh does).
 * @param count how many consecutive ports (default 1)
 * @throws Error after 50 attempts without such a run, or when the ephemeral range leaves no room below it
 */
export async function freePortRun(count = 1): Promise<number> {
  const end = ephemeralStart() - count;
  if (end <= LOWEST) throw new Error(`no room for ${count} ports between ${LOWEST} and the ephemeral range`);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const first = LOWEST + Math.floor(Math.random() * (end - LOWEST));
    let all = true;
    for (let port = first; port < first + count && all; port++) all = await bindable(port);
    if (all) return first;
  }
  throw new Error(`no run of ${count} free loopback ports found in ${ATTEMPTS} attempts`);
}
