/**
 * One request as the client sends it, built once per call and shared by its attempts: the
 * endpoint's row, the full URL, the headers (`Accept`, `User-Agent: shipbook/<version>`, the auth
 * header of the profile: docs/assumptions.md, `Authorization: Bearer <key>` by default) and the
 * JSON body in wire form.
 */
import { urlUnder, type Query } from './base-url.js';
import { ENDPOINTS, fillPath, type Endpoint, type EndpointBodies, type EndpointName, type Method } from './endpoints.js';
import type { FailedCall } from './outcome.js';
import { wirePayload } from './wire.js';
import { VERSION } from '../version.js';

/** How the API key is sent: as `<authPrefix><apiKey>` in the `authHeader` header. */
export interface AuthSettings {
  /** API key; no auth header without it. */
  apiKey?: string;
  /** Header name for the key (default `Authorization`). */
  authHeader?: string;
  /** Value prefix before the key (default `Bearer `). */
  authPrefix?: string;
}

/** What a request gives besides its endpoint's name: path parameters, body, query. */
export interface RequestParts {
  /** A path template replacing the table's (a profile's `paths.*` setting); `{…}` names are filled from `params`. */
  path?: string;
  /** Values of the path's `{order_id}`, `{service_code}` (URI-encoded when filled in). */
  params?: Readonly<Record<string, string>>;
  /** The request body, in request form; absent for the reads. */
  body?: unknown;
  /** Query parameters (`GET /quote/`). */
  query?: Query;
  /** The method of a request typed by hand (`shipbook api`), over the endpoint's. */
  method?: Method;
}

/** {@link RequestParts} of a call to endpoint `N`, its body typed (see {@link EndpointBodies}). */
export interface CallArgs<N extends EndpointName> extends RequestParts {
  body?: EndpointBodies[N];
}

/** A request ready to send: what every attempt of a call uses, and what its errors name. */
export interface PreparedRequest extends FailedCall {
  method: Method;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The JSON text of the body, undefined for a call without one. */
  payload: string | undefined;
}

/**
 * Builds the request of a call to endpoint `name` under the normalised `baseUrl`.
 * @throws TypeError when the body is not JSON-serialisable
 */
export function prepareRequest(auth: AuthSettings, baseUrl: string, name: EndpointName, args: RequestParts): PreparedRequest {
  const endpoint: Endpoint = ENDPOINTS[name];
  const url = urlUnder(baseUrl, fillPath(args.path ?? endpoint.path, args.params), args.query);
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `shipbook/${VERSION}` };
  const { apiKey, authHeader = 'Authorization', authPrefix = 'Bearer ' } = auth;
  if (apiKey) headers[authHeader.toLowerCase()] = `${authPrefix}${apiKey}`;
  let payload: string | undefined;
  if (args.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = wirePayload(args.body);
  }
  return { endpoint, method: args.method ?? endpoint.method, url, path: url.slice(baseUrl.length), headers, payload };
}
