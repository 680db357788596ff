/**
 * One order document built from its group of rows: shipments by `shipment_ref` (first appearance
 * first), each row's package and customs item, shipment fields from the first row that gives them
 * (a later row may leave them empty, or repeat them). Every field keeps its row and column header,
 * so a problem of the schema's is reported at the cell that holds it.
 */
import type { AddressSettings } from '../address/settings.js';
import type { PickupRule } from './pickup.js';
import type { InputIssue } from '../errors.js';
import { formatPath } from '../schema/issues.js';
import { issueAt, type Binding, type Bound } from './csv-bind.js';
import type { CsvRow } from './csv-bytes.js';
import type { CsvReadOptions, RowGroup, SavedSenders } from './csv-groups.js';
import { CSV_COLUMNS, CSV_COLUMN_BY_NAME, samePath, type CsvColumn, type CsvLevel } from './csv-layout.js';
import type { LoadedDocument, Position } from './loaded.js';
import { resolveSenders } from './senders.js';
import { checkDocument } from './validate.js';

/** One order of the file as a document, or the problems that keep it from being one. */
export type CsvOrder = { file: string; line: number; doc: LoadedDocument } | { file: string; line: number; issues: InputIssue[] };

/** A cell as the value of its field, or the problem with it. */
function cellValue(column: CsvColumn, raw: string, decimalComma: boolean): { value: unknown } | { problem: string } {
  let s = raw.trim();
  // A spreadsheet's text marker: '=… '+… (written to keep a cell from being read as a formula), '0123.
  if (/^'[=+\-@\d]/.test(s)) s = s.slice(1);
  switch (column.type) {
    case 'number':
    case 'integer': {
      if (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s)) return { value: Number(s) };
      if (/^[+-]?\d*,\d+$/.test(s)) {
        if (decimalComma) return { value: Number(s.replace(',', '.')) };
        return { problem: `"${s}" has a decimal comma: write ${s.replace(',', '.')} (a file delimited by ";" may use decimal commas with --decimal-comma)` };
      }
      if (/^[+-]?\d{1,3}([.,]\d{3})+([.,]\d+)?$/.test(s)) return { problem: `"${s}" has a thousands separator: write the number without it` };
      return { value: s };
    }
    case 'boolean': {
      const l = s.toLowerCase();
      if (['true', 'yes', 'y', '1'].includes(l)) return { value: true };
      if (['false', 'no', 'n', '0'].includes(l)) return { value: false };
      return { value: s };
    }
    case 'list':
      return { value: s.split(/\s*[|,;]\s*/).filter((x) => x !== '') };
    case 'sender':
      return { value: s.startsWith('@') ? s : `@${s}` };
    default:
      return { value: s };
  }
}

/** Sets the value at `path` inside `target`, making the objects and lists on the way. */
function setAt(target: Record<PropertyKey, unknown>, path: readonly PropertyKey[], value: unknown): void {
  let o: Record<PropertyKey, unknown> = target;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    const nextIsIndex = typeof path[i + 1] === 'number';
    if (o[k] === undefined || typeof o[k] !== 'object' || o[k] === null) o[k] = nextIsIndex ? [] : {};
    o = o[k] as Record<PropertyKey, unknown>;
  }
  o[path[path.length - 1]!] = value;
}

/** Layout columns of a level, in layout order. */
const LEVEL_COLUMNS = (level: CsvLevel) => CSV_COLUMNS.filter((c) => c.level === level);

/** The layout column that holds `rel` (a path relative to its level), or the one nearest to it. */
function columnFor(level: CsvLevel, rel: readonly PropertyKey[]): CsvColumn {
  const candidates = LEVEL_COLUMNS(level);
  let best = candidates[0]!;
  let bestScore = -1;
  for (const c of candidates) {
    if (samePath(c.path, rel)) return c;
    let n = 0;
    while (n < c.path.length && n < rel.length && c.path[n] === rel[n]) n++;
    if (n > bestScore) {
      best = c;
      bestScore = n;
    }
  }
  return best;
}

/**
 * An order being built from its rows: the shipments so far, the rows each shipment, package and
 * customs item came from (to locate a field later), the first value of each shipment field, and
 * the problems of the cells.
 */
interface OrderDraft {
  file: string;
  binding: Binding;
  decimalComma: boolean;
  shipments: Array<Record<PropertyKey, unknown>>;
  /** A shipment's place by its `shipment_ref`. */
  shipmentOf: Map<string, number>;
  /** Each shipment's first row. */
  shipmentRows: number[];
  /** Each shipment's package rows, in package order. */
  packageRows: number[][];
  /** Each shipment's customs item rows, in item order. */
  itemRows: number[][];
  /** The first value of a shipment field (`"<shipment>:<column>"`) and its row. */
  firstValue: Map<string, { raw: string; row: number }>;
  /** The `sender` cell of each shipment (`@name`), put into its collection once all its rows are read. */
  senderOf: unknown[];
  issues: InputIssue[];
}

/** Where shipment `s` sits in the order document. */
const shipmentPath = (s: number): PropertyKey[] => ['order', 'shipments', s];

/** The shipment a row belongs to (by its `shipment_ref`), added to the draft at its first row. */
function shipmentOfRow(draft: OrderDraft, r: CsvRow): number {
  const sref = draft.binding.shipmentRef?.read(r.cells).trim() ?? '';
  let s = draft.shipmentOf.get(sref);
  if (s === undefined) {
    s = draft.shipments.length;
    draft.shipmentOf.set(sref, s);
    draft.shipments.push({});
    draft.shipmentRows.push(r.row);
    draft.packageRows.push([]);
    draft.itemRows.push([]);
  }
  return s;
}

/**
 * A shipment field's cell: taken from the first row of the shipment that fills it; a later row
 * must leave it empty or repeat it (for the file's own columns).
 */
function readShipmentCell(draft: OrderDraft, s: number, r: CsvRow, b: Bound, raw: string, read: { value: unknown } | { problem: string }): void {
  const { column } = b;
  const key = `${s}:${column.name}`;
  const earlier = draft.firstValue.get(key);
  const path = [...shipmentPath(s), ...(column.type === 'sender' ? ['collection'] : column.path)];
  if (earlier) {
    if (b.repeated && earlier.raw !== raw.trim()) {
      draft.issues.push(
        issueAt(
          draft.file,
          r.row,
          b,
          formatPath(path),
          `differs from row ${earlier.row} of the same shipment ("${earlier.raw}"): leave it empty on the shipment's later rows, or repeat the same value`,
        ),
      );
    }
    return;
  }
  draft.firstValue.set(key, { raw: raw.trim(), row: r.row });
  if ('problem' in read) {
    draft.issues.push(issueAt(draft.file, r.row, b, formatPath(path), read.problem));
    return;
  }
  if (column.type === 'sender') draft.senderOf[s] = read.value;
  else setAt(draft.shipments[s]!, column.path, read.value);
}

/**
 * Adds one row to the draft: its shipment's fields, and a package (a customs item) when any of
 * its package (item) cells is filled, a bad one too, so the next package keeps its index in messages.
 */
function addRow(draft: OrderDraft, r: CsvRow): void {
  const { file, binding } = draft;
  const extra = r.cells.slice(binding.header.length).filter((c) => c.trim() !== '');
  if (extra.length > 0)
    draft.issues.push(
      issueAt(
        file,
        r.row,
        undefined,
        '',
        `this row has ${r.cells.length} cells, the header ${binding.header.length}: a cell with a comma or line break must be quoted`,
      ),
    );
  const s = shipmentOfRow(draft, r);
  const shipment = draft.shipments[s]!;
  const pkg: Record<PropertyKey, unknown> = {};
  const item: Record<PropertyKey, unknown> = {};
  let packageCells = 0;
  let itemCells = 0;
  for (const b of binding.bound) {
    const { column } = b;
    if (column.level === 'order') continue;
    const raw = b.read(r.cells);
    if (raw.trim() === '') continue;
    const mapped = b.problem?.(r.cells);
    const read = mapped !== undefined ? { problem: mapped } : cellValue(column, raw, draft.decimalComma);
    if (column.level === 'shipment') {
      readShipmentCell(draft, s, r, b, raw, read);
      continue;
    }
    const isPackage = column.level === 'package';
    if (isPackage) packageCells++;
    else itemCells++;
    if ('problem' in read) {
      const index = isPackage ? draft.packageRows[s]!.length : draft.itemRows[s]!.length;
      const path = isPackage
        ? [...shipmentPath(s), 'packages', index, ...column.path]
        : [...shipmentPath(s), 'customs_information', 'items', index, ...column.path];
      draft.issues.push(issueAt(file, r.row, b, formatPath(path), read.problem));
      continue;
    }
    setAt(isPackage ? pkg : item, column.path, read.value);
  }
  if (packageCells > 0) {
    const packages = (shipment.packages ??= []) as unknown[];
    draft.packageRows[s]!.push(r.row);
    packages.push(pkg);
  }
  if (itemCells > 0) {
    setAt(shipment, ['customs_information', 'items', draft.itemRows[s]!.length], item);
    draft.itemRows[s]!.push(r.row);
  }
}

/**
 * Finishes each shipment once all its rows are read: the mapping's default package for a
 * shipment without one, and the `sender` cell as its collection (`@name`, or the saved sender
 * under the collection fields the row gave).
 */
function finishShipments(draft: OrderDraft, mapping: CsvReadOptions['mapping']): void {
  draft.shipments.forEach((shipment, s) => {
    if (!shipment.packages && mapping?.package) shipment.packages = [{ ...mapping.package }];
    shipment.packages ??= [];
    const sender = draft.senderOf[s];
    if (sender === undefined) return;
    const collection = shipment.collection as Record<string, unknown> | undefined;
    shipment.collection = collection === undefined ? sender : { sender, ...collection };
  });
}

/**
 * A field's row and column, found when a message needs one: a shipment's field at the row that
 * gave it (else the shipment's first row), a package's or item's at its own row, anything else at
 * the order's first row and its `order_ref` column.
 */
function locatorOf(draft: OrderDraft, line: number): (path: ReadonlyArray<PropertyKey>) => Position {
  const { binding, shipmentRows, packageRows, itemRows, firstValue } = draft;
  const pos = (row: number, column: CsvColumn): Position => {
    const bound = binding.byName.get(column.name);
    return { line: row, column: bound?.index ?? 0, column_name: bound?.header ?? column.name };
  };
  return (path) => {
    if (path[0] === 'order' && path[1] === 'shipments' && typeof path[2] === 'number') {
      const s = path[2];
      const rest = path.slice(3);
      const srow = shipmentRows[s] ?? line;
      if (rest[0] === 'packages') {
        const p = rest[1];
        return pos(typeof p === 'number' ? (packageRows[s]?.[p] ?? srow) : srow, columnFor('package', typeof p === 'number' ? rest.slice(2) : []));
      }
      if (rest[0] === 'customs_information' && rest[1] === 'items') {
        const i = rest[2];
        return pos(typeof i === 'number' ? (itemRows[s]?.[i] ?? srow) : srow, columnFor('item', typeof i === 'number' ? rest.slice(3) : []));
      }
      const sender = firstValue.get(`${s}:sender`);
      if (sender && rest[0] === 'collection' && (rest.length === 1 || rest[1] === 'sender' || !firstValue.has(`${s}:collection_${String(rest[1])}`))) {
        return pos(sender.row, CSV_COLUMN_BY_NAME.get('sender')!);
      }
      const column = columnFor('shipment', rest);
      return pos(firstValue.get(`${s}:${column.name}`)?.row ?? srow, column);
    }
    return pos(line, CSV_COLUMN_BY_NAME.get('order_ref')!);
  };
}

/**
 * The cells' problems with the schema's added, except at the fields already named (an unknown
 * saved sender stands for the whole collection), sorted by row and column: one run reports all.
 */
function withSchemaProblems(
  doc: LoadedDocument,
  issues: InputIssue[],
  now: () => Date,
  pickup: PickupRule | undefined,
  addresses: AddressSettings | undefined,
): InputIssue[] {
  const named = issues.map((i) => i.path.replace(/\.sender$/, ''));
  const under = (path: string) => named.some((p) => path === p || path.startsWith(`${p}.`) || path.startsWith(`${p}[`));
  // The tags are for the rules, beside the order: not a field of the order the schema checks.
  const { tags: _tags, ...order } = doc.data as Record<string, unknown>;
  const schema = checkDocument(
    { ...doc, data: order },
    {
      kind: 'order',
      now,
      ...(pickup !== undefined ? { pickup } : {}),
      ...(addresses !== undefined ? { addresses } : {}),
    },
  ).issues.filter((i) => i.severity === 'error' && !under(i.path));
  return [...issues, ...schema].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/**
 * The tags of an order: the `tags` cells of all its rows, split at `;`, trimmed, each once, in the
 * order first given. They go beside `order:` (for the rules' `tags` condition) and are not sent.
 */
function orderTags(group: RowGroup, binding: Binding): string[] {
  const column = binding.bound.find((b) => b.column.name === 'tags');
  if (column === undefined) return [];
  const tags = group.rows.flatMap((r) =>
    column
      .read(r.cells)
      .split(';')
      .map((t) => t.trim())
      .filter((t) => t !== ''),
  );
  return [...new Set(tags)];
}

/**
 * Builds the order document of a group of rows (see the module's comment). Problems of the cells
 * (a decimal comma, a value that differs between rows of one shipment, an unknown saved sender)
 * come back with the schema's, so that one run reports all of them.
 */
export function buildOrder(file: string, group: RowGroup, binding: Binding, options: Omit<CsvReadOptions, 'senders'> & { senders?: SavedSenders }): CsvOrder {
  const line = group.rows[0]!.row;
  if (group.problem) return { file, line, issues: [group.problem] };
  const draft: OrderDraft = {
    file,
    binding,
    decimalComma: options.decimalComma === true,
    shipments: [],
    shipmentOf: new Map(),
    shipmentRows: [],
    packageRows: [],
    itemRows: [],
    firstValue: new Map(),
    senderOf: [],
    issues: [],
  };
  for (const r of group.rows) addRow(draft, r);
  finishShipments(draft, options.mapping);
  const locate = locatorOf(draft, line);
  const tags = orderTags(group, binding);
  const data = { ...(tags.length > 0 ? { tags } : {}), order: { shipments: draft.shipments } };
  let doc: LoadedDocument = { file, data, wrapper: [], locate: (path) => locate(path) };
  const { issues } = draft;
  if (options.senders && draft.senderOf.length > 0) {
    const resolved = resolveSenders(doc, options.senders.senders, options.senders.profile);
    issues.push(...resolved.issues);
    if (resolved.used.length > 0) doc = { ...doc, data: resolved.data };
  }
  if (issues.length > 0) return { file, line, issues: withSchemaProblems(doc, issues, options.now ?? (() => new Date()), options.pickup, options.addresses) };
  return { file, line, doc };
}
