/** Get quote: interface document, "Get quote: POST /quote/" and "GET /quote/". */
import { quoteResult, type QuoteRequest, type QuoteServiceEntry } from '../schema/quote.js';
import { Money } from '../schema/money.js';
import type { ApiClient } from './client.js';

/** `POST /quote/`: the services and prices for a route and packages. Amounts in AUD. */
export async function quoteServices(api: ApiClient, quote: QuoteRequest): Promise<QuoteServiceEntry[]> {
  const result = await api.call({ method: 'POST', path: 'quote/', body: quote, result: quoteResult });
  return result.services;
}

/**
 * `GET /quote/` for a single package: the package given as plain query parameters `length`,
 * `width`, `height`, `weight`, `unit` (PRODUCT.md).
 * @throws RangeError when the quote has more than one package.
 */
export async function quoteServicesSinglePackage(api: ApiClient, quote: QuoteRequest): Promise<QuoteServiceEntry[]> {
  const [pkg, ...more] = quote.packages;
  if (!pkg || more.length > 0) throw new RangeError('GET /quote/ takes exactly one package');
  const { packages: _packages, insurance, value, ...route } = quote;
  const result = await api.call({
    method: 'GET',
    path: 'quote/',
    query: {
      ...route,
      ...pkg,
      value: value?.toNumber(),
      insurance: insurance instanceof Money ? insurance.toNumber() : insurance,
    },
    result: quoteResult,
  });
  return result.services;
}
