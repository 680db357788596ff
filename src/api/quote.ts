/** Get quote: interface document, "Get quote: POST /quote/" and "GET /quote/". */
import * as z from 'zod';
import { quoteServiceEntry, type QuoteRequest, type QuoteServiceEntry } from '../schema/quote.js';
import { Money } from '../schema/money.js';
import type { ApiClient, RequestOptions } from './client.js';

/**
 * `result` of get quote as the client reads it: `services` is required (an empty list is a real
 * answer: no service offered); a 200 without it, or with something else, is a protocol error
 * (exit 5), never "no service offered" (issue 20 item 3).
 */
export const quoteAnswer = z.looseObject({ services: z.array(quoteServiceEntry) });

/**
 * `POST /quote/` (endpoint `quote`, safe: retried on transient failures): the services and prices
 * for a route and packages. Amounts in AUD.
 * @throws ProtocolError (exit 5) when the answer has no list of services; as {@link ApiClient.call} otherwise.
 */
export async function quoteServices(api: ApiClient, quote: QuoteRequest, options: RequestOptions = {}): Promise<QuoteServiceEntry[]> {
  const result = await api.call({ ...options, endpoint: 'quote', method: 'POST', path: 'quote/', body: quote, result: quoteAnswer });
  return result.services;
}

/**
 * `GET /quote/` for a single package: the package given as plain query parameters `length`,
 * `width`, `height`, `weight`, `unit` (PRODUCT.md).
 * @throws RangeError when the quote has more than one package.
 * @throws ProtocolError (exit 5) when the answer has no list of services; as {@link ApiClient.call} otherwise.
 */
export async function quoteServicesSinglePackage(api: ApiClient, quote: QuoteRequest, options: RequestOptions = {}): Promise<QuoteServiceEntry[]> {
  const [pkg, ...more] = quote.packages;
  if (!pkg || more.length > 0) throw new RangeError('GET /quote/ takes exactly one package');
  const { packages: _packages, insurance, value, ...route } = quote;
  const result = await api.call({
    ...options,
    endpoint: 'quoteSinglePackage',
    method: 'GET',
    path: 'quote/',
    query: {
      ...route,
      ...pkg,
      value: value?.toNumber(),
      insurance: insurance instanceof Money ? insurance.toNumber() : insurance,
    },
    result: quoteAnswer,
  });
  return result.services;
}
