/** Get quote: interface document, "Get quote: POST /quote/" and "GET /quote/". */
import type { QuoteRequest, QuoteServiceEntry } from '../schema/quote.js';
import { Money } from '../schema/money.js';
import type { ApiClient, RequestOptions } from './client.js';

/**
 * `POST /quote/` (endpoint `quote`, safe: retried on transient failures): the services and prices
 * for a route and packages. Amounts in AUD.
 * @throws ProtocolError (exit 5) when the answer has no list of services; as {@link ApiClient.call} otherwise.
 */
export async function quoteServices(api: ApiClient, quote: QuoteRequest, options: RequestOptions = {}): Promise<QuoteServiceEntry[]> {
  const result = await api.call('quote', { body: quote }, options);
  return result.services;
}

/** Names of the query parameters that carry the package in `GET /quote/`, by package field. */
export interface QuotePackageParams {
  length: string;
  width: string;
  height: string;
  weight: string;
  unit: string;
}

/**
 * The assumed names of the package parameters of `GET /quote/`: the interface document says they
 * are "passed as plain parameters" but does not show their names; these are the package fields'
 * own names, each a setting of the profile (`quote-params.<field>`).
 */
export const DEFAULT_QUOTE_PACKAGE_PARAMS: Readonly<QuotePackageParams> = Object.freeze({
  length: 'length',
  width: 'width',
  height: 'height',
  weight: 'weight',
  unit: 'unit',
});

/**
 * `GET /quote/` for a single package: the route, `value`, `insurance` and `currency` under their
 * POST names, the package as plain query parameters named by `params` (default
 * {@link DEFAULT_QUOTE_PACKAGE_PARAMS}).
 * @throws RangeError when the quote has more than one package.
 * @throws ProtocolError (exit 5) when the answer has no list of services; as {@link ApiClient.call} otherwise.
 */
export async function quoteServicesSinglePackage(
  api: ApiClient,
  quote: QuoteRequest,
  options: RequestOptions = {},
  params: QuotePackageParams = DEFAULT_QUOTE_PACKAGE_PARAMS,
): Promise<QuoteServiceEntry[]> {
  const [pkg, ...more] = quote.packages;
  if (!pkg || more.length > 0) throw new RangeError('GET /quote/ takes exactly one package');
  const { packages: _packages, insurance, value, ...route } = quote;
  const query = {
    ...route,
    [params.length]: pkg.length,
    [params.width]: pkg.width,
    [params.height]: pkg.height,
    [params.weight]: pkg.weight,
    [params.unit]: pkg.unit,
    value: value?.toNumber(),
    insurance: insurance instanceof Money ? insurance.toNumber() : insurance,
  };
  const result = await api.call('quoteSinglePackage', { query }, options);
  return result.services;
}
