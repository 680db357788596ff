/**
 * The first pass of a batch: every document of the inputs read, given its identity and checked,
 * this shard's only, before anything is sent. The runner (src/booking/batch/runner.ts) books what it found
 * valid, from the checked documents themselves for a batch small enough to keep them, else by
 * reading the inputs again as a stream.
 */
import type { BookingDocument } from '../book.js';
import { ShipbookError, type InputIssue } from '../../errors.js';
import { validateKind } from '../../input/validate.js';
import { isObject } from '../../schema/object.js';
import { isConsolidatedDocument } from '../../schema/consolidated.js';
import { IdentityCounter, inShard, type Shard } from '../../ledger/index.js';
import { batchDocuments, type BatchInputOptions } from './inputs.js';
import type { LoadedDocument } from '../../input/loaded.js';
import type { ServiceChoice } from '../rules/record.js';

/** Every input checked before the first request. */
export interface BatchCheck {
  /** Documents in this shard that are valid. */
  valid: number;
  /** Warnings of the valid documents, in input order (at most {@link MAX_CHECK_WARNINGS}; `warningCount` counts them all). */
  warnings?: InputIssue[];
  /** How many warnings the valid documents have. */
  warningCount?: number;
  /** Documents that are not (every problem, with file:line:col and field path). */
  invalid: Array<{ file: string; line: number; issues: InputIssue[] }>;
  /** Documents of the inputs that belong to the other shards (`--shard i/n`), not checked here. */
  outsideShard: number;
  /**
   * The checked documents themselves, for {@link runBatch} to book without reading and validating
   * them again; kept only for batches of up to {@link KEEP_CHECKED} documents (larger ones are
   * read twice, as a stream, so memory does not grow with the batch).
   */
  items?: readonly BatchItem[];
  /**
   * Every document of this shard, valid or not, in input order: its identity and place only (a
   * few dozen bytes each, kept for any size of batch), so that a run that ends at once still names
   * every input in its reports.
   */
  entries: Array<{ id: string; file: string; line: number; invalid?: true }>;
}

/** The most warnings a check keeps to show (the reports carry every one, per order). */
const MAX_CHECK_WARNINGS = 1_000;

/** The most documents whose checked form is kept between the check and the booking pass. */
const KEEP_CHECKED = 5_000;

/** A document ready to book, in input order. */
export interface BatchItem {
  id: string;
  file: string;
  line: number;
  doc?: BookingDocument;
  issues?: InputIssue[];
  warnings?: InputIssue[];
}

/**
 * The documents of the inputs with their identities, this shard's only, validated. Streams: nothing
 * is held. `checked`: the entries of a check of the same inputs (in the same order), whose strings
 * the items then share: a batch keeps an identity and a file name per input, once for its check
 * and once for its ledger, and a directory of files has a name per order.
 */
export async function* batchItems(
  inputs: readonly string[],
  shard: Shard | undefined,
  now: () => Date,
  reading?: BatchInputOptions,
  counts?: { outsideShard: number },
  checked?: BatchCheck['entries'],
): AsyncGenerator<BatchItem> {
  const ids = new IdentityCounter();
  let unreadable = 0;
  let k = 0;
  /** The string of the check's entry in this place when it is the same text, else `text`. */
  const shared = (text: string, key: 'id' | 'file'): string => {
    const kept = checked?.[k]?.[key];
    return kept === text ? kept : text;
  };
  for await (const input of batchDocuments(inputs, reading)) {
    if ('issues' in input) {
      // A document that cannot be read has no content to hash: it is named by its place.
      yield { id: `unreadable-${++unreadable}`, file: shared(input.file, 'file'), line: input.line, issues: input.issues };
      k++;
      continue;
    }
    const id = ids.next(input.doc.data);
    if (!inShard(id, shard)) {
      if (counts) counts.outsideShard++;
      continue;
    }
    const place = { id: shared(id, 'id'), file: shared(input.file, 'file'), line: input.line };
    k++;
    try {
      let warnings: InputIssue[];
      let doc: BookingDocument;
      if (isConsolidatedDocument(input.doc.data)) {
        const checked = validateKind(input.doc, 'consolidated', {
          now,
          ...(reading?.pickup !== undefined ? { pickup: reading.pickup } : {}),
          ...(reading?.addresses !== undefined ? { settings: { addresses: reading.addresses } } : {}),
        });
        doc = { kind: 'consolidated', booking: checked.value, file: place.file };
        warnings = checked.warnings;
      } else {
        // Tags given with an order are for the rules alone: without rules they are left out.
        const prepared: LoadedDocument & { choice?: ServiceChoice; mail?: { key: string } } = reading?.prepare
          ? await reading.prepare(input.doc, id)
          : withoutTags(input.doc);
        // An order the rules send by consolidated mail comes back in the consolidated form.
        const kind = prepared.mail !== undefined ? 'consolidated' : 'order';
        const checked = validateKind(prepared, kind, {
          now,
          ...(reading?.pickup !== undefined ? { pickup: reading.pickup } : {}),
          ...(reading?.addresses !== undefined ? { settings: { addresses: reading.addresses } } : {}),
        });
        const choice = prepared.choice !== undefined ? { choice: prepared.choice } : {};
        doc =
          'order' in checked.value
            ? { kind: 'regular', order: checked.value, file: place.file, ...choice }
            : { kind: 'consolidated', booking: checked.value, file: place.file, ...choice, ...(prepared.mail ? { mail: prepared.mail } : {}) };
        warnings = checked.warnings;
      }
      yield { ...place, doc, ...(warnings.length > 0 ? { warnings } : {}) };
    } catch (err) {
      if (err instanceof ShipbookError && 'issues' in err) yield { ...place, issues: (err as { issues: InputIssue[] }).issues };
      else throw err;
    }
  }
}

/** Validates every input of this shard (the first pass: nothing is sent). */
export async function checkBatch(
  inputs: readonly string[],
  options: { shard?: Shard; now: () => Date; keep?: boolean; input?: BatchInputOptions },
): Promise<BatchCheck> {
  const check: BatchCheck = { valid: 0, invalid: [], outsideShard: 0, entries: [] };
  let kept: BatchItem[] | undefined = options.keep ? [] : undefined;
  for await (const item of batchItems(inputs, options.shard, options.now, options.input, check)) {
    check.entries.push({ id: item.id, file: item.file, line: item.line, ...(item.issues ? { invalid: true as const } : {}) });
    if (item.issues) check.invalid.push({ file: item.file, line: item.line, issues: item.issues.filter((i) => i.severity === 'error') });
    else {
      check.valid++;
      if (item.warnings) {
        check.warningCount = (check.warningCount ?? 0) + item.warnings.length;
        check.warnings ??= [];
        for (const w of item.warnings) if (check.warnings.length < MAX_CHECK_WARNINGS) check.warnings.push(w);
      }
    }
    if (kept !== undefined) {
      kept.push(item);
      if (kept.length > KEEP_CHECKED) kept = undefined;
    }
  }
  return kept === undefined ? check : { ...check, items: kept };
}

/** The items of a list, as the async stream {@link runBatch} reads. */
export async function* fromList(items: readonly BatchItem[]): AsyncGenerator<BatchItem> {
  yield* items;
}

/** The document without the `tags` given beside `order:` (they are for the rules, never sent). */
function withoutTags(doc: LoadedDocument): LoadedDocument {
  if (!isObject(doc.data) || !('tags' in doc.data)) return doc;
  const { tags: _tags, ...data } = doc.data;
  return { ...doc, data };
}
