/**
 * The orders of the JSON report, kept on disk rather than in memory: each result is written, as
 * the report shows it (pretty-printed, indented into the report's `orders` list), to a file of its
 * own beside the report (`<report>.<pid>.orders`) as it comes, so that a batch of 100,000 orders
 * holds none of them. The report is put together from it each time it is written: the report's
 * other fields, then these bytes, then the end of the list.
 */
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/** Bytes of results gathered before they are written to the file. */
const GATHER = 64 * 1024;

/** The results of a report as its text, in a file (see the file's comment). */
export class ReportOrders {
  private fd: number | undefined;
  /** Texts not yet written to the file. */
  private pending: string[] = [];
  private pendingBytes = 0;
  /** How many results were added. */
  count = 0;

  /** @param path the file (created when the first result comes, removed by {@link remove}) */
  constructor(readonly path: string) {}

  /**
   * Adds a result's text: `JSON.stringify(result, null, 2)`, written as the report's list holds it.
   * @throws the file system's error when the file cannot be written
   */
  add(json: string): void {
    const text = `${this.count === 0 ? '' : ',\n'}    ${json.replaceAll('\n', '\n    ')}`;
    this.count++;
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (this.pendingBytes >= GATHER) this.flush();
  }

  /** Writes what was gathered to the file. @throws the file system's error */
  private flush(): void {
    if (this.pending.length === 0) return;
    this.fd ??= openSync(this.path, 'w+', 0o600);
    const bytes = Buffer.from(this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
    let written = 0;
    while (written < bytes.length) written += writeSync(this.fd, bytes, written, bytes.length - written);
  }

  /**
   * Writes the report to the open file `out`: `head` (the report's text up to its list of orders,
   * `[` included), every result so far, then `tail` (what follows the list, `]` first).
   * @throws the file system's error
   */
  writeInto(out: number, head: string, tail: string): void {
    this.flush();
    writeAll(out, Buffer.from(head));
    if (this.fd !== undefined) {
      const chunk = Buffer.alloc(1024 * 1024);
      let position = 0;
      for (;;) {
        const got = readSync(this.fd, chunk, 0, chunk.length, position);
        if (got === 0) break;
        writeAll(out, chunk.subarray(0, got));
        position += got;
      }
    }
    writeAll(out, Buffer.from(tail));
  }

  /** Closes and removes the file. Never throws. */
  remove(): void {
    try {
      if (this.fd !== undefined) closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
    rmSync(this.path, { force: true });
  }
}

/** Writes every byte of `bytes` to `fd`. */
function writeAll(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
}
