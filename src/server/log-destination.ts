/**
 * @module server/log-destination: the service's log output (issue 20, item 2). pino's default
 * destination writes every line with its own synchronous `write(2)`: with the access log on, a third
 * of a signed read's CPU. pino's buffered destination (`sonic-boom`, `minLength`) was measured here at
 * 3.6-10 µs per line (it re-measures its buffer on every write), more than the line itself, so the
 * log lines go to a {@link LogWriter} instead: lines are joined into one string (a rope: appending
 * copies nothing) and encoded into a 64 KiB buffer once per ~80 lines (one UTF-8 encoding into the
 * buffer per line was the largest single cost of the access log under load), and the buffer is
 * written with one `write(2)` when full, or after at most {@link LOG_FLUSH_INTERVAL_MS} when traffic
 * is light. The access log's usual line skips the string altogether: it is encoded in place into the
 * buffer ({@link LogWriter.reserve}; a template literal's string of ~20 pieces cost as much to
 * flatten for encoding as to build).
 *
 * Durability: every buffered line is written on the process's `exit` event (reached by
 * `process.exit()`, the end of SIGTERM/SIGINT handling, an uncaught exception and an unhandled
 * rejection). Lines still buffered when the process is killed (SIGKILL, the OOM killer) or the machine
 * loses power are lost: at most one buffer or one interval of lines.
 *
 * A reader that does not keep up never blocks the service: when the output answers EAGAIN, lines are
 * kept (up to {@link LOG_BACKLOG_MAX_BYTES}) and written at the next flush; beyond that the oldest
 * buffered lines are dropped, and a line saying how many bytes were dropped is written once the
 * output drains.
 */
import { writeSync } from 'node:fs';
import { pino, type Logger } from 'pino';

/** Size of one write, in bytes: about 200 access log lines. */
export const LOG_CHUNK_BYTES = 64 * 1024;
/** Longest a line waits in the buffer under light traffic, in milliseconds. */
export const LOG_FLUSH_INTERVAL_MS = 1000;
/** Most bytes kept while the output refuses writes (EAGAIN); older lines are dropped beyond it. */
export const LOG_BACKLOG_MAX_BYTES = 16 * 1024 * 1024;

/** Whether `err` says the output cannot take more now (a non-blocking pipe or socket that is full). */
function wouldBlock(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'EAGAIN' || code === 'EWOULDBLOCK';
}

/** Buffered line output to a file descriptor; see the module comment. */
export class LogWriter {
  private buffer: Buffer;
  private used = 0;
  /** Lines not yet encoded into the buffer, joined. */
  private staged = '';
  /** Most UTF-16 units staged before they are encoded: a third of the buffer (3 bytes per unit at worst). */
  private readonly stageUnits: number;
  /** Full buffers not yet written (the output answered EAGAIN). */
  private readonly backlog: Buffer[] = [];
  private backlogBytes = 0;
  private droppedBytes = 0;

  /**
   * @param fd file descriptor to write to (1: stdout)
   * @param chunkBytes buffer size, in bytes: one write(2) per full buffer
   * @param write the write call (`fs.writeSync`; tests inject failures)
   */
  constructor(
    private readonly fd: number,
    private readonly chunkBytes = LOG_CHUNK_BYTES,
    private readonly write: (fd: number, data: Buffer, offset: number, length: number) => number = writeSync,
  ) {
    this.buffer = Buffer.allocUnsafe(chunkBytes);
    this.stageUnits = Math.floor(chunkBytes / 3);
  }

  /**
   * Appends one line (a complete JSON object and its newline) to the staged text; the staged text is
   * encoded into the buffer once it could fill a third of it (3 bytes per UTF-16 unit at worst), and
   * the buffer written when full.
   */
  line(text: string): void {
    if (this.staged.length + text.length > this.stageUnits) {
      this.encodeStaged();
      if (text.length > this.stageUnits) {
        this.encode(text);
        return;
      }
    }
    this.staged += text;
  }

  /**
   * Room for one line of at most `maxBytes` bytes encoded in place (no string built): lines staged
   * before it are encoded first, so lines keep their order, and the buffer is written first when the
   * line might not fit. Write the line into the returned buffer from {@link offset}, then call
   * {@link commit} with its end. @returns the buffer, or null when `maxBytes` exceeds it (write the
   * line with {@link line} instead).
   */
  reserve(maxBytes: number): Buffer | null {
    if (maxBytes > this.chunkBytes) return null;
    this.encodeStaged();
    if (this.used + maxBytes > this.chunkBytes) {
      this.rotate();
      this.drain();
    }
    return this.buffer;
  }

  /** Where the next line encoded in place starts (see {@link reserve}). */
  get offset(): number {
    return this.used;
  }

  /**
   * Takes the line encoded in place up to `end` (see {@link reserve}); nothing is taken when `end` is
   * the current offset. @param end at most offset + the `maxBytes` reserved
   */
  commit(end: number): void {
    this.used = end;
  }

  /** Encodes the staged lines into the buffer. */
  private encodeStaged(): void {
    if (this.staged.length === 0) return;
    const text = this.staged;
    this.staged = '';
    this.encode(text);
  }

  /** Copies `text` (UTF-8) into the buffer; writes the buffer first when `text` does not fit. */
  private encode(text: string): void {
    // At most 3 bytes per UTF-16 unit: the exact length is measured only when that bound does not fit.
    if (this.used + text.length * 3 > this.chunkBytes) {
      const bytes = Buffer.byteLength(text);
      if (this.used + bytes > this.chunkBytes) {
        this.rotate();
        if (bytes > this.chunkBytes) {
          this.enqueue(Buffer.from(text));
          this.drain();
          return;
        }
        this.drain();
      }
    }
    this.used += this.buffer.write(text, this.used);
  }

  /** Writes every buffered line now (synchronously; what the output refuses stays for the next flush). */
  flush(): void {
    this.encodeStaged();
    this.rotate();
    this.drain();
  }

  /**
   * Empties the buffer: written straight from it when nothing waits before it (the usual case: the
   * buffer is then reused, not replaced by a fresh 64 KiB allocation per buffer), else (or for what
   * the output did not take) copied to the backlog.
   */
  private rotate(): void {
    if (this.used === 0) return;
    let from = 0;
    if (this.backlog.length === 0) {
      const written = this.writeOnce(this.buffer, 0, this.used);
      if (written < 0) {
        this.used = 0; // the output is gone: the lines are forgotten (as in drain)
        return;
      }
      from = written;
    }
    if (from < this.used) this.enqueue(Buffer.from(this.buffer.subarray(from, this.used)));
    this.used = 0;
  }

  /** One write of `data[offset, offset + length)`: the bytes written, 0 when the output would block, -1 when it is gone (EPIPE, EBADF). */
  private writeOnce(data: Buffer, offset: number, length: number): number {
    try {
      return this.write(this.fd, data, offset, length);
    } catch (err) {
      return wouldBlock(err) ? 0 : -1;
    }
  }

  private enqueue(chunk: Buffer): void {
    this.backlog.push(chunk);
    this.backlogBytes += chunk.length;
    while (this.backlogBytes > LOG_BACKLOG_MAX_BYTES && this.backlog.length > 1) {
      const dropped = this.backlog.shift()!;
      this.backlogBytes -= dropped.length;
      this.droppedBytes += dropped.length;
    }
  }

  /** Writes the backlog in order until it is empty or the output would block. */
  private drain(): void {
    while (this.backlog.length > 0) {
      const chunk = this.backlog[0]!;
      const written = this.writeOnce(chunk, 0, chunk.length);
      if (written === 0) return; // would block: kept for the next flush
      if (written < 0) {
        // The output is gone (EPIPE, EBADF): nothing can be written any more; forget the lines.
        this.backlog.length = 0;
        this.backlogBytes = 0;
        return;
      }
      this.backlogBytes -= written;
      if (written < chunk.length) this.backlog[0] = chunk.subarray(written);
      else this.backlog.shift();
    }
    if (this.droppedBytes > 0) {
      const note = `{"level":40,"time":${Date.now()},"pid":${process.pid},"msg":"log output could not keep up: dropped ${this.droppedBytes} bytes of log lines"}\n`;
      this.droppedBytes = 0;
      this.enqueue(Buffer.from(note));
      this.drain();
    }
  }
}

/** The buffered outputs of the loggers made by {@link serviceLog}, for lines serialized by hand (the access log). */
const rawWriters = new WeakMap<Logger, LogWriter>();

/**
 * The buffered output of `logger` when {@link serviceLog} made it, else `null` (a logger injected by
 * a test or an embedding application: write through pino then). A line written there must be one
 * complete JSON object and newline, as pino would write it.
 */
export function rawLogWriter(logger: Logger): LogWriter | null {
  return rawWriters.get(logger) ?? null;
}

/** The service's logger and the control of its buffer. */
export interface ServiceLog {
  readonly logger: Logger;
  /** Writes every buffered line now, synchronously. */
  flushSync(): void;
}

/**
 * A logger at `level` writing buffered JSON lines to file descriptor `fd` (default 1, stdout), flushed
 * every {@link LOG_FLUSH_INTERVAL_MS} and at the process's exit.
 * @param level a pino level name (config `LOG_LEVEL`)
 */
export function serviceLog(level: string, fd = 1): ServiceLog {
  const writer = new LogWriter(fd);
  const logger = pino({ level }, { write: (line: string): void => writer.line(line) });
  rawWriters.set(logger, writer);
  const flushSync = (): void => writer.flush();
  // Light traffic: write what waits at least once per interval (an unref'd timer never keeps the process alive).
  setInterval(flushSync, LOG_FLUSH_INTERVAL_MS).unref();
  process.on('exit', flushSync);
  return { logger, flushSync };
}
