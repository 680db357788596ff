/**
 * Reading a journal or ledger file: every record folded into the state of each document, with
 * torn-tail recovery (an incomplete last record, cut short by a full disk or a crash while it was
 * written, was never acted on: it is set aside, into `<file>.torn`, by the run that holds the lock),
 * and the target service the file names.
 */
import { appendFileSync, closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readFileSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { JournalCorruptError } from '../errors.js';
import { applyRecord } from '../fold.js';
import { dayFilter, type RecordFilter } from '../store.js';
import { isRecord, RECORD_START, type JournalRecord } from '../records.js';
import { StateIndex } from './state-index.js';

/** What reading a journal found besides its records. */
interface JournalReading {
  states: StateIndex;
  /** Things set aside while reading, for people (a torn last record, the torn start of a line). */
  notes: string[];
  /**
   * Where the complete records end, bytes, when the file ends with an incomplete record (cut short
   * by a full disk or a crash while it was written: never acknowledged, so never acted on).
   */
  tornAt?: number;
  /** Where the last complete record read ends, bytes (a shared file is read on from there). */
  end: number;
}

/** Bytes read at a time by {@link readJournalFile}: the file is never held whole, however long. */
const READ_CHUNK = 1024 * 1024;

/**
 * Every line of the file at `path` as it is now (read a chunk at a time, up to the size it had when
 * the read began), with its number (from 1), its start in bytes, whether it ends with a newline, and
 * whether it is the last. `size` is set to the bytes read.
 */
function* linesOf(path: string, read: { size: number }): Generator<{ text: string; number: number; start: number; ended: boolean; last: boolean }> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    read.size = size;
    const chunk = Buffer.alloc(Math.min(READ_CHUNK, Math.max(size, 1)));
    let carry: Buffer | undefined;
    let position = 0;
    let number = 0;
    let start = 0;
    while (position < size) {
      const got = readSync(fd, chunk, 0, Math.min(chunk.length, size - position), position);
      if (got === 0) break;
      position += got;
      const bytes: Buffer = carry === undefined ? chunk.subarray(0, got) : Buffer.concat([carry, chunk.subarray(0, got)]);
      let from = 0;
      let nl: number;
      while ((nl = bytes.indexOf(10, from)) >= 0) {
        const next = start + nl + 1 - from;
        yield { text: bytes.toString('utf8', from, nl), number: ++number, start, ended: true, last: next >= size };
        start = next;
        from = nl + 1;
      }
      carry = from < bytes.length ? Buffer.from(bytes.subarray(from)) : undefined;
    }
    if (carry !== undefined) yield { text: carry.toString('utf8'), number: ++number, start, ended: false, last: true };
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a journal file into the state of each order, in first-seen order, with notes on what was
 * set aside: an incomplete last record (no newline, or not a record), and the torn start of a line
 * that an older shipbook appended to after a failed write (the record that follows is kept). The
 * file is read a chunk at a time and each record folded as it is read: what stays is the index of
 * {@link StateIndex}, not the records.
 * @throws JournalCorruptError (exit 2) naming the line for a line that is not a record
 */
export function readJournalFile(path: string): JournalReading {
  const reading: JournalReading = { states: new StateIndex(), notes: [], end: 0 };
  if (!existsSync(path)) return reading;
  const read = { size: 0 };
  for (const { text: line, number, start, ended, last } of linesOf(path, read)) {
    reading.end = read.size;
    if (line.trim() === '') continue;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      r = undefined;
    }
    const torn = () => {
      reading.tornAt = start;
      reading.end = start;
      reading.notes.push(
        `${path}:${number}: an incomplete last record (cut short by a full disk or a crash while it was written, so never acted on) was set aside`,
      );
    };
    // The last line without its newline was never acknowledged: a write cut short.
    if (!ended) {
      torn();
      continue;
    }
    if (!isRecord(r)) {
      const at = line.lastIndexOf(RECORD_START);
      try {
        r = at > 0 ? JSON.parse(line.slice(at)) : undefined;
      } catch {
        r = undefined;
      }
      if (!isRecord(r)) {
        if (last) {
          torn();
          continue;
        }
        throw new JournalCorruptError(path, number);
      }
      reading.notes.push(`${path}:${number}: the torn start of the line (${at} bytes, a record cut short before it, never acted on) was skipped`);
    }
    // The record naming the journal's target is about the file, not about an order.
    if (r.event === 'target') continue;
    reading.states.set(r.id, applyRecord(reading.states.get(r.id), r));
  }
  return reading;
}

/** Reads a journal file into the state of each order, in first-seen order. @throws JournalCorruptError (exit 2) naming the line for a line that is not a record */
export function readJournal(path: string): StateIndex {
  return readJournalFile(path).states;
}

/**
 * The target service a journal was written against: its first `target` record (src/config/target.ts
 * `targetId`); undefined for an empty journal, or one written before journals named their target.
 */
export function journalTarget(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const r = JSON.parse(line) as Partial<JournalRecord>;
      if (r.event === 'target' && typeof r.target === 'string') return r.target;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Cuts an incomplete last record off the journal (its write never completed, so nothing acted on
 * it: an intent's request was never sent, an answer was never printed) and keeps its bytes in
 * `<path>.torn` with a note; returns the notes to show.
 */
export function setAsideTorn(path: string, tornAt: number, notes: readonly string[]): string[] {
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    const torn = Buffer.alloc(size - tornAt);
    readSync(fd, torn, 0, torn.length, tornAt);
    let kept = true;
    try {
      appendFileSync(
        `${path}.torn`,
        Buffer.concat([Buffer.from(`# ${new Date().toISOString()}: cut from the end of ${path} (byte ${tornAt}), never acted on\n`), torn, Buffer.from('\n')]),
      );
    } catch {
      kept = false; // a disk still full: the bytes were never acted on, dropping them loses nothing
    }
    ftruncateSync(fd, tornAt);
    fsyncSync(fd);
    return notes.map((n) =>
      n.endsWith('was set aside')
        ? `${n} ${kept ? `in ${path}.torn` : '(dropped: it could not be copied aside)'}; the journal continues after the last whole record`
        : n,
    );
  } finally {
    closeSync(fd);
  }
}

/** Bytes read at a time by {@link readRecords}. */
const CHUNK = 64 * 1024;

/**
 * Every whole record of the file, oldest first, read a chunk at a time up to the size it had when
 * the read began (so memory stays flat however long the file): an incomplete last line (a write
 * under way, or torn) is skipped, the torn start of a line before a record is skipped as when
 * reading (src/ledger/file/read.ts `readJournalFile`), and the `target` record is left out.
 * @throws JournalCorruptError (exit 2) naming the line for a line that is not a record
 */
async function* streamRecords(path: string): AsyncGenerator<JournalRecord> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const size = (await handle.stat()).size;
    const buffer = Buffer.alloc(CHUNK);
    let carry = Buffer.alloc(0);
    let position = 0;
    let lineNo = 0;
    while (position < size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, size - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let bytes = Buffer.concat([carry, buffer.subarray(0, bytesRead)]);
      let nl: number;
      while ((nl = bytes.indexOf(10)) >= 0) {
        const line = bytes.toString('utf8', 0, nl);
        bytes = bytes.subarray(nl + 1);
        lineNo++;
        if (line.trim() === '') continue;
        let r: unknown;
        try {
          r = JSON.parse(line);
        } catch {
          r = undefined;
        }
        if (!isRecord(r)) {
          const at = line.lastIndexOf(RECORD_START);
          try {
            r = at > 0 ? JSON.parse(line.slice(at)) : undefined;
          } catch {
            r = undefined;
          }
          // A line that is no record at the very end may be a torn one followed by nothing else.
          if (!isRecord(r)) {
            if (position >= size && bytes.length === 0) return;
            throw new JournalCorruptError(path, lineNo);
          }
        }
        if (r.event !== 'target') yield r;
      }
      carry = Buffer.from(bytes);
    }
  } finally {
    await handle.close();
  }
}

/**
 * The records of a journal or ledger file that match `query` (src/ledger/store.ts
 * `RecordFilter`), oldest first (see {@link streamRecords}). With `orderId`, the file is read
 * twice: first to find the documents that became that order, then for every record of theirs.
 * @throws JournalCorruptError (exit 2) naming the line for a line that is not a record; RangeError
 *   for a `day` that is not a date `YYYY-MM-DD`
 */
export async function* readRecords(path: string, query: RecordFilter = {}): AsyncGenerator<JournalRecord> {
  let ids: Set<string> | undefined;
  if (query.orderId !== undefined) {
    ids = new Set();
    for await (const r of streamRecords(path)) if (r.order_id === query.orderId) ids.add(r.id);
    if (ids.size === 0) return;
  }
  const day = query.day === undefined ? undefined : dayFilter(query.day);
  if (query.day !== undefined && day === undefined) throw new RangeError(`not a day (YYYY-MM-DD): ${query.day}`);
  const since = Math.max(query.since?.getTime() ?? -Infinity, day?.since.getTime() ?? -Infinity);
  const until = Math.min(query.until?.getTime() ?? Infinity, day?.until.getTime() ?? Infinity);
  for await (const r of streamRecords(path)) {
    if (query.id !== undefined && r.id !== query.id) continue;
    if (ids !== undefined && !ids.has(r.id)) continue;
    if (since > -Infinity || until < Infinity) {
      const t = Date.parse(r.t);
      if (!(t >= since && t < until)) continue;
    }
    yield r;
  }
}
