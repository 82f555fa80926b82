/**
 * @module bench/lib/builds: rounds that alternate between this build and a baseline build (another
 * dist directory of this repository), each round a child process of the calling script, so that the
 * machine's load lands on both builds alike (bench/commit-path, bench/read-path).
 */
import { fork } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The command line of a script that compares builds, `node <script> [rounds] [baseline dist]`:
 * `rounds` rounds per build (default 6), alternating which build goes first; each forks the script
 * (`scriptUrl`, its `import.meta.url`) with the build's dist directory in the environment variable
 * `rootVariable` and takes the first message it sends as the round's figure. This build's dist
 * directory is the one the script runs from. `report` sees every figure as it arrives.
 * @returns the figures by build name (`baseline`, `this build`), in round order
 * @throws when a round's process exits with a non-zero code before sending its figure
 */
export async function alternateBuilds<T>(
  scriptUrl: string,
  rootVariable: string,
  report: (build: string, figure: T) => void,
): Promise<Map<string, T[]>> {
  const script = fileURLToPath(scriptUrl);
  const here = resolve(script, '../..');
  const rounds = Number(process.argv[2] ?? 6);
  const baseline = process.argv[3] ? resolve(process.argv[3]) : null;
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
