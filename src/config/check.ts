/**
 * Checking credentials: `auth login` and `auth status` send one small quote request (interface
 * document, "Get quote: POST /quote/") with the key. Get quote takes authorization as optional,
 * so a service that does not check keys on quotes accepts a wrong key here; one that does (the
 * sandbox started with a required key does) answers 401, which is reported as refused.
 */
import type { ApiClient } from '../api/client.js';
import { quoteServices } from '../api/quote.js';
import { quoteRequest, type QuoteRequest } from '../schema/quote.js';

/** The quote sent by the check: one 10 × 10 × 10 cm, 1 kg package from Sydney 2000 to Melbourne 3000, AUD. */
const CHECK_QUOTE: QuoteRequest = quoteRequest.parse({
  collection_country: 'AU',
  collection_postcode: '2000',
  collection_city: 'Sydney',
  delivery_country: 'AU',
  delivery_postcode: '3000',
  delivery_city: 'Melbourne',
  packages: [{ length: 10, width: 10, height: 10, weight: 1, unit: 'cm' }],
  currency: 'AUD',
});

/** What the check saw. */
export interface CheckResult {
  /** The request sent, e.g. `POST https://api.example.com/quote/`. */
  request: string;
  /** Number of services the quote offered. */
  services: number;
}

/** A line for stderr saying what the check does. */
export function checkDescription(api: ApiClient): string {
  return `POST ${api.urlOf('quote/')} (a quote request: Sydney 2000 → Melbourne 3000, one 1 kg package)`;
}

/**
 * Sends the check quote.
 * @throws ApiError (401/403 → exit 4: the key is refused; others exit 3), NetworkError,
 *   TimeoutError, ProtocolError (exit 5), as {@link ApiClient.call}.
 */
export async function checkCredentials(api: ApiClient): Promise<CheckResult> {
  const services = await quoteServices(api, CHECK_QUOTE);
  return { request: `POST ${api.urlOf('quote/')}`, services: services.length };
}
