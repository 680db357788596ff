/**
 * The two referenced operations (stored cards and service data), at their assumed paths: fetch-credit-card
 * (`GET /credit-cards/`: the sandbox account's stored cards, seeded and saved at acceptance,
 * masked) and fetch-service-data (`GET /services/{service_code}/`: name, carrier, `global_mail`
 * and, for consolidated mail, the `collection_data` its shipments carry). Both require
 * authorisation and answer with the usual envelope; an unknown service code is a 404 naming it.
 */
import { notFound, type Route } from '../http.js';
import { storedCardWire, storedCards } from '../cards.js';
import { SERVICES, serviceByCode } from '../rates.js';
import { serviceDataWire } from '../services.js';

/** Routes of fetch-credit-card and fetch-service-data. */
export const accountRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/credit-cards/',
    auth: true,
    handler: (_req, ctx) => ({ result: { credit_cards: storedCards(ctx.state.store).map((c) => storedCardWire(c, ctx.now())) } }),
  },
  {
    method: 'GET',
    pattern: '/services/:service_code/',
    auth: true,
    stateful: false,
    handler: (req) => {
      const code = req.params.service_code!;
      const service = serviceByCode(code) ?? serviceByCode(code.toUpperCase());
      if (!service) {
        throw notFound(`unknown service code ${code}`, [
          { field: 'service_code', message: `unknown service code ${code}; the sandbox offers ${SERVICES.map((s) => s.code).join(', ')}` },
        ]);
      }
      return { result: { service: serviceDataWire(service) } };
    },
  },
];
