/**
 * The hand-over sheet as a PDF (A4 or US Letter): one section per collection address and pickup
 * date, its carriers' shipments each with its tracking number in text and as a Code 128 barcode a
 * handheld scanner reads, the section's totals and lines for the driver's name, signature and time.
 * pdf-lib and bwip-js are loaded by {@link renderSheetPdf} only (dist/vendor/ files of their own):
 * no other command reads them.
 */
import type { Sheet, SheetLine } from '../ledger/index.js';
import { SHEET_FOOTER, SHEET_TITLE, kgText, mayBeMissingText, scanText } from './handover.js';

/** Paper sizes in points (1/72 in). */
const PAPER = { a4: [595.28, 841.89], letter: [612, 792] } as const;

/** A paper size of {@link renderSheetPdf}. */
type Paper = keyof typeof PAPER;

/** Text the standard PDF fonts can draw (WinAnsi): other characters become `?`. */
function winAnsi(s: string): string {
  return s.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

/**
 * The bars of `text` in Code 128, as [left edge, width] in modules, from bwip-js's encoder drawn
 * at one pixel per module: it draws each bar as a vertical line of the bar's width through its
 * centre, rounded up to a whole pixel.
 * @throws Error from bwip-js when the text cannot be encoded in Code 128
 */
function code128Bars(encode: typeof import('bwip-js').code128, text: string): Array<[number, number]> {
  const bars: Array<[number, number]> = [];
  const none = () => undefined;
  encode(
    { bcid: 'code128', text, scale: 1, height: 12 },
    {
      scale: (): [number, number] => [1, 1],
      measure: () => ({ width: 0, ascent: 0, descent: 0 }),
      init: none,
      line: (x0: number, _y0: number, _x1: number, _y1: number, lw: number) => void bars.push([Math.floor(x0 - lw / 2), lw]),
      polygon: none,
      hexagon: none,
      ellipse: none,
      fill: none,
      text: none,
      end: none,
    },
  );
  return bars;
}

/** What a page of the sheet holds, for its footer and its count. */
interface PageNote {
  /** The collection (and pickup date) of the section on the page, or what the page is about. */
  about: string;
  shipments: number;
  packages: number;
}

/**
 * The PDF bytes of `sheet` on `paper`. Every tracking number is drawn as a Code 128 barcode (vector
 * bars, 1 pt per module, 12 mm high, with the page margin as quiet zone), under its text line.
 * Each section (collection address and pickup date) starts on a page of its own; every page
 * repeats the title, the section's collection, the carrier and the column headings it continues,
 * counts the shipments on it with a line for the driver's initials, and ends with "page x of y",
 * the date and the collection; the section's signature says which pages and how many shipments it
 * covers, so that a missing page shows.
 * @throws Error from bwip-js when a tracking number cannot be encoded in Code 128 (non-ASCII)
 */
export async function renderSheetPdf(sheet: Sheet, paper: Paper, made: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb, pushGraphicsState, popGraphicsState, setFillingRgbColor, rectangle, fill } = await import('pdf-lib');
  const { code128 } = await import('bwip-js');
  const doc = await PDFDocument.create();
  doc.setTitle(`${SHEET_TITLE} ${sheet.date}`);
  doc.setCreator('shipbook');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const [width, height] = PAPER[paper];
  const margin = 42;
  /** Room kept at the bottom of every page for its count and the driver's initials. */
  const foot = 40;
  const black = rgb(0, 0, 0);
  const grey = rgb(0.35, 0.35, 0.35);
  const notes: PageNote[] = [];
  let page = doc.addPage([width, height]);
  let note: PageNote = { about: 'no collection', shipments: 0, packages: 0 };
  notes.push(note);
  let y = height - margin;
  /** What a page continues: the section's heading and the carrier's, redrawn at the top of the next page. */
  let section: { collection: string; pickup: string } | undefined;
  let carrier: string | undefined;

  const text = (s: string, x: number, size = 9, f = font) => page.drawText(winAnsi(s), { x, y, size, font: f, color: black });
  const rule = () => page.drawLine({ start: { x: margin, y }, end: { x: width - margin, y }, thickness: 0.5, color: grey });
  // Columns, pt from the left edge: tracking number, order, city and country, packages, kg, service.
  const cols = [margin, margin + 150, margin + 235, margin + 345, margin + 385, margin + 430];
  const columnHeadings = () => {
    const heads = ['Tracking number', 'Order', 'City, country', 'Pkgs', 'kg', 'Service'];
    heads.forEach((h, i) => page.drawText(h, { x: cols[i]!, y, size: 7.5, font: bold, color: grey }));
    y -= 12;
  };
  const pageHeading = () => {
    text(`${SHEET_TITLE}: ${sheet.date}${sheet.driver !== undefined ? `, driver ${sheet.driver}` : ''}`, margin, 14, bold);
    y -= 15;
    if (section !== undefined) {
      text(`Collection: ${section.collection}`, margin, 10, bold);
      y -= 12;
      text(`Pickup date: ${section.pickup}`, margin, 8.5);
      y -= 14;
    }
  };
  /** The page's count of shipments and a line for the driver's initials, above the footer. */
  const pageCount = () => {
    if (note.shipments === 0) return;
    const at = margin + foot - 18;
    page.drawText(winAnsi(`This page: ${note.shipments} shipment(s), ${note.packages} package(s).   Driver's initials:`), {
      x: margin,
      y: at,
      size: 8.5,
      font: bold,
      color: black,
    });
    page.drawLine({ start: { x: margin + 290, y: at - 2 }, end: { x: margin + 400, y: at - 2 }, thickness: 0.5, color: black });
  };
  const newPage = () => {
    pageCount();
    page = doc.addPage([width, height]);
    note = { about: section !== undefined ? `${section.collection} (pickup ${section.pickup})` : 'summary', shipments: 0, packages: 0 };
    notes.push(note);
    y = height - margin;
    pageHeading();
  };
  const room = (h: number, continued = true) => {
    if (y - h >= margin + foot) return;
    newPage();
    if (continued && carrier !== undefined) {
      text(`${carrier} (continued)`, margin, 10, bold);
      y -= 14;
      columnHeadings();
    }
  };

  pageHeading();
  text(`Made ${made}. Not a carrier manifest: the shipper's record of what the driver took away.`, margin, 8);
  y -= 14;
  const missing = mayBeMissingText(sheet);
  if (missing !== undefined) {
    text(`Note: ${missing}.`, margin, 9, bold);
    y -= 14;
  }
  y -= 6;

  if (sheet.sections.length === 0 && sheet.no_tracking_yet.length === 0) {
    text('Nothing was booked for this day: no shipment to hand over.', margin, 11, bold);
    y -= 16;
  }
  const line = (l: SheetLine) => {
    room(62);
    text(l.tracking, cols[0]!, 10, bold);
    text(l.order_id, cols[1]!, 8.5);
    text(`${l.city}, ${l.country}`.slice(0, 22), cols[2]!, 8.5);
    text(`${l.packages} pkg`, cols[3]!, 8.5);
    text(`${kgText(l.weight_kg)} kg`, cols[4]!, 8.5);
    text(l.service.length > 17 ? `${l.service.slice(0, 16)}...` : l.service, cols[5]!, 8.5);
    y -= 4;
    // The bars as vector rectangles, one module 1 pt wide (about 0.35 mm), 12 mm high: sharp at
    // any resolution, and far cheaper than an image per tracking number.
    const h = 34;
    const bars = [pushGraphicsState(), setFillingRgbColor(0, 0, 0)];
    for (const [left, width] of code128Bars(code128, l.tracking)) bars.push(rectangle(cols[0]! + left, y - h, width, h));
    page.pushOperators(...bars, fill(), popGraphicsState());
    // What the dock says of it, beside the bars (clear of them: a quiet zone of 60 pt and more).
    page.drawText(winAnsi(scanText(l)), { x: cols[2]!, y: y - 14, size: 8, font: l.scanned === undefined ? bold : font, color: black });
    y -= h + 18;
    note.shipments++;
    note.packages += l.packages;
  };
  sheet.sections.forEach((s, i) => {
    section = { collection: s.collection, pickup: s.pickup_date };
    carrier = undefined;
    // Each section on pages of its own: one collection per page, one signature per section.
    if (i > 0 || note.shipments > 0) newPage();
    else {
      note.about = `${s.collection} (pickup ${s.pickup_date})`;
      rule();
      y -= 14;
      text(`Collection: ${s.collection}`, margin, 11, bold);
      y -= 13;
      text(`Pickup date: ${s.pickup_date}`, margin, 9);
      y -= 16;
    }
    const first = notes.length;
    for (const c of s.carriers) {
      carrier = undefined;
      room(100);
      carrier = c.carrier;
      text(`${c.carrier}: ${c.totals.shipments} shipment(s), ${c.totals.packages} package(s), ${kgText(c.totals.weight_kg)} kg`, margin, 10, bold);
      y -= 14;
      columnHeadings();
      for (const l of c.lines) line(l);
    }
    carrier = undefined;
    room(120, false);
    const last = notes.length;
    text(`Section total: ${s.totals.shipments} shipment(s), ${s.totals.packages} package(s), ${kgText(s.totals.weight_kg)} kg`, margin, 10, bold);
    y -= 14;
    text(
      `This signature covers page${first === last ? ` ${first}` : `s ${first}-${last}`}: ${s.totals.shipments} shipment(s), ${s.totals.packages} package(s).`,
      margin,
      9,
      bold,
    );
    y -= 22;
    for (const label of ["Driver's name", 'Signature', 'Time']) {
      text(`${label}:`, margin, 9);
      page.drawLine({ start: { x: margin + 80, y: y - 2 }, end: { x: margin + 330, y: y - 2 }, thickness: 0.5, color: black });
      y -= 22;
    }
    y -= 6;
  });
  section = undefined;
  if (sheet.no_tracking_yet.length > 0) {
    room(50, false);
    rule();
    y -= 14;
    text('No tracking number yet (accepted, not yet processed): not part of the hand-over', margin, 10, bold);
    y -= 14;
    for (const p of sheet.no_tracking_yet) {
      room(14, false);
      text(`${p.order_id}  ${p.shipment_id}  ${p.city}, ${p.country}  ${p.packages} pkg  ${kgText(p.weight_kg)} kg  ${p.service}`, margin, 9);
      y -= 12;
    }
  }
  room(40, false);
  rule();
  y -= 14;
  text(
    `Day total: ${sheet.totals.shipments} shipment(s), ${sheet.totals.packages} package(s), ${kgText(sheet.totals.weight_kg)} kg; ` +
      `${sheet.no_tracking_yet.length} without tracking number yet; ${sheet.cancelled} cancelled (left out); ${sheet.scanned} scanned`,
    margin,
    9,
    bold,
  );
  pageCount();
  // Now that the pages are counted: "page x of y", the date and the collection on every page.
  const pages = doc.getPages();
  pages.forEach((p, i) => {
    const about = notes[i]?.about ?? '';
    const words = `${sheet.date} - ${about} - page ${i + 1} of ${pages.length}`;
    p.drawText(winAnsi(words), { x: margin, y: margin - 14, size: 8, font: bold, color: black });
    p.drawText(winAnsi(`page ${i + 1} of ${pages.length}`), { x: width - margin - 60, y: height - margin, size: 9, font: bold, color: black });
    p.drawText(winAnsi(SHEET_FOOTER), { x: margin, y: margin - 25, size: 7, font, color: grey });
  });
  return doc.save();
}
