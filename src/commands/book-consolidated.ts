/**
 * `shipbook book <file>` for a consolidated-mail booking (PRODUCT.md, flow 3 over flow 2): a file
 * listing the child shipments and the main shipment is booked as create shipment × N → combine →
 * accept the parent → wait, and the parent is printed with every child's and the main shipment's
 * tracking number. `book` (commands/book.ts) hands over here when the file is consolidated
 * ({@link isConsolidatedDocument}).
 */
import { bookConsolidated, splitParent, summaryMismatch, withoutTrackingNumber } from '../booking/consolidated.js';
import type { Context } from '../context.js';
import type { LoadedDocument } from '../input/load.js';
import { validateKind } from '../input/validate.js';
import { printParentOrder } from '../output/consolidated.js';
import { printJson } from '../output/json.js';
import { paint } from '../output/style.js';
import { orderStatusWord, shipmentStatusWord } from '../schema/status.js';
import { prepareBooking, printStep, type BookOptions } from './book-common.js';

/**
 * Books a loaded consolidated document: validates it (every problem, nothing sent), checks the
 * payment, then runs the flow with progress on stderr; stdout gets the combined parent (children,
 * main shipment, price with the children's sum) and finally the processed parent with tracking
 * numbers, or with `--json` only `{order}`, the processed parent.
 * @throws ValidationError (2), ApiError (3/4), BookingFailedError (6), WaitTimeoutError (7); after a
 *   partial booking the error's suggestion names what was created and the command that continues
 */
export async function runBookConsolidated(o: BookOptions, ctx: Context, doc: LoadedDocument): Promise<void> {
  const { io } = ctx;
  const booking = validateKind(doc, 'consolidated', ctx);
  const { api, waiter, accept } = await prepareBooking(o, ctx);
  const started = Date.now();

  const { order, childIds } = await bookConsolidated(api, booking, {
    file: o.file,
    accept,
    waitForResult: (orderId) => waiter.wait(orderId),
    events: {
      shipmentCreated(s, index, count) {
        const to = [s.delivery?.city, s.delivery?.country].filter(Boolean).join(', ');
        const price = s.service?.price ? `, ${s.service.price.total.toString()} AUD` : '';
        printStep(ctx, shipmentStatusWord(s.status), `shipment ${s.id} created (${index + 1}/${count})${to ? ` to ${to}` : ''}${price}`);
      },
      combined(parent, ids) {
        const { main } = splitParent(parent, ids);
        printStep(
          ctx,
          orderStatusWord(parent.status),
          `parent order ${parent.id} combined: ${ids.length} shipment(s)${main ? ` + main shipment ${main.id}` : ' (free pickup, no main shipment)'}`,
        );
        const mismatch = summaryMismatch(parent, splitParent(parent, ids).children);
        if (mismatch) io.err(`${paint(io, 'yellow', 'warning:')} ${mismatch}\n`);
        if (!ctx.json) printParentOrder(io, parent, ids);
      },
      accepted(accepted) {
        printStep(ctx, orderStatusWord(accepted.status), `order ${accepted.id} accepted; booking runs asynchronously`);
      },
    },
  });
  printStep(ctx, orderStatusWord(order.status), `order ${order.id} booked in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const untracked = withoutTrackingNumber(order);
  if (untracked.length > 0) io.err(`${paint(io, 'yellow', 'warning:')} no tracking number yet for ${untracked.join(', ')}\n`);
  if (ctx.json) return printJson(io, { order });
  printParentOrder(io, order, childIds, { price: false });
}
