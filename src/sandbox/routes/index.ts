/**
 * The sandbox's routing table: every route module, one line each.
 *
 * To add a module: write `src/sandbox/routes/<name>.ts` exporting `export const <name>Routes:
 * Route[] = [{method: 'POST', pattern: '/<path>/', auth: true, handler}, …]`, import it here and
 * add `...<name>Routes,` below. Routes are tried in order; the first whose method and pattern
 * match handles the request. See {@link Route}.
 */
import type { Route } from '../http.js';
import { accountRoutes } from './accounts.js';
import { orderRoutes } from './orders.js';
import { quoteRoutes } from './quote.js';
import { shipmentRoutes } from './shipments.js';
import { testHookRoutes } from './test-hooks.js';

/** All routes of the sandbox, in matching order. */
export const ROUTES: readonly Route[] = [...quoteRoutes, ...orderRoutes, ...shipmentRoutes, ...accountRoutes, ...testHookRoutes];
