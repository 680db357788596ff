/**
 * `--save-as <file>`: what was entered, written as an order (or shipment, or quote)
 * file that `shipbook validate` accepts and `shipbook book <file>` books again without prompts.
 * Payment is never part of it: a card number or CVV is never written anywhere.
 */
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { UsageError } from '../errors.js';
import { text } from '../schema/common.js';
import { askText, type PromptIO } from './ask.js';

/** The YAML text of a saved document, with a comment saying how it was made and how to use it. */
export function savedDocumentText(document: unknown, usage: string, now: Date): string {
  const header = `# Written by shipbook on ${now.toISOString().slice(0, 10)}. Use it again with: ${usage}\n`;
  return header + stringify(JSON.parse(JSON.stringify(document)) as unknown, { lineWidth: 0 });
}

/**
 * Writes `document` (an order, shipment or quote as files hold it, without payment) as YAML.
 * @throws UsageError (exit 2) when the file cannot be written
 */
export async function saveDocument(file: string, document: unknown, usage: string, now: Date): Promise<void> {
  try {
    await writeFile(file, savedDocumentText(document, usage, now), { mode: 0o644 });
  } catch (err) {
    throw new UsageError(`--save-as ${file}: cannot write (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { cause: err });
  }
}

/**
 * The final question of a guided booking when `--save-as` was not given: save the answers as a
 * file? (default no), then its name.
 * @returns the file name, or undefined for no
 */
export async function askSaveAs(io: PromptIO, suggestion: string): Promise<string | undefined> {
  const yes = await io.prompter.confirm({ message: 'Save these answers as a file, to use again without prompts?', default: false });
  return yes ? askText(io, { message: 'File name', schema: text(), default: suggestion }) : undefined;
}
