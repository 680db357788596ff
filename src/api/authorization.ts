/**
 * Which operations need credentials (interface document, "Authentication": create order, accept
 * order, create shipment and combine shipments require authorization; get quote accepts it as
 * optional). Without a key the client refuses these before anything is sent, rather than sending
 * an unauthorised request that a lax server might accept, or that is refused only after the
 * earlier steps of a flow already ran.
 */
import { ConfigError, cmd, type Hint } from '../errors.js';
import type { Endpoint, EndpointName } from './endpoints.js';

/** The endpoints that require authorization. */
export const AUTHORIZATION_REQUIRED: ReadonlySet<EndpointName> = new Set<EndpointName>(['createOrder', 'acceptOrder', 'createShipment', 'combineShipments']);

/** The hint of {@link missingKeyError}: the two ways to give a key. */
const MISSING_KEY_SUGGESTION: Hint = ['Log in with: ', cmd('auth', 'login'), ', or set SHIPBOOK_API_KEY (in CI, from a secret).'];

/**
 * The refusal of an operation that requires authorization when the client has no key: exit 4,
 * nothing sent; its hint names how to give a key ({@link MISSING_KEY_SUGGESTION}).
 */
export function missingKeyError(endpoint: Endpoint): ConfigError {
  return new ConfigError(`${endpoint.title} requires authorization and no API key is configured: nothing was sent`, { suggestion: MISSING_KEY_SUGGESTION });
}
