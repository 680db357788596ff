/**
 * Making the files of customs papers, for `shipbook documents` and `book --documents`: the
 * profile's catalogue and signature read once, each order's papers computed
 * (src/booking/papers/build.ts) and drawn (src/output/papers/pdf.ts), one PDF per order into a
 * directory or one PDF for all into a file.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ShipbookError } from '../../errors.js';
import { papersOf, partyName, type Paper, type PaperChoice } from '../../booking/index.js';
import { loadCatalogue, type Catalogue } from '../../booking/index.js';
import type { LedgerPaperOrder } from '../../booking/index.js';
import { isDigitalSignatureImage } from '../../schema/signature.js';
import type { PaperSize } from '../../output/papers/pdf.js';
import { unprintable } from '../../output/papers/charset.js';
import type { MadeFile } from '../../output/papers/report.js';

/** The profile's papers settings, read: the catalogue, and the signature image as BASE64. */
interface PaperSettings {
  catalogue?: Catalogue;
  signature?: string;
}

/**
 * Reads the profile's `papers.catalogue` and `papers.signature` (paths relative to the working directory).
 * @throws ShipbookError `catalogue_unreadable`, `signature_unreadable` (exit 2); ValidationError (exit 2) for a catalogue entry in error
 */
export async function readPaperSettings(settings: { catalogue?: string; signature?: string } | undefined): Promise<PaperSettings> {
  const out: PaperSettings = {};
  if (settings?.catalogue !== undefined) out.catalogue = await loadCatalogue(settings.catalogue);
  if (settings?.signature !== undefined) {
    const file = settings.signature;
    let b64: string;
    try {
      b64 = (await readFile(file)).toString('base64');
    } catch (err) {
      throw new ShipbookError(
        'signature_unreadable',
        `cannot read the signature image ${file} (--signature or papers.signature): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
        'input',
        {
          suggestion: 'Set papers.signature to a PNG or JPG file you can read: shipbook config set papers.signature /path/to/signature.png',
          cause: err,
        },
      );
    }
    if (!isDigitalSignatureImage(b64))
      throw new ShipbookError('signature_unreadable', `the signature image ${file} (--signature or papers.signature) is not a PNG or JPG image`, 'input', {
        suggestion: 'Save the signature as PNG or JPG, or unset it: shipbook config unset papers.signature',
      });
    out.signature = b64;
  }
  return out;
}

/** What to make and how. */
interface MakeOptions {
  choice: PaperChoice;
  paper: PaperSize;
  copies: number;
}

/** The papers' kinds in a file name: `papers` (both), `invoice`, `packing-slip` or `gift-slip`. */
function kindsName(c: PaperChoice): string {
  if (c.invoice && c.packingSlip) return 'papers';
  if (c.invoice) return 'invoice';
  return c.noPrices === true ? 'gift-slip' : 'packing-slip';
}

/** The file of one order's papers in `dir`: `<order id>-<kinds>.pdf`, the id made safe for a file name. */
function paperFileName(dir: string, orderId: string, choice: PaperChoice): string {
  return join(dir, `${orderId.replace(/[^A-Za-z0-9._-]/g, '_')}-${kindsName(choice)}.pdf`);
}

/**
 * Writes `data` to `path`.
 * @throws ShipbookError `file_unwritable` (exit 2) naming the file and `--out` when it cannot be written
 */
async function put(path: string, data: Uint8Array, flag: string): Promise<void> {
  try {
    await writeFile(path, data);
  } catch (err) {
    throw new ShipbookError('file_unwritable', `cannot write ${path} (${flag}): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'input', {
      suggestion: `Give ${flag} a file or directory you can write.`,
      cause: err,
    });
  }
}

/** The texts of names and addresses on `papers`, for the characters the fonts cannot print. */
function textsOf(papers: readonly Paper[]): string[] {
  const out: string[] = [];
  for (const p of papers) {
    for (const party of p.kind === 'invoice' ? [p.shipper, p.consignee] : [p.shipper, p.recipient])
      if (party !== undefined) out.push(partyName(party), party.company ?? '', ...party.address_lines, party.city ?? '');
    for (const i of p.items) out.push(i.description);
  }
  return out;
}

/** The files made, and the characters the fonts could not print. */
interface MadeFiles {
  files: MadeFile[];
  unprintable: Array<{ char: string; shown_as: string }>;
}

/**
 * Makes the papers of `orders`: into `out.file` (one PDF for all), or one PDF per order into
 * `out.dir` (made when missing). An order with no papers to make (none international) makes no file,
 * and no papers at all make no directory.
 * @throws ShipbookError `file_unwritable` (exit 2); Error from pdf-lib for a signature image it cannot read
 */
export async function makePaperFiles(
  orders: readonly LedgerPaperOrder[],
  out: { file: string } | { dir: string },
  o: MakeOptions,
  settings: PaperSettings,
  flag = '--out',
): Promise<MadeFiles> {
  const { renderPapersPdf } = await import('../../output/papers/pdf.js');
  const files: MadeFile[] = [];
  const texts: string[] = [];
  const each = orders.map((order) => ({ order, papers: papersOf(order, o.choice, settings) })).filter((x) => x.papers.length > 0);
  for (const x of each) texts.push(...textsOf(x.papers));
  if ('file' in out) {
    const papers = each.flatMap((x) => x.papers);
    if (papers.length > 0) {
      const pdf = await renderPapersPdf(papers, o.paper, o.copies, `Customs papers of ${each.length} order(s)`);
      await put(out.file, pdf.bytes, flag);
      files.push({ path: out.file, order_ids: each.map((x) => x.order.orderId), papers: papers.length, pages: pdf.pages });
    }
  } else if (each.length > 0) {
    await mkdir(resolve(out.dir), { recursive: true }).catch((err: unknown) => {
      throw new ShipbookError(
        'file_unwritable',
        `cannot make the directory ${out.dir} (${flag}): ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
        'input',
        {
          suggestion: `Give ${flag} a directory you can write.`,
          cause: err,
        },
      );
    });
    for (const x of each) {
      const path = paperFileName(out.dir, x.order.orderId, o.choice);
      const pdf = await renderPapersPdf(x.papers, o.paper, o.copies, `Customs papers of order ${x.order.orderId}`);
      await put(path, pdf.bytes, flag);
      files.push({ path, order_ids: [x.order.orderId], papers: x.papers.length, pages: pdf.pages });
    }
  }
  return { files, unprintable: unprintable(texts) };
}
