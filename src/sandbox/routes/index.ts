/**
 * The sandbox's routing table: every route module, one line each.
 *
 * To add a module (e.g. create shipment and combine): write `src/sandbox/routes/shipments.ts`
 * exporting `export const shipmentRoutes: Route[] = [{method: 'POST', pattern: '/shipments/',
 * auth: true, handler}, …]`, import it here and add `...shipmentRoutes,` below. Routes are tried
 * in order; the first whose method and pattern match handles the request. See {@link Route}.
 */
import type { Route } from '../http.js';
import { orderRoutes } from './orders.js';
import { quoteRoutes } from './quote.js';

/** All routes of the sandbox, in matching order. */
export const ROUTES: readonly Route[] = [
  ...quoteRoutes,
  ...orderRoutes,
  // ...shipmentRoutes,  (POST /shipments/ and PUT /shipments/, to come)
];
