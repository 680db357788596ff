/**
 * The files a run will write (reports, JUnit, a journal, a saved document, a hand-over sheet),
 * checked before its first request: a path that cannot be written is said then, as a usage error
 * (exit 2) with nothing sent, never found after paying nor reported as an internal error.
 */
import { accessSync, closeSync, constants, existsSync, openSync, statSync, unlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors.js';
import { shellWord, type Hint } from './errors.js';

/** A file a run will write: the flag that names it (`--report`) and the path given. */
interface OutputFile {
  flag: string;
  path: string;
  /** Its missing directories are made when it is written (a journal): only the nearest existing one must be writable. */
  makesDirectory?: boolean;
}

/**
 * Checks that each file can be written: its directory exists (or, for a file that makes its
 * directories, the nearest existing one is a directory), and the file can be created there, or
 * opened for writing when it exists. A file created to try is removed again.
 * @throws UsageError (exit 2) naming the flag, the path and what is wrong, with "nothing was sent"
 */
export function checkOutputFiles(files: readonly OutputFile[]): void {
  for (const f of files) checkOne(f);
}

function checkOne({ flag, path, makesDirectory }: OutputFile): void {
  const abs = resolve(path);
  const refuse = (why: string, suggestion: string | Hint): never => {
    throw new UsageError(`cannot write ${flag} ${path}: ${why}; nothing was sent`, { suggestion });
  };
  const elsewhere = `Give ${flag} a file in a directory you can write.`;
  let dir = dirname(abs);
  if (existsSync(abs)) {
    if (statSync(abs).isDirectory()) refuse('it is a directory', `Give ${flag} the name of a file (in that directory, or elsewhere), not a directory.`);
    tryWrite(abs, 'r+', refuse, elsewhere);
    return;
  }
  if (!existsSync(dir)) {
    if (!makesDirectory)
      refuse(`its directory ${dir} does not exist`, [
        'Create it first (mkdir -p ',
        shellWord(dir),
        `), or ${elsewhere.charAt(0).toLowerCase()}${elsewhere.slice(1)}`,
      ]);
    while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  }
  if (!statSync(dir).isDirectory()) refuse(`${dir} is not a directory`, elsewhere);
  try {
    accessSync(dir, constants.W_OK);
  } catch (err) {
    refuse(`its directory ${dir} cannot be written [${(err as NodeJS.ErrnoException).code ?? 'error'}]`, elsewhere);
  }
  if (dir !== dirname(abs)) return;
  tryWrite(abs, 'wx', refuse, elsewhere);
  unlinkSync(abs);
}

/** Opens `abs` with `flags` and closes it again; a refusal is said through `refuse`. */
function tryWrite(abs: string, flags: 'r+' | 'wx', refuse: (why: string, suggestion: string) => never, elsewhere: string): void {
  try {
    closeSync(openSync(abs, flags));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    refuse(`the file system refuses it [${code}]`, elsewhere);
  }
}
