/**
 * The spreadsheet comes back: `--report results.csv` writes the batch's CSV inputs row for row
 * with the results appended (`status`, `order_id`, `shipment_id`, `tracking_number`, `total_aud`,
 * `error`, `warnings`: the address checks' and other warnings of the row), so the warehouse opens one file and sees every tracking number beside its row. Each
 * row gets its own shipment's id and tracking number; the order's total is on the order's first
 * row only (so the column sums to the batch's total). Orders read from other inputs (YAML, JSON,
 * NDJSON) get a row each, named by `file` and `row`.
 *
 * Written with csv-stringify: cells starting with `=`, `+`, `-`, `@`, tab or carriage return are
 * prefixed with `'` so that a spreadsheet shows them as text and never runs them as a formula
 * (input cells included); UTF-8 with a byte-order mark, so that spreadsheets read accents right;
 * the delimiter of the (single) CSV input. The file is written to a temporary name and renamed,
 * once the batch is over, so it is never seen half written. A process ended at once (a second
 * Ctrl-C) still writes it as it exits, synchronously, with every result so far
 * ({@link CsvReportWriter.finishNow}), from the layout of the rows read while the batch ran.
 */
import { createWriteStream, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { stringify } from 'csv-stringify/sync';
import { csvRowsWithOrders } from '../../input/csv.js';
import { csvDelimiterOf, csvRowsSync, type CsvDelimiter } from '../../input/csv-bytes.js';
import type { CsvReadOptions } from '../../input/csv-groups.js';
import { formatIssues } from '../../input/format.js';
import { batchFiles, isCsvInput, type BatchInputOptions } from './inputs.js';
import type { BatchResult } from './results.js';

/** The result columns appended to every row. */
const RESULT_COLUMNS = ['status', 'order_id', 'shipment_id', 'tracking_number', 'total_aud', 'error', 'warnings'] as const;
/** The columns added when service-selection rules chose the services: which, and why. */
const RULES_COLUMNS = ['service', 'service_reason'] as const;

/** True when a report file name asks for CSV (`.csv`, `.tsv`). */
export function isCsvReport(path: string): boolean {
  return /\.(csv|tsv)$/i.test(path);
}

/** What the report writes of a result: the result's fields it reads, and its error's message. */
interface Kept {
  file: string;
  line: number;
  status: BatchResult['status'];
  order_id?: string;
  shipment_ids?: string[];
  tracking_numbers?: string[];
  total?: string;
  error?: string;
  issues?: BatchResult['issues'];
  warnings?: BatchResult['warnings'];
  service_choice?: BatchResult['service_choice'];
}

/** Between the fields of a result kept as one string (see {@link CsvReportWriter.add}), between a list's elements, and an absent field. */
const FIELD = '\u0000';
const ITEM = '\u0001';
const NONE = '\u0002';
const plain = (t: string | undefined) => t === undefined || (!t.includes(FIELD) && !t.includes(ITEM) && !t.includes(NONE));

/** What the report is written from: the CSV sources, their joined header, the delimiter, the reading options. */
interface ReportPlan {
  sources: Array<{ file: string; bytes?: Buffer }>;
  headers: string[];
  delimiter: CsvDelimiter;
  /** One CSV input and nothing else: its own columns, no `file` and `row`. */
  single: boolean;
  csvOptions: CsvReadOptions;
}

/** Where each row of a source belongs, by its spreadsheet row number: its order's first row and its shipment's place. */
interface RowLayout {
  /** The source's own delimiter (the report's may differ when several inputs are joined). */
  delimiter: CsvDelimiter;
  header: string[];
  orderRowOf: number[];
  shipmentOf: number[];
}

/** Keeps the batch's results and writes them beside the input rows when the batch is over. */
export class CsvReportWriter {
  /**
   * The results, by their place (see {@link place}): as one string of the fields the report writes
   * for most (no issues, warnings nor service choice), else as those fields, never the result
   * itself; a batch of 100,000 orders keeps 100,000 short strings.
   */
  private readonly results = new Map<number, string | Kept>();
  /** The files of the results, each kept once, by their number in {@link place}. */
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();
  /** The plan, once made (see {@link plan}). */
  private planned: Promise<ReportPlan> | undefined;
  /** The rows' layout of each source, by file, once {@link prepare} has read them all. */
  private layouts: Map<string, RowLayout> | undefined;
  /** The plan, once {@link prepare} has read every source (what {@link finishNow} writes with). */
  private prepared: ReportPlan | undefined;
  /** Set when the file was written (by {@link finish} or {@link finishNow}). */
  private finished = false;

  /**
   * @param path the report file (`.tsv`: tab-delimited)
   * @param inputs the batch's inputs as given (files, directories, `-`)
   * @param reading how the inputs are read (the same settings as the batch's)
   * @throws UsageError (exit 2) when the report file is one of the inputs
   */
  constructor(
    private readonly path: string,
    private readonly inputs: readonly string[],
    private readonly reading: BatchInputOptions = {},
  ) {
    // The report would replace the spreadsheet it is written from.
    if (inputs.some((i) => i !== '-' && resolve(i) === resolve(path))) {
      throw new UsageError(`--report ${path} is an input of the batch: the report would replace it`, {
        suggestion: 'Write the report to another file, e.g. --report results.csv.',
      });
    }
  }

  /** Adds one order's result. */
  add(result: BatchResult): void {
    if (result.service_choice !== undefined) this.withChoices = true;
    this.results.set(this.place(result.file, result.line, true)!, this.keep(result));
  }

  /** A result's place (its file's number and its line) as one number; undefined for a file with no result. */
  private place(file: string, line: number, add = false): number | undefined {
    let n = this.fileIds.get(file);
    if (n === undefined) {
      if (!add) return undefined;
      n = this.files.length;
      this.files.push(file);
      this.fileIds.set(file, n);
    }
    return line * 1_048_576 + n;
  }

  /** What the report writes of `r`, kept small (see {@link results}). */
  private keep(r: BatchResult): string | Kept {
    const fields = [r.status, r.order_id, r.shipment_ids?.join(ITEM), r.tracking_numbers?.join(ITEM), r.total, r.error?.message];
    if (
      r.issues === undefined &&
      r.warnings === undefined &&
      r.service_choice === undefined &&
      fields.every(plain) &&
      [...(r.shipment_ids ?? []), ...(r.tracking_numbers ?? [])].every((t) => t !== '')
    )
      return fields.map((f) => f ?? NONE).join(FIELD);
    return {
      file: r.file,
      line: r.line,
      status: r.status,
      ...(r.order_id !== undefined ? { order_id: r.order_id } : {}),
      ...(r.shipment_ids !== undefined ? { shipment_ids: r.shipment_ids } : {}),
      ...(r.tracking_numbers !== undefined ? { tracking_numbers: r.tracking_numbers } : {}),
      ...(r.total !== undefined ? { total: r.total } : {}),
      ...(r.error !== undefined ? { error: r.error.message } : {}),
      ...(r.issues !== undefined ? { issues: r.issues } : {}),
      ...(r.warnings !== undefined ? { warnings: r.warnings } : {}),
      ...(r.service_choice !== undefined ? { service_choice: r.service_choice } : {}),
    };
  }

  /** The result kept at `place`, as its fields. */
  private kept(place: number, v: string | Kept): Kept {
    if (typeof v !== 'string') return v;
    const [status, order, shipments, tracking, total, error] = v.split(FIELD).map((f) => (f === NONE ? undefined : f));
    const list = (t: string | undefined) => (t === undefined ? undefined : t === '' ? [] : t.split(ITEM));
    return {
      file: this.files[place % 1_048_576]!,
      line: Math.floor(place / 1_048_576),
      status: status as Kept['status'],
      ...(order !== undefined ? { order_id: order } : {}),
      ...(shipments !== undefined ? { shipment_ids: list(shipments)! } : {}),
      ...(tracking !== undefined ? { tracking_numbers: list(tracking)! } : {}),
      ...(total !== undefined ? { total } : {}),
      ...(error !== undefined ? { error } : {}),
    };
  }

  /** The sources, the joined header and the delimiter, read once. */
  private plan(): Promise<ReportPlan> {
    this.planned ??= (async () => {
      const files = (await batchFiles(this.inputs.filter((p) => p !== '-'))).filter((f) => f.problem === undefined).map((f) => f.file);
      const csvFiles = files.filter((f) => isCsvInput(f, this.reading));
      const sources = [
        ...csvFiles.map((file) => ({ file })),
        ...(this.inputs.includes('-') && this.reading.stdin ? [{ file: '-', bytes: await this.reading.stdin() }] : []),
      ];
      const csvOptions: CsvReadOptions = {
        ...this.reading.csv,
        ...(this.reading.format === 'tsv' && !this.reading.csv?.delimiter ? { delimiter: '\t' as const } : {}),
      };
      const single = sources.length === 1 && files.length === csvFiles.length;
      // The headers of every CSV input, joined (a single input keeps its own, unchanged).
      const headers: string[] = [];
      let delimiter: CsvDelimiter = /\.tsv$/i.test(this.path) ? '\t' : ',';
      for (const source of sources) {
        for await (const e of csvRowsWithOrders(source, csvOptions)) {
          if ('header' in e) for (const h of e.header) if (!headers.includes(h)) headers.push(h);
          break;
        }
      }
      if (single && !/\.tsv$/i.test(this.path)) delimiter = await csvDelimiterOf(sources[0]!, csvOptions);
      return { sources, headers, delimiter, single, csvOptions };
    })();
    return this.planned;
  }

  /**
   * Reads, while the batch runs, where each input row belongs (its order and shipment: two numbers
   * a row, no cells kept), so that {@link finishNow} can write the report at once if the process
   * is ended. Never throws: a source that cannot be read leaves the report to {@link finish}.
   */
  async prepare(): Promise<void> {
    try {
      const plan = await this.plan();
      const layouts = new Map<string, RowLayout>();
      for (const source of plan.sources) {
        const layout: RowLayout = { delimiter: await csvDelimiterOf(source, plan.csvOptions), header: [], orderRowOf: [], shipmentOf: [] };
        for await (const e of csvRowsWithOrders(source, plan.csvOptions)) {
          if ('header' in e) layout.header = e.header;
          else {
            layout.orderRowOf[e.row] = e.orderRow;
            layout.shipmentOf[e.row] = e.shipment;
          }
        }
        layouts.set(source.file, layout);
      }
      this.layouts = layouts;
      this.prepared = plan;
    } catch {
      this.layouts = undefined;
    }
  }

  /** The cells of one input row with its order's results appended. */
  private inputRow(
    plan: ReportPlan,
    file: string,
    header: readonly string[],
    e: { row: number; cells: readonly string[]; orderRow: number; shipment: number },
    done: Set<number>,
    dryRun: boolean,
  ): string[] {
    const place = this.place(file, e.orderRow);
    const stored = place === undefined ? undefined : this.results.get(place);
    const r = stored === undefined ? undefined : this.kept(place!, stored);
    if (r) done.add(place!);
    const cells = plan.headers.map((h) => {
      const i = header.indexOf(h);
      return i < 0 ? '' : (e.cells[i] ?? '');
    });
    const first = e.row === e.orderRow;
    const rowIssues = (r?.issues ?? []).filter((i) => i.line === e.row || (first && (i.line === undefined || i.line < e.orderRow)));
    const error = r?.error ?? (rowIssues.length > 0 ? formatIssues(rowIssues) : r?.status === 'invalid' && first ? 'invalid' : '');
    const rowWarnings = (r?.warnings ?? []).filter((i) => i.line === e.row || (first && (i.line === undefined || i.line < e.orderRow)));
    return [
      ...(plan.single ? [] : [file, String(e.row)]),
      ...cells,
      r?.status ?? (dryRun ? 'valid' : ''),
      r?.order_id ?? '',
      // The row's own shipment; when the result does not say which is whose, every one of them.
      r?.shipment_ids?.[e.shipment] ?? (r?.shipment_ids ?? []).join(' '),
      r?.tracking_numbers?.[e.shipment] ?? '',
      first ? this.decimal(plan, r?.total) : '',
      error,
      rowWarnings.length > 0 ? formatIssues(rowWarnings) : '',
      ...this.choiceCells(r, e.shipment),
    ];
  }

  /** The rows of orders from the other inputs (and of problems that belong to no CSV row, such as a bad header). */
  private otherRows(plan: ReportPlan, done: Set<number>): string[][] {
    const rows: string[][] = [];
    for (const [k, v] of this.results) {
      if (done.has(k)) continue;
      const r = this.kept(k, v);
      rows.push([
        ...(plan.single ? [] : [r.file, String(r.line)]),
        ...plan.headers.map(() => ''),
        r.status,
        r.order_id ?? '',
        (r.shipment_ids ?? []).join(' '),
        (r.tracking_numbers ?? []).join(' '),
        this.decimal(plan, r.total),
        r.error ?? (r.issues ? formatIssues(r.issues) : ''),
        r.warnings ? formatIssues(r.warnings) : '',
        ...this.choiceCells(r, undefined),
      ]);
    }
    return rows;
  }

  private decimal(plan: ReportPlan, total: string | undefined): string {
    return total !== undefined && plan.csvOptions.decimalComma ? total.replace('.', ',') : (total ?? '');
  }

  private line(plan: ReportPlan, cells: readonly string[]): string {
    return stringify([cells], { delimiter: plan.delimiter, escape_formulas: true, quoted_match: /[\r\n]/ });
  }

  private headerRow(plan: ReportPlan): string[] {
    return [...(plan.single ? [] : ['file', 'row']), ...plan.headers, ...RESULT_COLUMNS, ...(this.ruled() ? RULES_COLUMNS : [])];
  }

  /** True when service-selection rules chose services in this run: the report says which and why. */
  private ruled(): boolean {
    return this.withChoices;
  }

  /** Set once a result carries a service choice. */
  private withChoices = false;

  /** The `service` and `service_reason` cells of a shipment (all of the order's when `shipment` is undefined). */
  private choiceCells(r: Kept | undefined, shipment: number | undefined): string[] {
    if (!this.ruled()) return [];
    const all = r?.service_choice ?? [];
    const picked = shipment === undefined ? all : all[shipment] !== undefined ? [all[shipment]!] : all;
    return [picked.map((c) => c.service ?? 'none').join(' '), picked.map((c) => c.reason).join(' | ')];
  }

  /**
   * Writes the report: every CSV input row with its order's results, then a row per order of the
   * other inputs. After a dry run (`dryRun`), whose results are the invalid orders only, every
   * other row is `valid`.
   */
  async finish(options: { dryRun?: boolean } = {}): Promise<void> {
    const plan = await this.plan();
    const tmp = `${this.path}.${process.pid}.tmp`;
    const out = createWriteStream(tmp, { encoding: 'utf8' });
    const write = async (cells: readonly string[]) => {
      if (!out.write(this.line(plan, cells))) await once(out, 'drain');
    };
    try {
      out.write('\uFEFF');
      await write(this.headerRow(plan));
      const done = new Set<number>();
      for (const source of plan.sources) {
        let header: string[] = [];
        for await (const e of csvRowsWithOrders(source, plan.csvOptions)) {
          if ('header' in e) {
            header = e.header;
            continue;
          }
          await write(this.inputRow(plan, source.file, header, e, done, options.dryRun === true));
        }
      }
      for (const cells of this.otherRows(plan, done)) await write(cells);
      out.end();
      await once(out, 'finish');
      if (this.finished) {
        // finishNow wrote it meanwhile, as the process was ending.
        await rm(tmp, { force: true });
        return;
      }
      await rename(tmp, this.path);
      this.finished = true;
    } catch (err) {
      out.destroy();
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * Writes the report at once (synchronously) with every result so far, for a process that ends
   * before the batch could finish (a second Ctrl-C or SIGTERM): the input rows of orders not
   * reached are left without a status, as after an interruption. Needs the rows' layout, read by
   * {@link prepare} while the batch ran; without it (the process ended within the first moments),
   * only the rows of the results are written. Nothing when the report was written already.
   * @throws the file system's error when the report cannot be written
   */
  finishNow(): void {
    if (this.finished) return;
    this.finished = true;
    const plan: ReportPlan = this.prepared ?? { sources: [], headers: [], delimiter: /\.tsv$/i.test(this.path) ? '\t' : ',', single: false, csvOptions: {} };
    const lines: string[] = ['\uFEFF', this.line(plan, this.headerRow(plan))];
    const done = new Set<number>();
    if (this.layouts !== undefined) {
      for (const source of plan.sources) {
        const layout = this.layouts.get(source.file);
        if (layout === undefined) continue;
        const bytes = source.bytes ?? readFileSync(source.file);
        for (const row of csvRowsSync(bytes, layout.delimiter)) {
          const orderRow = layout.orderRowOf[row.row];
          if (orderRow === undefined) continue;
          lines.push(
            this.line(plan, this.inputRow(plan, source.file, layout.header, { ...row, orderRow, shipment: layout.shipmentOf[row.row] ?? 0 }, done, false)),
          );
        }
      }
    }
    for (const cells of this.otherRows(plan, done)) lines.push(this.line(plan, cells));
    const tmp = `${this.path}.${process.pid}.now.tmp`;
    try {
      writeFileSync(tmp, lines.join(''));
      renameSync(tmp, this.path);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    } finally {
      // What finish() had begun to write, should the process end while it did.
      rmSync(`${this.path}.${process.pid}.tmp`, { force: true });
    }
  }
}
