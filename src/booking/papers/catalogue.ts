/**
 * The local product catalogue of the customs papers: a CSV or YAML file (profile setting
 * `papers.catalogue`) that maps an item to its tariff (HS) code and a default country of origin.
 * The interface has no field for a tariff code, so a code is printed on the papers only and never
 * sent to the service.
 *
 * Each entry names the item by `description` (the item's description, compared without case and
 * with runs of spaces as one), by `sku` (a code found as a word in the item's description, such as
 * `BB-001` in `Face oil BB-001`) or by `tag` (a word of the description, such as `serum`), and
 * gives `hs` (digits with optional dots, 6 to 10 digits) and optionally `origin` (a two-letter
 * country code). An item takes the first entry matching by description, else by SKU, else by tag.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { ShipbookError, type InputIssue, ValidationError } from '../../errors.js';

/** One entry of the catalogue, with the line it came from. */
interface CatalogueEntry {
  description?: string;
  sku?: string;
  tag?: string;
  /** Tariff (HS) code as written, e.g. `3304.99.00`. */
  hs: string;
  /** Default country of origin, two-letter code. */
  origin?: string;
  line: number;
}

/** The catalogue, ready to match items. */
export interface Catalogue {
  file: string;
  entries: CatalogueEntry[];
}

/** What the catalogue says of an item. */
interface CatalogueMatch {
  hs: string;
  origin?: string;
  /** How it matched. */
  by: 'description' | 'sku' | 'tag';
}

/** A text compared without case, spaces trimmed and collapsed. */
function norm(s: string): string {
  return s.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The words of a description, lower case (letters, digits, `-`, `_`, `.`, `/` kept inside a word). */
function words(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .split(/[^\p{L}\p{N}\-_./]+/u)
      .map((w) => w.replace(/^[-_./]+|[-_./]+$/g, ''))
      .filter((w) => w !== ''),
  );
}

/** The catalogue's entry for an item of `description`, or undefined. */
export function matchItem(catalogue: Catalogue | undefined, description: string): CatalogueMatch | undefined {
  if (catalogue === undefined) return undefined;
  const d = norm(description);
  const ws = words(description);
  const hit = (e: CatalogueEntry, by: CatalogueMatch['by']): CatalogueMatch => ({ hs: e.hs, ...(e.origin !== undefined ? { origin: e.origin } : {}), by });
  for (const e of catalogue.entries) if (e.description !== undefined && norm(e.description) === d) return hit(e, 'description');
  for (const e of catalogue.entries) if (e.sku !== undefined && ws.has(e.sku.toLowerCase())) return hit(e, 'sku');
  for (const e of catalogue.entries) if (e.tag !== undefined && ws.has(e.tag.toLowerCase())) return hit(e, 'tag');
  return undefined;
}

/** Reads the rows of a CSV catalogue: a header naming the columns, then one entry per row. */
async function csvRows(text: string): Promise<Array<{ line: number; row: Record<string, unknown> }>> {
  const { parse } = await import('csv-parse/sync');
  const records = parse(text, {
    columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
    skip_empty_lines: true,
    info: true,
    bom: true,
    trim: true,
  }) as Array<{
    record: Record<string, string>;
    info: { lines: number };
  }>;
  return records.map((r) => ({ line: r.info.lines, row: r.record }));
}

/** Reads the entries of a YAML catalogue: a list of entries (or `items:` holding one), lines from the document. */
async function yamlRows(text: string, file: string): Promise<Array<{ line: number; row: Record<string, unknown> }>> {
  const { parseDocument, LineCounter, isSeq, isMap } = await import('yaml');
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new ValidationError(
      [{ file, line: e.linePos?.[0].line, path: '', message: e.message.split('\n')[0] ?? 'not YAML', severity: 'error' }],
      `the catalogue ${file} is not YAML`,
    );
  }
  let seq = doc.contents;
  if (isMap(seq) && seq.has('items')) seq = seq.get('items', true) as unknown as typeof seq;
  if (!isSeq(seq))
    throw new ValidationError([{ file, line: 1, path: '', message: 'expected a list of entries (description or sku or tag, hs, origin)', severity: 'error' }]);
  return seq.items.map((node) => {
    const range = (node as { range?: [number, number, number] }).range;
    const line = range ? counter.linePos(range[0]).line : 0;
    const value = (node as { toJSON(): unknown }).toJSON();
    return { line, row: (value !== null && typeof value === 'object' ? value : {}) as Record<string, unknown> };
  });
}

/**
 * Reads the catalogue `file` (`.csv`, `.tsv` not supported; `.yaml`, `.yml` or `.json` read as YAML).
 * @throws ShipbookError `catalogue_unreadable` (exit 2) when the file cannot be read; ValidationError
 *   (exit 2) naming each line whose entry has no `hs`, an `hs` that is not 6 to 10 digits, no
 *   description, sku or tag, or an `origin` that is not a two-letter code
 */
export async function loadCatalogue(file: string): Promise<Catalogue> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ShipbookError(
      'catalogue_unreadable',
      `cannot read the product catalogue ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      'input',
      {
        suggestion: 'Set papers.catalogue to a CSV or YAML file you can read: shipbook config set papers.catalogue /path/to/catalogue.csv',
        cause: err,
      },
    );
  }
  const rows = extname(file).toLowerCase() === '.csv' ? await csvRows(text) : await yamlRows(text, file);
  const issues: InputIssue[] = [];
  const entries: CatalogueEntry[] = [];
  rows.forEach(({ line, row }, i) => {
    const str = (k: string) => {
      const v = row[k];
      return v === undefined || v === null || String(v).trim() === '' ? undefined : String(v).trim();
    };
    const problem = (path: string, message: string) => issues.push({ file, line, path: `[${i}].${path}`, message, severity: 'error' });
    const hs = str('hs') ?? str('hs_code');
    const origin = str('origin')?.toUpperCase();
    const entry: CatalogueEntry = { hs: hs ?? '', line };
    const description = str('description');
    const sku = str('sku');
    const tag = str('tag');
    if (description !== undefined) entry.description = description;
    if (sku !== undefined) entry.sku = sku;
    if (tag !== undefined) entry.tag = tag;
    if (hs === undefined) problem('hs', 'required: the tariff (HS) code, such as 3304.99');
    else if (!/^\d[\d.\s]*$/.test(hs) || hs.replace(/\D/g, '').length < 6 || hs.replace(/\D/g, '').length > 10)
      problem('hs', `expected 6 to 10 digits, dots allowed (got "${hs}")`);
    if (description === undefined && sku === undefined && tag === undefined) problem('description', 'required: a description, sku or tag that names the item');
    if (origin !== undefined) {
      if (!/^[A-Z]{2}$/.test(origin)) problem('origin', `expected a two-letter country code (got "${origin}")`);
      else entry.origin = origin;
    }
    entries.push(entry);
  });
  if (issues.length > 0) throw new ValidationError(issues, `${issues.length} problem${issues.length === 1 ? '' : 's'} in the product catalogue ${file}`);
  return { file, entries };
}
