/**
 * The draft of a guided booking: the answers given so far, kept when the person stops at the
 * summary or presses Ctrl-C, so the next `shipbook book` (or `order create`) with no file offers
 * to resume them instead of asking everything again. A draft is an order file like any other
 * (YAML, no payment: a card number or CVV is never written), holding the parts answered in full;
 * `shipbook book <draft>` completes it by prompts too. It lives in the state directory, readable
 * by its owner only (it holds addresses).
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/** Where the draft of `command` (`book`, `order create`) is kept: `<state dir>/drafts/<command>.yaml`. */
export function draftPath(stateDir: string, command: string): string {
  return join(
    stateDir,
    'drafts',
    `${command
      .replace(/^shipbook\s+/, '')
      .trim()
      .replace(/\s+/g, '-')}.yaml`,
  );
}

/** A draft found on disk: the document and when it was written. */
interface Draft {
  file: string;
  data: unknown;
  savedAt: Date;
}

/** Reads the draft at `file`. @returns undefined when there is none or it cannot be read as YAML */
export async function readDraft(file: string): Promise<Draft | undefined> {
  try {
    const [text, info] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    const data = parse(text) as unknown;
    if (data === null || typeof data !== 'object') return undefined;
    return { file, data, savedAt: info.mtime };
  } catch {
    return undefined;
  }
}

/**
 * Writes the answers so far as the draft at `file` (mode 0600), with a first line saying how to
 * go on. @throws the file system's error when it cannot be written
 */
export async function writeDraft(file: string, document: unknown, command: string, now: Date): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true, mode: 0o700 });
  const header = `# Unfinished answers of a guided booking, kept on ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC. "${command}" offers to resume them.\n`;
  await writeFile(file, header + stringify(JSON.parse(JSON.stringify(document)) as unknown, { lineWidth: 0 }), { mode: 0o600 });
}

/** Removes the draft at `file` (nothing when there is none). */
export async function removeDraft(file: string): Promise<void> {
  await rm(file, { force: true });
}
