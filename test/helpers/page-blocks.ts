/**
 * @module test/helpers/page-blocks: the command blocks of a Markdown page that a test runs as
 * written (docs/getting-started.md). Every fenced block carries an HTML comment just above it saying
 * what the test does with it, invisible when the page is rendered:
 *
 * - `<!-- test: run <segment> -->`: shell commands, run in order with the other blocks of the segment
 *   in one bash session (`set -euo pipefail`), as a reader pastes them into one terminal;
 * - `<!-- test: file <segment> <name> -->`: a file the reader saves as `<name>` in the session's
 *   working directory at that point;
 * - `<!-- test: service <segment> -->`: the command that starts the service in a terminal of its own;
 * - `<!-- test: bench -->`: benchmark commands, checked against the benchmark's registry, not run;
 * - `<!-- test: not run (<reason>) -->`: commands the test cannot run (no Docker engine).
 *
 * Exports only.
 */

/** What the test does with a block (see the module comment). */
export type BlockKind = 'run' | 'file' | 'service' | 'bench' | 'not-run';

/** One fenced block of the page with its marker. */
export interface PageBlock {
  readonly kind: BlockKind;
  /** The segment a `run`, `file` or `service` block belongs to (empty for the others). */
  readonly segment: string;
  /** The file name of a `file` block (empty for the others). */
  readonly file: string;
  /** The reason of a `not-run` block (empty for the others). */
  readonly reason: string;
  /** The fence's language (`sh`, `js`). */
  readonly lang: string;
  /** The block's text, ending with a line break. */
  readonly body: string;
  /** 1-based line of the opening fence, for messages. */
  readonly line: number;
}

const MARKER = /^<!-- test: (.+) -->$/;
const FILE_NAME = /^[\w.-]+$/;
const HEREDOC_END = 'GETTING_STARTED_EOF';

/** Reads a marker's text (`run tenant`, `file tenant app.mjs`, ...). @throws Error naming the line when it is malformed. */
function parseMarker(text: string, line: number): Pick<PageBlock, 'kind' | 'segment' | 'file' | 'reason'> {
  const none = { segment: '', file: '', reason: '' };
  const notRun = /^not run \((.+)\)$/.exec(text);
  if (notRun) return { kind: 'not-run', ...none, reason: notRun[1]! };
  const words = text.split(/\s+/);
  const [kind, segment, file] = words;
  if (kind === 'bench' && words.length === 1) return { kind, ...none };
  if ((kind === 'run' || kind === 'service') && words.length === 2) return { kind, ...none, segment: segment! };
  if (kind === 'file' && words.length === 3 && FILE_NAME.test(file!))
    return { kind, ...none, segment: segment!, file: file! };
  throw new Error(`line ${line}: unknown marker "<!-- test: ${text} -->"`);
}

/**
 * Every fenced block of `page` with the marker on the line above it.
 * @throws Error naming the line of a block without a marker, with an unknown one, or never closed
 */
export function pageBlocks(page: string): PageBlock[] {
  const lines = page.split('\n');
  const blocks: PageBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`line ${i + 1}: the block is never closed`);
    const marker = MARKER.exec(lines[i - 1] ?? '');
    if (!marker) throw new Error(`line ${i + 1}: a block without a <!-- test: ... --> marker above it`);
    const body = `${lines.slice(i + 1, end).join('\n')}\n`;
    blocks.push({ ...parseMarker(marker[1]!, i), lang: open[1]!, body, line: i + 1 });
    i = end;
  }
  return blocks;
}

/** A shell block's commands: one per line, trailing `# comments` and blank lines dropped. */
export function commandLines(block: PageBlock): string[] {
  return block.body
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The bash script of one segment: its `run` blocks as written and its `file` blocks as here-documents,
 * in page order, after `set -euo pipefail`. After each `run` block the script writes its environment
 * to `<stateDir>/<segment>-<n>.env` (n from 0), so a test can check what a block exported.
 * @throws Error when the segment has no block, or a file's text contains the here-document's end line
 */
export function segmentScript(blocks: readonly PageBlock[], segment: string, stateDir: string): string {
  const mine = blocks.filter((b) => b.segment === segment && (b.kind === 'run' || b.kind === 'file'));
  if (mine.length === 0) throw new Error(`no run or file block in segment "${segment}"`);
  const parts = ['set -euo pipefail'];
  let n = 0;
  for (const block of mine) {
    if (block.kind === 'file') {
      if (block.body.split('\n').includes(HEREDOC_END)) throw new Error(`line ${block.line}: ${HEREDOC_END} in a file`);
      parts.push(`cat > ${block.file} <<'${HEREDOC_END}'\n${block.body}${HEREDOC_END}`);
    } else {
      parts.push(block.body, `env > '${stateDir}/${segment}-${n++}.env'`);
    }
  }
  return `${parts.join('\n')}\n`;
}

/** Reads an environment dump (`env` output) into a map; lines that do not start a `NAME=value` are skipped. */
export function readEnvDump(text: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) vars.set(m[1]!, m[2]!);
  }
  return vars;
}
