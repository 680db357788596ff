/**
 * The customs papers as a PDF: the commercial invoice (with the customs declaration and the
 * signature line) and the packing slip, on A4, US Letter or a 4×6 in label (101.6 × 152.4 mm, for
 * thermal label printers), each paper `copies` times in a row, marked "Copy k of n". A paper too
 * long for one page goes on over more, each page saying which page of how many it is. pdf-lib is
 * loaded by {@link renderPapersPdf} only. Text is drawn in the standard fonts (src/output/papers/charset.ts
 * says which characters they print and how others are shown).
 */
import type { PDFDocument, PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import type { CommercialInvoice, PackingSlip, Paper, SlipLine } from '../../booking/papers/build.js';
import type { PaperParty } from '../../booking/papers/shipment.js';
import { displayCents } from '../../schema/money.js';
import { printable } from './charset.js';

/** Paper sizes in points (1/72 in): A4, US Letter, and the 4×6 in label. */
const PAPER_SIZES = { a4: [595.28, 841.89], letter: [612, 792], '4x6': [288, 432] } as const;

/** A paper size of {@link renderPapersPdf}. */
export type PaperSize = keyof typeof PAPER_SIZES;

/** The look of one paper size: margin and type sizes in points. */
interface Look {
  margin: number;
  body: number;
  small: number;
  title: number;
  /** Two columns (shipper beside consignee, items as a table) or one (the label). */
  wide: boolean;
}

const LOOKS: Record<PaperSize, Look> = {
  a4: { margin: 42, body: 9, small: 7.5, title: 16, wide: true },
  letter: { margin: 42, body: 9, small: 7.5, title: 16, wide: true },
  '4x6': { margin: 13, body: 7, small: 6, title: 10.5, wide: false },
};

/** Amount in AUD with two decimals and thousands separators. */
const aud = (cents: number) => displayCents(cents);

/** Weight in kg to the gram, without trailing zeros. */
const kg = (n: number) => String(Math.round(n * 1000) / 1000);

/** Lines of an address block: name, company, street lines, city and postcode, country, phone, e-mail. */
function partyLines(p: PaperParty | undefined): string[] {
  if (p === undefined) return ['(not recorded)'];
  const name = [p.first_name, p.last_name].filter(Boolean).join(' ');
  return [
    name,
    p.company ?? '',
    ...p.address_lines,
    [[p.city, p.postcode].filter(Boolean).join(' '), p.country ?? ''].filter((x) => x !== '').join(', '),
    p.phone ? `Phone: ${p.phone}` : '',
    p.email ? `E-mail: ${p.email}` : '',
  ].filter((l) => l.trim() !== '');
}

/** Draws papers on pages, one paper after another, with page breaks; counts pages when `draw` is false. */
class Pen {
  page: PDFPage | undefined;
  y = 0;
  /** Pages of the current paper so far. */
  pages = 0;
  constructor(
    private readonly doc: PDFDocument | undefined,
    readonly size: readonly [number, number],
    readonly look: Look,
    readonly font: PDFFont,
    readonly bold: PDFFont,
    private readonly footer: (page: number) => string,
    private readonly header: () => string,
  ) {}

  get width(): number {
    return this.size[0] - 2 * this.look.margin;
  }

  /** Starts a page of the current paper. */
  newPage(): void {
    this.pages++;
    this.page = this.doc?.addPage([this.size[0], this.size[1]]);
    this.y = this.size[1] - this.look.margin;
    const n = this.pages;
    // The footer stands on the bottom margin: nothing is drawn outside the margins.
    this.page?.drawText(printable(this.footer(n)), {
      x: this.look.margin,
      y: this.look.margin + this.look.small * 0.4,
      size: this.look.small - 1,
      font: this.font,
    });
    if (n > 1) {
      this.text(this.header(), this.look.margin, this.look.body, this.bold);
      this.y -= this.look.body * 1.8;
    }
  }

  /** Makes room for `h` points, on a new page when they do not fit. */
  room(h: number): void {
    if (this.page === undefined && this.pages === 0) this.newPage();
    else if (this.y - h < this.look.margin + this.look.small * 2) this.newPage();
  }

  /** Draws one line of text at the current height (never wider than `max`: cut with `...`). */
  text(s: string, x: number, size = this.look.body, f = this.font, max = this.size[0] - this.look.margin - x): void {
    let t = printable(s);
    if (f.widthOfTextAtSize(t, size) > max) {
      while (t.length > 1 && f.widthOfTextAtSize(`${t}...`, size) > max) t = t.slice(0, -1);
      t = `${t}...`;
    }
    this.page?.drawText(t, { x, y: this.y - size, size, font: f });
  }

  /** `s` broken into lines of at most `max` points (long words broken too). */
  wrap(s: string, max: number, size = this.look.body, f = this.font): string[] {
    const out: string[] = [];
    let line = '';
    for (const word of printable(s)
      .split(/\s+/)
      .filter((w) => w !== '')) {
      const next = line === '' ? word : `${line} ${word}`;
      if (f.widthOfTextAtSize(next, size) <= max) {
        line = next;
        continue;
      }
      if (line !== '') out.push(line);
      let w = word;
      while (f.widthOfTextAtSize(w, size) > max) {
        let cut = w.length - 1;
        while (cut > 1 && f.widthOfTextAtSize(w.slice(0, cut), size) > max) cut--;
        out.push(w.slice(0, cut));
        w = w.slice(cut);
      }
      line = w;
    }
    if (line !== '') out.push(line);
    return out.length === 0 ? [''] : out;
  }

  /** Draws wrapped text from `x`, moving down; returns the lines drawn. */
  para(s: string, x = this.look.margin, size = this.look.body, f = this.font, max = this.size[0] - this.look.margin - x): number {
    const lines = this.wrap(s, max, size, f);
    for (const l of lines) {
      this.room(size * 1.35);
      this.text(l, x, size, f, max);
      this.y -= size * 1.35;
    }
    return lines.length;
  }

  /** A thin line across the page. */
  rule(): void {
    this.page?.drawLine({ start: { x: this.look.margin, y: this.y }, end: { x: this.size[0] - this.look.margin, y: this.y }, thickness: 0.5 });
  }
}

/** Draws a label and value on one line ("Label: value"), the label in bold. */
function field(pen: Pen, label: string, value: string, x = pen.look.margin, max?: number): void {
  pen.text(`${label}:`, x, pen.look.body, pen.bold);
  const w = pen.bold.widthOfTextAtSize(printable(`${label}:`), pen.look.body) + pen.look.body * 0.4;
  pen.text(value, x + w, pen.look.body, pen.font, max === undefined ? undefined : max - w);
}

/** Shipper and consignee (or recipient) side by side, each line wrapped in its column. */
function parties(pen: Pen, left: [string, PaperParty | undefined], right: [string, PaperParty | undefined]): void {
  const { look } = pen;
  const lh = look.body * 1.35;
  const half = pen.width / 2 - 6;
  const wrapAll = (lines: string[]) => lines.flatMap((l) => pen.wrap(l, half));
  const a = wrapAll(partyLines(left[1]));
  const b = wrapAll(partyLines(right[1]));
  pen.room(lh * (Math.max(a.length, b.length) + 1));
  pen.text(left[0], look.margin, look.body, pen.bold, half);
  pen.text(right[0], look.margin + pen.width / 2, look.body, pen.bold, half);
  pen.y -= lh;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    pen.room(lh);
    if (a[i] !== undefined) pen.text(a[i]!, look.margin, look.body, pen.font, half);
    if (b[i] !== undefined) pen.text(b[i]!, look.margin + pen.width / 2, look.body, pen.font, half);
    pen.y -= lh;
  }
}

/** The items: a table on a wide page, two lines per item on a label. */
function items(pen: Pen, lines: readonly SlipLine[], prices: boolean): void {
  const { look } = pen;
  const lh = look.body * 1.35;
  const m = look.margin;
  if (look.wide) {
    // Columns, pt from the margin: #, description, HS code, origin, quantity, unit value, line value.
    const w = pen.width;
    const cols = prices ? [0, 18, w - 290, w - 215, w - 175, w - 135, w - 65] : [0, 18, w - 180, w - 105, w - 60];
    const head = prices ? ['#', 'Description', 'HS code', 'Origin', 'Qty', 'Unit (AUD)', 'Line (AUD)'] : ['#', 'Description', 'HS code', 'Origin', 'Qty'];
    pen.room(lh * 2);
    head.forEach((h, i) => {
      if (i < 4) return pen.text(h, m + cols[i]!, look.body, pen.bold);
      const right = i + 1 < cols.length ? cols[i + 1]! - 8 : w;
      pen.text(h, m + right - pen.bold.widthOfTextAtSize(h, look.body), look.body, pen.bold, Infinity);
    });
    pen.y -= lh * 0.8;
    pen.rule();
    pen.y -= lh * 0.4;
    lines.forEach((l, n) => {
      const desc = pen.wrap(l.description, cols[2]! - cols[1]! - 6);
      pen.room(lh * desc.length);
      const top = pen.y;
      const cells = [String(n + 1), '', l.hs ?? '-', l.origin, String(l.quantity), ...(prices ? [aud(l.unit_cents ?? 0), aud(l.line_cents ?? 0)] : [])];
      cells.forEach((c, i) => {
        if (i === 1) return;
        // Numbers right-aligned in their column.
        if (i >= 4) {
          const right = i + 1 < cols.length ? cols[i + 1]! - 8 : w;
          pen.text(c, m + right - pen.font.widthOfTextAtSize(printable(c), look.body), look.body, pen.font, Infinity);
        } else pen.text(c, m + cols[i]!, look.body, pen.font, cols[i + 1]! - cols[i]! - 4);
      });
      for (const d of desc) {
        pen.text(d, m + cols[1]!);
        pen.y -= lh;
      }
      if (pen.y === top) pen.y -= lh;
    });
    pen.rule();
    pen.y -= lh * 0.4;
    return;
  }
  lines.forEach((l, n) => {
    pen.room(lh * 2);
    pen.para(`${n + 1}. ${l.description}`, m, look.body, pen.bold);
    const qty = prices ? `Qty ${l.quantity} x AUD ${aud(l.unit_cents ?? 0)} = AUD ${aud(l.line_cents ?? 0)}` : `Qty ${l.quantity}`;
    pen.para([qty, `origin ${l.origin}`, ...(l.hs ? [`HS ${l.hs}`] : [])].join(', '), m + 8);
  });
  pen.y -= lh * 0.3;
}

/** Packages: count, gross weight (kg, and lb for packages in inches), then each package. */
function packages(pen: Pen, p: CommercialInvoice['packages']): void {
  const lb = p.gross_lb !== undefined ? ` (${p.gross_lb} lb)` : '';
  pen.room(pen.look.body * 2.7);
  field(pen, 'Packages', `${p.count}, gross weight ${kg(p.gross_kg)} kg${lb}`);
  pen.y -= pen.look.body * 1.35;
  p.lines.forEach((l, i) =>
    pen.para(`${i + 1}. ${l.dimensions}, ${l.lb !== undefined ? `${l.lb} lb (${kg(l.kg)} kg)` : `${kg(l.kg)} kg`}`, pen.look.margin + 8),
  );
}

/** The heading lines common to both papers. */
function idLines(pen: Pen, p: Paper, first: Array<[string, string]>): void {
  const lh = pen.look.body * 1.35;
  const pairs: Array<[string, string]> = [
    ...first,
    ...(p.kind === 'invoice' ? [] : ([['Order', p.order_id]] as Array<[string, string]>)),
    ['Shipment', p.shipment_id],
    ['Tracking number', p.tracking_number ?? 'not assigned yet'],
    ...(p.reference !== undefined ? ([['Reference', p.reference]] as Array<[string, string]>) : []),
  ];
  for (let i = 0; i < pairs.length; i += 2) {
    pen.room(lh);
    field(pen, pairs[i]![0], pairs[i]![1], pen.look.margin, pen.width / 2 - 6);
    if (pairs[i + 1]) field(pen, pairs[i + 1]![0], pairs[i + 1]![1], pen.look.margin + pen.width / 2, pen.width / 2);
    pen.y -= lh;
  }
  pen.y -= lh * 0.4;
}

/** Draws the commercial invoice. */
function drawInvoice(pen: Pen, inv: CommercialInvoice, copy: string, signature: PDFImage | undefined): void {
  const { look } = pen;
  const lh = look.body * 1.35;
  pen.room(look.title * 2);
  pen.text('COMMERCIAL INVOICE', look.margin, look.title, pen.bold);
  pen.text(copy, pen.size[0] - look.margin - pen.font.widthOfTextAtSize(copy, look.small), look.small, pen.font, Infinity);
  pen.y -= look.title * 1.6;
  idLines(pen, inv, [
    ['Invoice no. (order)', inv.invoice_number],
    ['Date', inv.date],
  ]);
  parties(pen, ['Shipper', inv.shipper], ['Consignee', inv.consignee]);
  pen.y -= lh * 0.3;
  pen.room(lh * 2);
  field(pen, 'Reason for export', inv.reason ?? '-', look.margin, pen.width / 2 - 6);
  field(pen, 'Tax status', inv.tax_status ?? '-', look.margin + pen.width / 2);
  pen.y -= lh;
  if (inv.description !== undefined) pen.para(`Contents: ${inv.description}`);
  if (inv.comments !== undefined) pen.para(`Comments: ${inv.comments}`);
  pen.y -= lh * 0.3;
  items(pen, inv.items, true);
  pen.room(look.body * 2.4);
  pen.text(`Total value: AUD ${aud(inv.total_cents)}`, look.margin, look.body + 1.5, pen.bold);
  pen.y -= lh * 1.6;
  packages(pen, inv.packages);
  pen.y -= lh * 0.5;
  pen.room(lh * 4);
  pen.para(inv.declaration, look.margin, look.body);
  // The signature line, with the image on it when one was given.
  const imgH = look.wide ? 36 : 22;
  pen.room(imgH + lh * 3);
  pen.y -= imgH;
  const lineX = look.margin + pen.bold.widthOfTextAtSize('Signature: ', look.body);
  const lineW = look.wide ? 220 : pen.width - (lineX - look.margin);
  if (signature !== undefined && pen.page !== undefined) {
    const s = signature.scale(1);
    const k = Math.min(imgH / s.height, lineW / s.width);
    // Standing on the signature line.
    pen.page.drawImage(signature, { x: lineX + 4, y: pen.y - look.body, width: s.width * k, height: s.height * k });
  }
  pen.text('Signature:', look.margin, look.body, pen.bold);
  pen.page?.drawLine({ start: { x: lineX, y: pen.y - look.body - 1 }, end: { x: lineX + lineW, y: pen.y - look.body - 1 }, thickness: 0.6 });
  pen.y -= lh * 1.4;
  field(pen, 'Name', inv.signature.name || '____________________', look.margin, pen.width / 2 - 6);
  field(pen, 'Date', inv.signature.date, look.margin + pen.width / 2);
  pen.y -= lh;
}

/** Draws the packing slip (a gift slip without values). */
function drawSlip(pen: Pen, slip: PackingSlip, copy: string): void {
  const { look } = pen;
  const lh = look.body * 1.35;
  pen.room(look.title * 2);
  pen.text(slip.prices ? 'PACKING SLIP' : 'GIFT PACKING SLIP', look.margin, look.title, pen.bold);
  pen.text(copy, pen.size[0] - look.margin - pen.font.widthOfTextAtSize(copy, look.small), look.small, pen.font, Infinity);
  pen.y -= look.title * 1.6;
  idLines(pen, slip, [['Date', slip.date]]);
  parties(pen, ['From', slip.shipper], ['Recipient', slip.recipient]);
  pen.y -= lh * 0.3;
  if (slip.description !== undefined) pen.para(`Contents: ${slip.description}`);
  items(pen, slip.items, slip.prices);
  if (slip.total_cents !== undefined) {
    pen.room(lh * 1.6);
    pen.text(`Total value: AUD ${aud(slip.total_cents)}`, look.margin, look.body + 1, pen.bold);
    pen.y -= lh * 1.4;
  }
  pen.room(lh * 2);
  const count = slip.items.reduce((n, i) => n + i.quantity, 0);
  pen.para(`${count} item(s) in ${slip.packages.count} package(s).`, look.margin, look.body, pen.bold);
}

/** The title of a paper, for headers and footers. */
function titleOf(p: Paper): string {
  return p.kind === 'invoice' ? `Commercial invoice ${p.invoice_number}` : `${p.prices ? 'Packing slip' : 'Gift slip'} ${p.order_id}`;
}

/**
 * The PDF bytes (and page count) of `papers` on `size`, each paper `copies` times in a row (copy k of n on each).
 * Signature images (BASE64 PNG or JPG) are embedded once each.
 * @throws Error from pdf-lib when a signature image cannot be read
 */
export async function renderPapersPdf(papers: readonly Paper[], size: PaperSize, copies: number, title: string): Promise<{ bytes: Uint8Array; pages: number }> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('shipbook');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const images = new Map<string, PDFImage>();
  const imageOf = async (b64: string | undefined): Promise<PDFImage | undefined> => {
    if (b64 === undefined) return undefined;
    let img = images.get(b64);
    if (img === undefined) {
      const bytes = Buffer.from(b64.replace(/^data:image\/(png|jpe?g);base64,/i, '').replace(/\s+/g, ''), 'base64');
      img = bytes[0] === 0x89 ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
      images.set(b64, img);
    }
    return img;
  };
  const look = LOOKS[size];
  for (const p of papers) {
    const image = p.kind === 'invoice' ? await imageOf(p.signature.image) : undefined;
    const draw = (pen: Pen, copy: string) => (p.kind === 'invoice' ? drawInvoice(pen, p, copy, image) : drawSlip(pen, p, copy));
    // A dry run counts the paper's pages, for "page k of n".
    const counter = new Pen(
      undefined,
      PAPER_SIZES[size],
      look,
      font,
      bold,
      () => '',
      () => '',
    );
    draw(counter, 'Copy 1 of 1');
    const total = counter.pages;
    for (let c = 1; c <= copies; c++) {
      const copy = `Copy ${c} of ${copies}`;
      const pen = new Pen(
        doc,
        PAPER_SIZES[size],
        look,
        font,
        bold,
        (n) => `${titleOf(p)} - ${copy} - page ${n} of ${total} - made by shipbook from the ledger`,
        () => `${titleOf(p)} (continued)`,
      );
      draw(pen, copy);
    }
  }
  return { bytes: await doc.save(), pages: doc.getPageCount() };
}
