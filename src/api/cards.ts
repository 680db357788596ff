/**
 * fetch-credit-card (interface document, "Accept order": the stored card id "is obtained from a
 * fetch-credit-card operation"; path not shown, assumed `GET /credit-cards/`, setting
 * `paths.fetch-credit-cards` of the profile).
 */
import type { StoredCard } from '../schema/card.js';
import type { ApiClient, RequestOptions } from './client.js';
import { DEFAULT_ORDER_PATHS, type OrderPaths } from './orders.js';

/**
 * The stored cards of the account (endpoint `fetchCreditCards`, safe: retried on transient
 * failures). Authorization required; the usual envelope, `result.credit_cards`.
 * @throws ApiError (exit 3) when the service refuses, e.g. 404 when the profile's path is wrong
 */
export async function fetchCreditCards(
  api: ApiClient,
  paths: Pick<OrderPaths, 'fetchCreditCards'> = DEFAULT_ORDER_PATHS,
  options: RequestOptions = {},
): Promise<StoredCard[]> {
  return (await api.call('fetchCreditCards', { path: paths.fetchCreditCards }, options)).credit_cards;
}
