/** The body of `shipbook api` from -f/-F fields, as gh api builds one, and the endpoint a request typed by hand is. */
import { describe, expect, it } from 'vitest';
import { bodyOfFields, queryOfFields } from '../../src/commands/api/fields.js';
import { endpointOfRequest } from '../../src/api/by-hand.js';
import { DEFAULT_ORDER_PATHS } from '../../src/api/orders.js';

const files = async (name: string) => `text of ${name}`;

describe('api fields', () => {
  it('nests bracketed keys, appends with [], types -F values and reads @file', async () => {
    const body = await bodyOfFields(
      [
        { text: 'order[payment][type]=credit', typed: false },
        { text: 'order[shipments][0][packages][0][weight]=2.5', typed: true },
        { text: 'order[shipments][0][description]=12', typed: false },
        { text: 'tags[]=a', typed: false },
        { text: 'tags[]=true', typed: true },
        { text: 'note=@memo.txt', typed: true },
        { text: 'none=null', typed: true },
      ],
      files,
    );
    expect(body).toEqual({
      order: { payment: { type: 'credit' }, shipments: [{ packages: [{ weight: 2.5 }], description: '12' }] },
      tags: ['a', true],
      note: 'text of memo.txt',
      none: null,
    });
  });

  it('refuses a field without "=" and keys that contradict each other', async () => {
    await expect(bodyOfFields([{ text: 'currency', typed: false }], files)).rejects.toThrow('-f currency: a field is key=value');
    await expect(
      bodyOfFields(
        [
          { text: 'a=1', typed: false },
          { text: 'a[b]=2', typed: false },
        ],
        files,
      ),
    ).rejects.toThrow('a has a value of its own');
  });

  it('gives a GET its fields as flat query parameters', async () => {
    expect(await queryOfFields([{ text: 'weight=2.5', typed: true }], files)).toEqual({ weight: '2.5' });
    await expect(queryOfFields([{ text: 'a[b]=1', typed: false }], files)).rejects.toThrow('do not nest');
  });
});

describe('the endpoint of a request typed by hand', () => {
  it('is the table row of its method and path (the profile paths included), else a read or a change by hand', () => {
    expect(endpointOfRequest('POST', '/orders/', DEFAULT_ORDER_PATHS)).toEqual({ name: 'createOrder', params: {} });
    expect(endpointOfRequest('PUT', 'orders/ORD-1/accept', DEFAULT_ORDER_PATHS)).toEqual({ name: 'acceptOrder', params: { order_id: 'ORD-1' } });
    expect(endpointOfRequest('GET', 'orders/ORD-1/', DEFAULT_ORDER_PATHS)).toEqual({ name: 'fetchOrder', params: { order_id: 'ORD-1' } });
    expect(endpointOfRequest('GET', 'v2/order/ORD-1', { ...DEFAULT_ORDER_PATHS, fetchOrder: 'v2/order/{order_id}' }).name).toBe('fetchOrder');
    expect(endpointOfRequest('GET', 'somewhere/', DEFAULT_ORDER_PATHS).name).toBe('byHandRead');
    expect(endpointOfRequest('DELETE', 'orders/ORD-1/', DEFAULT_ORDER_PATHS).name).toBe('byHandChange');
  });
});
