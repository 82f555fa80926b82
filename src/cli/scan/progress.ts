/** @module cli/scan/progress: the `gov: scanned N/M files` line, on a terminal only. */

/** The part of a stream the progress line needs (process.stderr, or a fake in tests). */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(chunk: string): boolean;
}

/** Minimum time between two redraws, in milliseconds: a redraw per file would slow a large scan. */
const REDRAW_MS = 100;

/**
 * A progress callback for `scanFiles` that redraws `gov: scanned N/M files` in place on `stream`
 * (at most every 100 ms, and for the last file), and erases it when done; `undefined` when the
 * stream is not a TTY, so a pipe or a CI log never sees it.
 * @param now clock in milliseconds (default `Date.now`)
 */
export function progressLine(
  stream: ProgressStream,
  now: () => number = Date.now,
): ((done: number, total: number) => void) | undefined {
  if (!stream.isTTY) return undefined;
  let last = -Infinity;
  return function drawProgress(done, total) {
    const t = now();
    if (done < total && t - last < REDRAW_MS) return;
    last = t;
    // `\r` returns to the line start and `ESC[K` clears what a longer previous line left.
    stream.write(done < total ? `\rgov: scanned ${done}/${total} files\x1b[K` : '\r\x1b[K');
  };
}
