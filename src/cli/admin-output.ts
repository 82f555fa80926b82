/** @module cli/admin-output: how admin commands print results and describe themselves in `--help`. */

/** The description of every command's `--json` option. */
export const JSON_HELP = 'print one JSON object: the result on stdout, or {"error","detail"} on stderr';

/** Prints `value` as one JSON object on stdout with `--json`, else `text()` as readable text. */
export function print(json: boolean, value: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`);
}

/**
 * The "Example:" section of a command's help, for `addHelpText('after', ...)`: one line per
 * invocation, `lines` without the `npm run -s admin --` prefix. Every command has one (a test checks it).
 */
export function example(...lines: string[]): string {
  return `\nExample:\n${lines.map((l) => `  $ npm run -s admin -- ${l}`).join('\n')}`;
}
