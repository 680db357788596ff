import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { planBooking } from '../../src/booking/plan.js';

const api = new ApiClient({ baseUrl: 'https://api.example.com/v1/', apiKey: 'sk_live_plan_12345678' });
const accept = async (orderId: string) => ({ order: { id: orderId, payment: { type: 'credit' as const } } }) as never;

describe('planBooking', () => {
  it('plans create then accept for a regular order, with the key masked', async () => {
    const plan = await planBooking({ kind: 'regular', order: { order: { shipments: [] } } as never }, { api, accept });
    expect(plan.map((p) => `${p.method} ${p.url}`)).toEqual([
      'POST https://api.example.com/v1/orders/',
      'PUT https://api.example.com/v1/orders/<order id>/accept/',
    ]);
    expect(plan[0]!.headers.authorization).toBe('Bearer ****5678');
    expect(JSON.stringify(plan)).not.toContain('sk_live_plan_12345678');
  });

  it('plans each shipment, the combine with placeholder ids, then the parent accept', async () => {
    const booking = { shipments: [{ description: 'a' }, { description: 'b' }], main_shipment: { description: 'main' } };
    const plan = await planBooking({ kind: 'consolidated', booking } as never, { api, accept });
    expect(plan.map((p) => p.endpoint)).toEqual(['createShipment', 'createShipment', 'combineShipments', 'acceptOrder']);
    expect(plan[2]!.body).toMatchObject({ request: { shipments: ['<shipment id 1>', '<shipment id 2>'], main_shipment: { description: 'main' } } });
    expect(plan[3]!.url).toBe('https://api.example.com/v1/orders/<parent order id>/accept/');
  });

  it('plans only the accept of an existing pending order', async () => {
    const plan = await planBooking({ kind: 'pending', orderId: 'ORD-1' }, { api, accept });
    expect(plan.map((p) => p.url)).toEqual(['https://api.example.com/v1/orders/ORD-1/accept/']);
  });
});
