/** Answers of the guided booking shared by the pseudo-terminal tests. */
import type { Terminal } from './terminal.js';

/** Answers the rest of a guided booking from the pickup date to the summary (Sydney to Melbourne). */
export async function pickupToSummary(t: Terminal): Promise<string> {
  await t.answer('Pickup day', '');
  await t.answer('Pickup from (HH:MM)', '');
  await t.answer('Pickup until (HH:MM)', '');
  await t.waitFor('❯ cm and kg');
  t.keys('Enter');
  await t.answer('Package 1 length (cm)', '40');
  await t.answer('Package 1 width (cm)', '30');
  await t.answer('Package 1 height (cm)', '25');
  await t.answer('Package 1 weight (kg)', '6.5');
  await t.answer('Add another package?', 'n');
  await t.waitFor('? Reason for sending');
  t.keys('Enter');
  await t.waitFor('? Tax status');
  t.keys('Enter');
  await t.answer('Does the shipment contain lithium batteries?', 'n');
  await t.answer('Item 1 description', 'Ceramic dinner plates');
  await t.answer('Item 1 quantity', '12');
  await t.answer('Item 1 value of one item (AUD)', '18.50');
  // Made in: the sender's country is proposed; Enter takes it.
  await t.waitFor('❯ Australia (AU)');
  t.keys('Enter');
  await t.waitFor('✔ Item 1 made in (type to search) Australia (AU)');
  await t.answer('Add another item?', 'n');
  await t.answer('Shipment description (what is in it)', 'Homewares');
  await t.answer('Your reference for this shipment', 'PO-4471');
  await t.waitFor('❯ SB-DOM-ROAD');
  t.keys('Enter');
  return t.waitFor('? Book this?');
}
