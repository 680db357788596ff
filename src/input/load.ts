/**
 * Loading one input document (a fixture): its bytes read safely (src/input/read.ts), then parsed
 * as JSON or YAML with positions (src/input/parse.ts), so every problem names its line and column.
 */
import type { Readable } from 'node:stream';
import type { LoadedDocument } from './loaded.js';
import { parseInput } from './parse.js';
import { readInput } from './read.js';

/** Reads and parses `file` (or `-` for standard input). @throws ValidationError (exit 2) */
export async function loadDocument(file: string, stdin?: Readable): Promise<LoadedDocument> {
  return parseInput(file, await readInput(file, stdin));
}
