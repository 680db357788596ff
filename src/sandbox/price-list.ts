/**
 * The sandbox's price list without a server: the `result` of get quote (interface document, "Get
 * quote: POST /quote/") that the sandbox would answer for a request, computed in-process by the
 * same rate engine and written by the same writer. `shipbook rules test` uses it to try rules with
 * no network; its prices are those a booking against the sandbox gets.
 */
import type { QuoteRequest } from '../schema/quote.js';
import { packageLimitProblems, ratesFor } from './rates.js';
import { insuredValueOf } from './routes/quote.js';
import { quoteServicesJson } from './wire.js';

/**
 * The get-quote `result` (`{"services": […]}`, JSON text) for a validated quote request, or the
 * sandbox's reason for refusing it (a package over its weight limit).
 */
export function sandboxQuoteResult(q: QuoteRequest): { json: string } | { problem: string } {
  const tooBig = packageLimitProblems(q.packages)[0];
  if (tooBig !== undefined) return { problem: `packages[${tooBig.index}]: ${tooBig.message}` };
  const route = {
    collectionCountry: q.collection_country,
    collectionPostcode: q.collection_postcode,
    deliveryCountry: q.delivery_country,
    deliveryPostcode: q.delivery_postcode,
  };
  return { json: quoteServicesJson(ratesFor(route, q.packages, insuredValueOf(q))) };
}
