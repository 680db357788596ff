/**
 * Validating input documents by kind (see `kinds.ts`): every problem at once, each with file,
 * line, column and field path, errors and warnings apart. Used by `shipbook validate` (which
 * reports and never sends) and by the commands that send a document (which refuse to send while
 * any error remains, and print warnings on stderr without stopping).
 */
import { readdir, stat } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { ValidationError, type InputIssue } from '../errors.js';
import { formatPath } from '../schema/issues.js';
import { settledDocument, type PickupRule } from './pickup.js';
import { KINDS, KIND_NAMES, detectKind, type DocumentKind, type KindName, type KindValue } from './kinds.js';
import { documentsOf, documentsOfBytes, isNdjsonName, type DocumentInput } from './documents.js';
import { readInput } from './read.js';
import { ReadAhead } from './read-ahead.js';
import { documentProblems } from './problems.js';
import { loadDocument } from './load.js';
import { parseInput } from './parse.js';
import type { LoadedDocument } from './loaded.js';
import { resolveSenders, type SenderPickup, type SenderRecord } from './senders.js';
import { collectWarnings, inputWarnings, withE164Phones, type Warning } from './warnings.js';
import { DEFAULT_ADDRESS_SETTINGS, type AddressSettings } from '../address/settings.js';
import { MAX_REQUEST_BYTES } from '../schema/limits.js';

/**
 * The request bodies a document of `kind` becomes, each with where it sits in the value: one for
 * most kinds; for consolidated mail one per shipment (`POST /shipments/`) and the combine request.
 */
function requestsOf(kind: KindName, value: unknown): Array<{ segments: PropertyKey[]; body: unknown }> {
  if (kind === 'consolidated') {
    const v = value as { shipments?: unknown[]; main_shipment?: unknown };
    const shipments = (v.shipments ?? []).map((shipment, i) => ({ segments: ['shipments', i] as PropertyKey[], body: { request: { shipment } } }));
    const ids = (v.shipments ?? []).map((_, i) => `SHP-${String(i).padStart(8, '0')}`);
    return [
      ...shipments,
      { segments: v.main_shipment === undefined ? [] : ['main_shipment'], body: { request: { shipments: ids, main_shipment: v.main_shipment } } },
    ];
  }
  return [{ segments: [], body: { request: value } }];
}

/**
 * Errors for requests over {@link MAX_REQUEST_BYTES} (1 MiB), measured as the UTF-8 JSON shipbook
 * would send. The interface document does not show a request size limit
 * ("Limits": "not shown"); 1 MiB is the sandbox's and the limit shipbook assumes for the service.
 */
function requestSizeProblems(kind: KindName, value: unknown): Array<{ segments: PropertyKey[]; message: string }> {
  const out: Array<{ segments: PropertyKey[]; message: string }> = [];
  for (const { segments, body } of requestsOf(kind, value)) {
    const bytes = Buffer.byteLength(JSON.stringify(body));
    if (bytes > MAX_REQUEST_BYTES) {
      out.push({
        segments,
        message: `the request would be ${bytes.toLocaleString('en-US')} bytes, over the ${MAX_REQUEST_BYTES.toLocaleString('en-US')}-byte (1 MiB) request limit shipbook assumes for the service (the sandbox's); split it into smaller requests`,
      });
    }
  }
  return out;
}

/** What was found in one document. */
interface DocumentCheck<T = unknown> {
  /** The kind it was checked as (`undefined` when it could not be told). */
  kind: KindName | undefined;
  /** The wire-ready value, when there is no error. */
  value?: T;
  /** Errors and warnings, in file order within each severity (errors first). */
  issues: InputIssue[];
}

/** The outcome for one file, as `shipbook validate --json` prints it. */
export interface FileReport {
  /** The file name as given (`-` for standard input). */
  file: string;
  /** The kind it was checked as, or `null` when it could not be read or told. */
  kind: KindName | null;
  /** True when there is no error (warnings allowed). */
  valid: boolean;
  /** How many documents the file holds (an NDJSON file's lines, a list's entries, a CSV file's orders); 1 for a single document; absent when it could not be read. */
  documents?: number;
  /** Errors and warnings, each with file, line, column, field path and message. */
  issues: InputIssue[];
}

/** Options of {@link checkDocument} and {@link validateFile}. */
interface CheckOptions {
  /** Check as this kind instead of detecting it. */
  kind?: KindName;
  /**
   * The active profile's saved senders, to replace `collection: "@name"` references
   * (src/input/senders.ts); without it a reference is checked as it stands (not an address).
   */
  senders?: { senders: Readonly<Record<string, SenderRecord>> | undefined; profile: string };
  /** The clock (card expiry, pickup dates in the past). */
  now: () => Date;
  /** How strictly addresses are checked: the run's settings (src/address/settings.ts); warnings only warn when not given. */
  addresses?: AddressSettings;
  /** Pickup days (src/input/pickup.ts): words and `--pickup-date` resolved, dates no carrier collects on refused or moved; without it dates are taken as written. */
  pickup?: PickupRule;
}

function byPosition(a: InputIssue, b: InputIssue): number {
  return (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}

/** The issue for a document whose kind cannot be told from its content. */
function unknownKindIssue(doc: LoadedDocument): InputIssue {
  return {
    file: doc.file,
    ...doc.locate([]),
    path: '',
    message: `cannot tell what kind of document this is; name it with --kind (${KIND_NAMES.join(', ')})`,
    severity: 'error',
  };
}

/**
 * Checks a loaded document as `options.kind` (or the detected kind): errors from the kind's
 * schema, or, when there is none, the value and any warnings. Never throws for bad input.
 */
export function checkDocument(doc: LoadedDocument, options: CheckOptions): DocumentCheck {
  let senderPickups: SenderPickup[] = [];
  if (options.senders) {
    // `collection: "@name"`: the profile's saved sender, before the schema sees it.
    const resolved = resolveSenders(doc, options.senders.senders, options.senders.profile);
    if (resolved.issues.length > 0) return { kind: options.kind ?? detectKind(doc.data), issues: resolved.issues.sort(byPosition) };
    if (resolved.used.length > 0) doc = { ...doc, data: resolved.data };
    senderPickups = resolved.pickups;
  }
  const kind = options.kind ?? detectKind(doc.data);
  if (kind === undefined) return { kind, issues: [unknownKindIssue(doc)] };
  let pickupIssues: InputIssue[] = [];
  if (options.pickup !== undefined) {
    const settled = settledDocument(doc, options.pickup, senderPickups);
    pickupIssues = [...settled.errors, ...settled.warnings];
    doc = settled.doc;
  }
  const checked = checkKind(doc, kind, options);
  if (pickupIssues.length === 0) return checked;
  const issues = [...pickupIssues, ...checked.issues].sort(byPosition);
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length === 0) return { ...checked, issues };
  return { kind, issues: [...errors, ...issues.filter((i) => i.severity !== 'error')] };
}

/** {@link checkDocument} once the kind is known and the pickups are settled. */
function checkKind(doc: LoadedDocument, kind: KindName, options: CheckOptions): DocumentCheck {
  const def = KINDS[kind] as DocumentKind;
  const data = doc.data as Record<string, unknown>;
  const shorthand = def.shorthand?.matches(data) ? def.shorthand : undefined;
  const toFilePath = (segments: ReadonlyArray<PropertyKey>) => (shorthand ? shorthand.toFilePath(segments) : [...segments]);
  const result = documentProblems(doc, def.schema(options.now), shorthand ? shorthand.expand(data) : data, { toFilePath });
  if (!result.success) return { kind, issues: result.issues.sort(byPosition) };
  const tooLarge = requestSizeProblems(kind, result.value).map((p): InputIssue => {
    const filePath = toFilePath(p.segments);
    return { file: doc.file, ...doc.locate(filePath), path: formatPath(filePath), message: p.message, severity: 'error' };
  });
  if (tooLarge.length > 0) return { kind, issues: tooLarge.sort(byPosition) };
  const settings = options.addresses ?? DEFAULT_ADDRESS_SETTINGS;
  const warnings: InputIssue[] = collectWarnings(result.value).map((w) => {
    const filePath = toFilePath(w.segments);
    return { file: doc.file, ...doc.locate(filePath), path: formatPath(filePath), message: w.message, severity: severityOf(w, settings) };
  });
  // Read from the file as written (a shorthand's paths are already the file's).
  for (const w of inputWarnings(doc.data)) {
    warnings.push({ file: doc.file, ...doc.locate(w.segments), path: w.path, message: w.message, severity: 'warning' });
  }
  const issues = warnings.sort(byPosition);
  // With --strict-addresses an address warning is an error: no value, nothing sent.
  if (issues.some((i) => i.severity === 'error'))
    return { kind, issues: [...issues.filter((i) => i.severity === 'error'), ...issues.filter((i) => i.severity !== 'error')] };
  const value = settings.normalizePhones ? withE164Phones(result.value) : result.value;
  return { kind, value, issues };
}

/** A warning's severity: an address warning is an error under `--strict-addresses`. */
function severityOf(w: Warning, settings: AddressSettings): 'error' | 'warning' {
  return w.address && settings.strict ? 'error' : 'warning';
}

/**
 * The warnings of a value already validated by a command's own schema (see {@link checkDocument}
 * for the kinds registry's): a pickup date in the past, a package over the weight limit. `prefix`
 * is where the value sits in the file (`['main_shipment']` for a shipment read out of a combine
 * file), so each warning points at its line.
 */
export function documentWarnings(doc: LoadedDocument, value: unknown, prefix: readonly PropertyKey[], settings: AddressSettings): InputIssue[] {
  let written: unknown = doc.data;
  for (const key of prefix) written = (written as Record<PropertyKey, unknown> | undefined)?.[key];
  const issues = [...collectWarnings(value), ...inputWarnings(written)]
    .map((w): InputIssue => {
      const filePath = [...prefix, ...w.segments];
      return { file: doc.file, ...doc.locate(filePath), path: formatPath(filePath), message: w.message, severity: severityOf(w, settings) };
    })
    .sort(byPosition);
  if (issues.some((i) => i.severity === 'error')) throw new ValidationError(issues.filter((i) => i.severity === 'error'));
  return issues;
}

/** A report for a problem found before the document could be checked (reading, parsing). */
function unreadable(file: string, err: unknown): FileReport {
  if (err instanceof ValidationError) return { file, kind: null, valid: false, issues: err.issues };
  throw err;
}

function report(file: string, check: DocumentCheck): FileReport {
  return { file, kind: check.kind ?? null, valid: !check.issues.some((i) => i.severity === 'error'), documents: 1, issues: check.issues };
}

/** The kinds a file of several documents may hold (what `book` books from one), or any kind told from each document. */
const BATCH_KINDS: ReadonlySet<KindName | undefined> = new Set([undefined, 'order', 'consolidated']);

/**
 * True when `file` is read as `book` reads its inputs (src/input/documents.ts `documentsOf`):
 * an NDJSON file, or any file checked as a kind `book` books (or as the kind told from it), which
 * may be a JSON array or a YAML stream of several documents. Other kinds are one document a file.
 */
function readsAsBatch(file: string, options: CheckOptions): boolean {
  return isNdjsonName(file) || BATCH_KINDS.has(options.kind);
}

/**
 * The report of a file of documents, built document by document as {@link documentsOf} (or
 * {@link documentsOfBytes}) yields them: each document is checked on its own (as the given kind,
 * or the kind told from it), its problems at the file's line numbers. The report's kind is the
 * first document's.
 */
function documentsReport(file: string, documents: Iterable<DocumentInput>, options: CheckOptions): FileReport;
function documentsReport(file: string, documents: AsyncIterable<DocumentInput>, options: CheckOptions): Promise<FileReport>;
function documentsReport(
  file: string,
  documents: Iterable<DocumentInput> | AsyncIterable<DocumentInput>,
  options: CheckOptions,
): FileReport | Promise<FileReport> {
  const issues: InputIssue[] = [];
  let kind: KindName | null | undefined;
  let count = 0;
  const add = (d: DocumentInput) => {
    count++;
    if ('issues' in d) {
      issues.push(...d.issues);
      kind ??= null;
      return;
    }
    const check = checkDocument(d.doc, options);
    kind ??= check.kind ?? null;
    issues.push(...check.issues);
  };
  const done = (): FileReport => {
    if (count === 0) {
      // Only a list can hold no document: a file of blank lines named .ndjson, `[]`, a YAML stream of empty documents.
      const message = isNdjsonName(file) ? 'is empty: no document on any line' : 'is empty: the list holds no document';
      issues.push({ file, line: 1, column: 1, path: '', message, severity: 'error' });
    }
    const errors = issues.filter((i) => i.severity === 'error');
    return {
      file,
      kind: kind ?? null,
      valid: errors.length === 0,
      documents: count,
      issues: [...errors, ...issues.filter((i) => i.severity !== 'error')],
    };
  };
  if (Symbol.asyncIterator in documents) {
    return (async () => {
      for await (const d of documents) add(d);
      return done();
    })();
  }
  for (const d of documents) add(d);
  return done();
}

/**
 * Validates the bytes of one file, offline: parse, detect (or take) the kind, check. A file read
 * as `book` reads it ({@link readsAsBatch}) is checked document by document. Every problem
 * becomes an issue of the report; only a bug in shipbook throws.
 */
export function validateBytes(file: string, bytes: Buffer, options: CheckOptions): FileReport {
  if (readsAsBatch(file, options)) return documentsReport(file, documentsOfBytes(file, bytes), options);
  let doc: LoadedDocument;
  try {
    doc = parseInput(file, bytes);
  } catch (err) {
    return unreadable(file, err);
  }
  return report(file, checkDocument(doc, options));
}

/** Validates one file (or `-` for standard input), offline. Only a bug in shipbook throws. */
async function validateFile(file: string, options: CheckOptions & { stdin?: Readable }): Promise<FileReport> {
  if (readsAsBatch(file, options)) return documentsReport(file, documentsOf({ file }, { stdin: options.stdin }), options);
  let bytes: Buffer;
  try {
    bytes = await readInput(file, options.stdin);
  } catch (err) {
    return unreadable(file, err);
  }
  return validateBytes(file, bytes, options);
}

/** Extensions of the files a directory argument stands for. */
const INPUT_EXTENSIONS = ['.json', '.yaml', '.yml', '.ndjson', '.jsonl'] as const;

// node:fs's callback API, promised, as in read.ts: node:fs/promises costs its own module graph at start-up.
const readDirectory = promisify(readdir);
const statPath = promisify(stat);

/**
 * The files the arguments stand for: a file as given (and `-`), a directory as every `.json`,
 * `.yaml` and `.yml` file under it (sorted; hidden entries, symbolic links to directories and
 * JSON Schemas `*.schema.json`, which describe input files rather than being one, skipped). A directory that holds none or cannot be read comes back with a `problem`; a missing
 * path is reported by {@link validateFile} later.
 */
async function expandInputs(paths: readonly string[]): Promise<Array<{ file: string; problem?: string }>> {
  const out: Array<{ file: string; problem?: string }> = [];
  let schemasSkipped = 0;
  const walk = async (dir: string): Promise<string[]> => {
    const entries = await readDirectory(dir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const files: string[] = [];
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      if (e.name.toLowerCase().endsWith('.schema.json')) {
        schemasSkipped++;
        continue;
      }
      const full = join(dir, e.name);
      if (e.isDirectory()) files.push(...(await walk(full)));
      else if (INPUT_EXTENSIONS.some((ext) => e.name.toLowerCase().endsWith(ext))) files.push(full);
    }
    return files;
  };
  for (const p of paths) {
    let isDir = false;
    if (p !== '-') {
      try {
        isDir = (await statPath(p)).isDirectory();
      } catch {
        isDir = false;
      }
    }
    if (!isDir) {
      out.push({ file: p });
      continue;
    }
    let files: string[];
    schemasSkipped = 0;
    try {
      files = await walk(p);
    } catch (err) {
      out.push({ file: p, problem: `cannot read this directory (${(err as { code?: string }).code ?? String(err)})` });
      continue;
    }
    if (files.length === 0) {
      const skipped =
        schemasSkipped > 0
          ? ` (skipped ${schemasSkipped} *.schema.json file${schemasSkipped === 1 ? '' : 's'}: JSON Schemas describe input files, they are not one)`
          : '';
      out.push({ file: p, problem: `no ${INPUT_EXTENSIONS.join(', ')} file in this directory${skipped}` });
    } else out.push(...files.map((file) => ({ file })));
  }
  return out;
}

/**
 * Validates every file the arguments stand for (see {@link expandInputs}), offline, in order.
 * A directory without input files, or that cannot be read, is reported as an error. Only a bug
 * in shipbook throws.
 */
export async function validateFiles(paths: readonly string[], options: CheckOptions & { stdin?: Readable }): Promise<FileReport[]> {
  const reports: FileReport[] = [];
  const inputs = await expandInputs(paths);
  // Files read whole are read a few at once (src/input/read-ahead.ts); standard input and NDJSON files as before.
  const aheadOf = (file: string) => file !== '-' && !isNdjsonName(file);
  const reads = new ReadAhead(
    inputs.map((i) => i.file),
    (k) => inputs[k]!.problem === undefined && aheadOf(inputs[k]!.file),
  );
  for (const [k, input] of inputs.entries()) {
    if (input.problem !== undefined) {
      reports.push({ file: input.file, kind: null, valid: false, issues: [{ file: input.file, path: '', message: input.problem, severity: 'error' }] });
    } else if (aheadOf(input.file)) {
      const read = await reads.take(k);
      if (!('issues' in read)) reports.push(validateBytes(input.file, read.bytes, options));
      else if (readsAsBatch(input.file, options)) reports.push(documentsReport(input.file, [{ file: input.file, line: 1, issues: read.issues }], options));
      else reports.push({ file: input.file, kind: null, valid: false, issues: read.issues });
    } else {
      reports.push(await validateFile(input.file, options));
    }
  }
  return reports;
}

/** What validating for a sending command needs: the clock (for the pickup-date warnings), and the run's pickup rule when it has one. */
interface LoadContext {
  now(): Date;
  readonly pickup?: PickupRule;
  /** The run's settings: how strictly addresses are checked (warnings only warn when not given). */
  readonly settings?: { readonly addresses: AddressSettings };
}

/** A validated document: the wire-ready value and the warnings the command should show. */
export interface Validated<T> {
  value: T;
  /** Issues of severity `warning` (pickup date in the past, a heavy package …), in document order. */
  warnings: InputIssue[];
}

/**
 * Validates a loaded document as `kind` for a command that sends it: returns the wire-ready value
 * and its warnings (the command prints them, e.g. with src/output/report.ts `printWarnings`).
 * @throws ValidationError (exit 2) with every problem; nothing is sent while any error remains.
 *   When the file looks like another kind, the error suggests the command for it.
 */
export function validateKind<K extends KindName>(doc: LoadedDocument, kind: K, ctx: LoadContext): Validated<KindValue<K>> {
  const check = checkDocument(doc, {
    kind,
    now: () => ctx.now(),
    ...(ctx.settings !== undefined ? { addresses: ctx.settings.addresses } : {}),
    ...(ctx.pickup !== undefined ? { pickup: ctx.pickup } : {}),
  });
  if (check.issues.some((i) => i.severity === 'error')) {
    const detected = detectKind(doc.data);
    const other = detected !== undefined && detected !== kind ? (KINDS[detected] as DocumentKind) : undefined;
    const suggestion = other && `${doc.file === '-' ? 'This' : doc.file} looks like ${other.summary}; it goes with ${other.usedBy}.`;
    throw new ValidationError(check.issues, undefined, suggestion ? { suggestion } : {});
  }
  return { value: check.value as KindValue<K>, warnings: check.issues.filter((i) => i.severity === 'warning') };
}

/**
 * Loads `file` (or `-`, read from `stdin`, which only `-` needs) and validates it as `kind` (see
 * {@link validateKind}).
 * @throws ValidationError (exit 2) when the file cannot be read or has any error.
 */
export async function loadKind<K extends KindName>(file: string, kind: K, stdin: Readable | undefined, ctx: LoadContext): Promise<Validated<KindValue<K>>> {
  return validateKind(await loadDocument(file, stdin), kind, ctx);
}
