/**
 * Reading the files of a batch or of `validate` ahead of the one being checked: a directory of 10,000 order files
 * spent a third of its time waiting for one file after another (stat, open, read, close, each a
 * round trip to the thread pool). A few reads are under way at once, in the order the files are
 * checked, and each file's bytes are dropped as soon as its documents are read, so at most
 * {@link READ_AHEAD} files' bytes are held whatever the size of the batch.
 */
import { ValidationError, type InputIssue } from '../errors.js';
import { readInput } from './read.js';

/** How many files are read at once, ahead of the one being checked. */
export const READ_AHEAD = 8;

/** A file's bytes, or the problem that kept it from being read (missing, too large, not a regular file). */
type FileRead = { bytes: Buffer } | { issues: InputIssue[] };

/**
 * How many files have been read and not yet taken, now and at most since the process started: a
 * test checks that reads overlap and stay within {@link READ_AHEAD}.
 */
export const readAheadWork = { held: 0, most: 0 };

async function readOne(file: string): Promise<FileRead> {
  try {
    return { bytes: await readInput(file) };
  } catch (err) {
    if (err instanceof ValidationError) return { issues: err.issues };
    throw err;
  }
}

/**
 * The files of `files` that `wanted` picks, read ahead in order: `take(i)` gives file `i`'s read
 * (it must be one `wanted` picks, taken in increasing order) and starts the reads of the next
 * ones, so that at most {@link READ_AHEAD} are under way or waiting to be taken.
 */
export class ReadAhead {
  private readonly reads = new Map<number, Promise<FileRead>>();
  private next = 0;

  constructor(
    private readonly files: readonly string[],
    private readonly wanted: (i: number) => boolean,
  ) {}

  /** File `i`'s bytes or problem. @throws what reading throws that is not a problem of the file (a bug) */
  take(i: number): Promise<FileRead> {
    if (this.next < i) this.next = i;
    this.fill();
    const read = this.reads.get(i);
    if (read === undefined) return readOne(this.files[i]!);
    this.reads.delete(i);
    readAheadWork.held--;
    this.fill();
    return read;
  }

  /** Starts reads of the next wanted files until {@link READ_AHEAD} are under way or waiting. */
  private fill(): void {
    while (this.reads.size < READ_AHEAD && this.next < this.files.length) {
      const i = this.next++;
      if (!this.wanted(i) || this.reads.has(i)) continue;
      const read = readOne(this.files[i]!);
      // Settled here too, so a read that fails while nobody awaits it yet is never "unhandled".
      read.catch(() => undefined);
      this.reads.set(i, read);
      readAheadWork.held++;
      readAheadWork.most = Math.max(readAheadWork.most, readAheadWork.held);
    }
  }
}
