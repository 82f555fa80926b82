/** `gov scan`'s progress line: drawn in place on a TTY at most every 100 ms and erased at the end; never on a pipe. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { progressLine } from '../../src/cli/scan/progress.js';

function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  return {
    chunks,
    stream: {
      isTTY,
      write(chunk: string): boolean {
        chunks.push(chunk);
        return true;
      },
    },
  };
}

describe('progressLine', () => {
  it('gives no callback for a stream that is not a TTY', () => {
    assert.equal(progressLine(fakeStream(false).stream), undefined);
  });

  it('redraws at most every 100 ms, then erases the line after the last file', () => {
    const { chunks, stream } = fakeStream(true);
    let t = 0;
    const draw = progressLine(stream, () => t)!;
    draw(1, 3);
    t = 50;
    draw(2, 3); // too soon: skipped
    t = 200;
    draw(2, 3);
    t = 210;
    draw(3, 3);
    assert.deepEqual(chunks, ['\rgov: scanned 1/3 files\u001b[K', '\rgov: scanned 2/3 files\u001b[K', '\r\u001b[K']);
  });
});
