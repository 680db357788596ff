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
 * once the batch is over, so it is never seen half written.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { stringify } from 'csv-stringify/sync';
import { csvRowsWithOrders } from '../input/csv.js';
import { csvDelimiterOf, type CsvDelimiter } from '../input/csv-bytes.js';
import type { CsvReadOptions } from '../input/csv-groups.js';
import { formatIssues } from '../input/format.js';
import { batchFiles, isCsvInput, type BatchInputOptions } from './inputs.js';
import type { BatchResult } from './runner.js';

/** The result columns appended to every row. */
const RESULT_COLUMNS = ['status', 'order_id', 'shipment_id', 'tracking_number', 'total_aud', 'error', 'warnings'] as const;

/** True when a report file name asks for CSV (`.csv`, `.tsv`). */
export function isCsvReport(path: string): boolean {
  return /\.(csv|tsv)$/i.test(path);
}

const key = (file: string, line: number) => `${line}\u0000${file}`;

/** Keeps the batch's results and writes them beside the input rows when the batch is over. */
export class CsvReportWriter {
  private readonly results = new Map<string, BatchResult>();

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
    this.results.set(key(result.file, result.line), result);
  }

  /**
   * Writes the report: every CSV input row with its order's results, then a row per order of the
   * other inputs. After a dry run (`dryRun`), whose results are the invalid orders only, every
   * other row is `valid`.
   */
  async finish(options: { dryRun?: boolean } = {}): Promise<void> {
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
    if (single && !/\.tsv$/i.test(this.path)) {
      delimiter = await csvDelimiterOf(sources[0]!, csvOptions);
    }
    const decimal = (total: string | undefined) => (total !== undefined && csvOptions.decimalComma ? total.replace('.', ',') : (total ?? ''));
    const tmp = `${this.path}.${process.pid}.tmp`;
    const out = createWriteStream(tmp, { encoding: 'utf8' });
    const write = async (cells: readonly string[]) => {
      if (!out.write(stringify([cells], { delimiter, escape_formulas: true, quoted_match: /[\r\n]/ }))) await once(out, 'drain');
    };
    try {
      out.write('\uFEFF');
      await write([...(single ? [] : ['file', 'row']), ...headers, ...RESULT_COLUMNS]);
      const done = new Set<string>();
      for (const source of sources) {
        let header: string[] = [];
        for await (const e of csvRowsWithOrders(source, csvOptions)) {
          if ('header' in e) {
            header = e.header;
            continue;
          }
          const r = this.results.get(key(source.file, e.orderRow));
          if (r) done.add(key(source.file, e.orderRow));
          const cells = headers.map((h) => {
            const i = header.indexOf(h);
            return i < 0 ? '' : (e.cells[i] ?? '');
          });
          const first = e.row === e.orderRow;
          const rowIssues = (r?.issues ?? []).filter((i) => i.line === e.row || (first && (i.line === undefined || i.line < e.orderRow)));
          const error = r?.error?.message ?? (rowIssues.length > 0 ? formatIssues(rowIssues) : r?.status === 'invalid' && first ? 'invalid' : '');
          const rowWarnings = (r?.warnings ?? []).filter((i) => i.line === e.row || (first && (i.line === undefined || i.line < e.orderRow)));
          await write([
            ...(single ? [] : [source.file, String(e.row)]),
            ...cells,
            r?.status ?? (options.dryRun ? 'valid' : ''),
            r?.order_id ?? '',
            // The row's own shipment; when the result does not say which is whose, every one of them.
            r?.shipment_ids?.[e.shipment] ?? (r?.shipment_ids ?? []).join(' '),
            r?.tracking_numbers?.[e.shipment] ?? '',
            first ? decimal(r?.total) : '',
            error,
            rowWarnings.length > 0 ? formatIssues(rowWarnings) : '',
          ]);
        }
      }
      // Orders from the other inputs (and problems that belong to no CSV row, such as a bad header).
      for (const [k, r] of this.results) {
        if (done.has(k)) continue;
        await write([
          ...(single ? [] : [r.file, String(r.line)]),
          ...headers.map(() => ''),
          r.status,
          r.order_id ?? '',
          (r.shipment_ids ?? []).join(' '),
          (r.tracking_numbers ?? []).join(' '),
          decimal(r.total),
          r.error?.message ?? (r.issues ? formatIssues(r.issues) : ''),
          r.warnings ? formatIssues(r.warnings) : '',
        ]);
      }
      out.end();
      await once(out, 'finish');
      await rename(tmp, this.path);
    } catch (err) {
      out.destroy();
      await rm(tmp, { force: true });
      throw err;
    }
  }
}
