/**
 * @module bench/lib/builds: rounds that alternate between this build and a baseline build (another
 * dist directory of this repository), each round a child process of the calling script, so that the
 * machine's load lands on both builds alike (bench/commit-path, bench/read-path).
 */
import { fork } from 'node:child_process';

/**
 * Runs `rounds` rounds per build, alternating which build goes first: each forks `script` with the
 * build's dist directory in the environment variable `rootVariable` and takes the first message it
 * sends as the round's figure. `report` sees every figure as it arrives.
 * @param baseline a baseline dist directory, or null for this build alone
 * @returns the figures by build name (`baseline`, `this build`), in round order
 * @throws when a round's process exits with a non-zero code before sending its figure
 */
export async function alternateBuilds<T>(
  script: string,
  rootVariable: string,
  rounds: number,
  here: string,
  baseline: string | null,
  report: (build: string, figure: T) => void,
): Promise<Map<string, T[]>> {
  const builds = baseline
    ? [['baseline', baseline] as const, ['this build', here] as const]
    : [['this build', here] as const];
  const figures = new Map<string, T[]>(builds.map(([name]) => [name, []]));
  for (let r = 0; r < rounds; r++)
    for (const [name, root] of r % 2 === 0 ? builds : [...builds].reverse()) {
      const figure = await new Promise<T>((done, fail) => {
        const child = fork(script, [], {
          env: { ...process.env, [rootVariable]: root },
          stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        });
        child.once('message', (m) => done(m as T));
        child.once('exit', (code) => (code === 0 ? undefined : fail(new Error(`round exited with ${code}`))));
      });
      figures.get(name)!.push(figure);
      report(name, figure);
    }
  return figures;
}

/**
 * The environment of a service started inside a bench process (bench/read-path, the access log's
 * measurement of bench/scenarios/signed-reads): the default configuration on loopback ephemeral
 * ports, the store in `dataDir`, one worker (no evaluation runs while it is measured).
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
