/**
 * Which endpoint of the table a request typed by hand (`shipbook api <METHOD> <path>`) is, so that
 * it is sent as that endpoint would be (safe or mutating, its retries, whether it needs the key) and
 * the ledger can take a create or an accept in hand first. A path the table does not know is a
 * read by hand (GET) or a change by hand (any other method).
 */
import { ENDPOINTS, type EndpointName, type Method } from './endpoints.js';
import type { OrderPaths } from './orders.js';

/** The endpoint a request typed by hand is, and the values of its path's `{…}` names. */
interface ByHandEndpoint {
  name: EndpointName;
  /** `order_id`, `service_code` as the path gave them (decoded). */
  params: Record<string, string>;
}

/** The endpoints a request typed by hand may be, in the order they are tried. */
const KNOWN: readonly EndpointName[] = [
  'quote',
  'quoteSinglePackage',
  'createOrder',
  'acceptOrder',
  'fetchOrder',
  'cancelOrder',
  'fetchCreditCards',
  'fetchServiceData',
  'createShipment',
  'combineShipments',
];

/** `orders/{order_id}/accept/` as a pattern of a whole path: each `{name}` one path segment. */
function patternOf(template: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const body = template
    .replace(/^\/+/, '')
    .split(/(\{[a-z_]+\})/)
    .map((part) => {
      const m = /^\{([a-z_]+)\}$/.exec(part);
      if (m) {
        names.push(m[1]!);
        return '([^/]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  // A trailing slash is optional either way (`orders/ORD-1` is `orders/{order_id}/`).
  return { re: new RegExp(`^${body.replace(/\/$/, '')}/?$`), names };
}

/**
 * The endpoint of `method` and `path` (relative to the base URL, without its query), with the
 * profile's paths of fetch-order-data, cancel-order, fetch-credit-card and fetch-service-data.
 */
export function endpointOfRequest(method: Method, path: string, paths: OrderPaths): ByHandEndpoint {
  const bare = path.replace(/^\/+/, '').split('?')[0]!;
  for (const name of KNOWN) {
    const e = ENDPOINTS[name];
    if (e.method !== method) continue;
    const template = name in paths ? paths[name as keyof OrderPaths] : e.path;
    const { re, names } = patternOf(template);
    const m = re.exec(bare);
    if (m === null) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1]!)));
    return { name, params };
  }
  return { name: method === 'GET' ? 'byHandRead' : 'byHandChange', params: {} };
}
