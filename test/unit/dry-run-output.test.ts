import { describe, expect, it } from 'vitest';
import { ApiClient, type PlannedRequest } from '../../src/api/client.js';
import { DryRunHalt } from '../../src/errors.js';
import { acceptOrder } from '../../src/api/orders.js';
import { plannedRequestsData, renderPlannedRequests } from '../../src/output/dry-run.js';

const KEY = 'sk_live_abcdefgh12345678';

async function plannedAccept(): Promise<PlannedRequest[]> {
  const planned: PlannedRequest[] = [];
  const api = new ApiClient({ baseUrl: 'https://api.example.com/', apiKey: KEY, dryRun: (p) => void planned.push(p) });
  await expect(
    acceptOrder(api, 'ORD-1', {
      payment: { type: 'credit_card', credit_card: { number: '4111111111111111', cvv: '737', expiry: '12/29', name: 'A B' } },
    } as never),
  ).rejects.toBeInstanceOf(DryRunHalt);
  return planned;
}

describe('dry-run output', () => {
  it('shows method, URL, headers and body, with key, card number and CVV redacted', async () => {
    const text = renderPlannedRequests(await plannedAccept());
    expect(text).toContain('PUT https://api.example.com/orders/ORD-1/accept/');
    expect(text).toMatch(/authorization: Bearer \*\*\*\*5678/);
    expect(text).toContain('"****1111"');
    expect(text).toContain('"***"');
    for (const secret of [KEY, '4111111111111111', '"737"']) expect(text).not.toContain(secret);
  });

  it('gives the same redacted requests as data', async () => {
    const data = plannedRequestsData(await plannedAccept());
    expect(data).toMatchObject({ dry_run: true, sent: false });
    expect(JSON.stringify(data)).not.toMatch(/4111111111111111|sk_live_abcdefgh12345678|"737"/);
  });
});
