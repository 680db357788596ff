/**
 * fetch-service-data (interface document, "Create shipment": the collection data of a
 * consolidated-mail shipment "is obtained from a fetch-service-data operation"; path not shown,
 * assumed `GET /services/{service_code}/`, setting `paths.fetch-service-data` of the profile).
 */
import type { ServiceData } from '../schema/service-data.js';
import type { ApiClient, RequestOptions } from './client.js';
import { DEFAULT_ORDER_PATHS, type OrderPaths } from './orders.js';

/**
 * The data of the service `code` (endpoint `fetchServiceData`, safe): name, carrier,
 * `global_mail`, and for consolidated mail the `collection_data` its shipments carry.
 * Authorization required; the usual envelope, `result.service`.
 * @throws ApiError (exit 3), e.g. 404 for a service code the service does not know
 */
export async function fetchServiceData(
  api: ApiClient,
  code: string,
  paths: Pick<OrderPaths, 'fetchServiceData'> = DEFAULT_ORDER_PATHS,
  options: RequestOptions = {},
): Promise<ServiceData> {
  return (await api.call('fetchServiceData', { path: paths.fetchServiceData, params: { service_code: code } }, options)).service;
}
