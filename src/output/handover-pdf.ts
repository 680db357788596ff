/**
 * The hand-over sheet as a PDF (A4 or US Letter): one section per collection address and pickup
 * date, its carriers' shipments each with its tracking number in text and as a Code 128 barcode a
 * handheld scanner reads, the section's totals and lines for the driver's name, signature and time.
 * pdf-lib and bwip-js are loaded by {@link renderSheetPdf} only (dist/vendor/ files of their own):
 * no other command reads them.
 */
import type { Sheet, SheetLine } from '../ledger/index.js';
import { SHEET_FOOTER, SHEET_TITLE, kgText } from './handover.js';

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

/**
 * The PDF bytes of `sheet` on `paper`. Every tracking number is drawn as a Code 128 barcode (vector
 * bars, 1 pt per module, 12 mm high, with the page margin as quiet zone), under its text line.
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
  const black = rgb(0, 0, 0);
  const grey = rgb(0.35, 0.35, 0.35);
  let page = doc.addPage([width, height]);
  let y = height - margin;
  let pageNo = 1;

  const footer = () => {
    page.drawText(winAnsi(`${SHEET_FOOTER} - page ${pageNo}`), { x: margin, y: margin - 20, size: 7.5, font, color: grey });
  };
  const text = (s: string, x: number, size = 9, f = font) => page.drawText(winAnsi(s), { x, y, size, font: f, color: black });
  const room = (h: number) => {
    if (y - h >= margin) return;
    footer();
    page = doc.addPage([width, height]);
    pageNo++;
    y = height - margin;
  };
  const rule = () => page.drawLine({ start: { x: margin, y }, end: { x: width - margin, y }, thickness: 0.5, color: grey });

  text(`${SHEET_TITLE}: ${sheet.date}`, margin, 16, bold);
  y -= 16;
  text(`Made ${made}. Not a carrier manifest: the shipper's record of what the driver took away.`, margin, 8);
  y -= 22;

  if (sheet.sections.length === 0 && sheet.no_tracking_yet.length === 0) {
    text('Nothing was booked for this day: no shipment to hand over.', margin, 11, bold);
    y -= 16;
  }
  // Columns, pt from the left edge: tracking number, order, city and country, packages, kg, service.
  const cols = [margin, margin + 150, margin + 235, margin + 345, margin + 385, margin + 430];
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
    y -= h + 18;
  };
  for (const section of sheet.sections) {
    room(110);
    rule();
    y -= 14;
    text(`Collection: ${section.collection}`, margin, 11, bold);
    y -= 13;
    text(`Pickup date: ${section.pickup_date}`, margin, 9);
    y -= 16;
    for (const c of section.carriers) {
      room(80);
      text(`${c.carrier}: ${c.totals.shipments} shipment(s), ${c.totals.packages} package(s), ${kgText(c.totals.weight_kg)} kg`, margin, 10, bold);
      y -= 14;
      for (const l of c.lines) line(l);
    }
    room(90);
    text(
      `Section total: ${section.totals.shipments} shipment(s), ${section.totals.packages} package(s), ${kgText(section.totals.weight_kg)} kg`,
      margin,
      10,
      bold,
    );
    y -= 30;
    for (const label of ["Driver's name", 'Signature', 'Time']) {
      text(`${label}:`, margin, 9);
      page.drawLine({ start: { x: margin + 80, y: y - 2 }, end: { x: margin + 330, y: y - 2 }, thickness: 0.5, color: black });
      y -= 22;
    }
    y -= 6;
  }
  if (sheet.no_tracking_yet.length > 0) {
    room(50);
    rule();
    y -= 14;
    text('No tracking number yet (accepted, not yet processed): not part of the hand-over', margin, 10, bold);
    y -= 14;
    for (const p of sheet.no_tracking_yet) {
      room(14);
      text(`${p.order_id}  ${p.shipment_id}  ${p.city}, ${p.country}  ${p.packages} pkg  ${kgText(p.weight_kg)} kg  ${p.service}`, margin, 9);
      y -= 12;
    }
  }
  room(40);
  rule();
  y -= 14;
  text(
    `Day total: ${sheet.totals.shipments} shipment(s), ${sheet.totals.packages} package(s), ${kgText(sheet.totals.weight_kg)} kg; ` +
      `${sheet.no_tracking_yet.length} without tracking number yet; ${sheet.cancelled} cancelled (left out)`,
    margin,
    9,
    bold,
  );
  footer();
  return doc.save();
}
