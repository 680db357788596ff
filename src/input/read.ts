/**
 * Reading input bytes safely: a regular file or standard input (`-`), at most
 * {@link MAX_INPUT_BYTES}; a missing file, a directory, a device or FIFO, a file too large are
 * refused with a clear problem, before anything is parsed.
 */
import { close, open, read, readdirSync, stat } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import { ValidationError, cmd, shellWord, type Hint } from '../errors.js';
import { readAll } from '../stream.js';
import { failInput as fail } from './loaded.js';

/** Largest input document accepted, in bytes (5 MiB). */
export const MAX_INPUT_BYTES = 5 * 1024 * 1024;

const tooLarge = () => `larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB; is this the right file?`;

function readStream(stream: Readable, file: string): Promise<Buffer> {
  return readAll(stream, { bytes: MAX_INPUT_BYTES, tooLarge: () => fail(file, tooLarge()) });
}

// node:fs's callback API, promised: node:fs/promises would load its own module graph (readline,
// file watchers, web streams) at every start-up of validate and the sending commands, for four calls.
const statFile = promisify(stat);
const openFile = promisify(open);
const readFile = promisify(read);
const closeFile = promisify(close);

/**
 * What to do about a missing file: the help examples name files under `fixtures/`, which an
 * installed shipbook carries inside itself (`shipbook examples`), not in the user's directory.
 */
function missingFileHint(file: string): Hint {
  const normal = file.replace(/\\/g, '/').replace(/^\.\//, '');
  if (normal.startsWith('fixtures/'))
    return [
      'The help examples\' files ship with shipbook: "',
      cmd('examples', '--copy'),
      '" writes them under ./fixtures/, "',
      cmd('examples', normal),
      '" prints this one.',
    ];
  return [`Check the path (it is read from ${process.cwd()}); "`, cmd('examples'), '" lists example files to start from.'];
}

/** What to do about a directory given where one file is read: name a file of it, and the commands that take a directory. */
function directoryHint(dir: string): Hint {
  let first: string | undefined;
  try {
    first = readdirSync(dir)
      .filter((n) => /\.(ya?ml|json|ndjson|csv)$/i.test(n))
      .sort()[0];
  } catch {
    first = undefined;
  }
  const one: Hint = first === undefined ? ['one of its files'] : ['one of its files, e.g. ', shellWord(join(dir, first))];
  return ['Give ', ...one, '. "', cmd('validate', dir), '" checks every file in it, and "', cmd('book', dir), '" books every order in it.'];
}

/**
 * Reads the raw bytes of `file` (or standard input for `-`).
 * @throws ValidationError (exit 2) when the file is missing, unreadable, a directory or too large.
 */
export async function readInput(file: string, stdin?: Readable): Promise<Buffer> {
  if (file === '-') {
    if (!stdin) fail(file, 'standard input is not available');
    return readStream(stdin, file);
  }
  try {
    const info = await statFile(file);
    if (info.isDirectory()) fail(file, 'is a directory, not a file', undefined, directoryHint(file));
    // A device (/dev/zero), a FIFO with no writer or a socket would never end, or never start:
    // only regular files are read (standard input is "-").
    if (!info.isFile()) fail(file, 'is not a regular file (a device, FIFO or socket); give a file, or "-" for standard input');
    if (info.size > MAX_INPUT_BYTES) fail(file, tooLarge());
    // Read at most one byte past the limit whatever stat said (a file that grows while read).
    const fd = await openFile(file, 'r');
    try {
      const buf = Buffer.alloc(Math.min(info.size, MAX_INPUT_BYTES) + 1);
      let filled = 0;
      for (;;) {
        const { bytesRead } = await readFile(fd, buf, filled, buf.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
        if (filled === buf.length) {
          if (filled > MAX_INPUT_BYTES) fail(file, tooLarge());
          break;
        }
      }
      return buf.subarray(0, filled);
    } finally {
      await closeFile(fd);
    }
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'ENOENT') fail(file, 'no such file', undefined, missingFileHint(file));
    if (code === 'EACCES' || code === 'EPERM') fail(file, 'permission denied');
    fail(file, `cannot read (${code ?? String(err)})`);
  }
}
