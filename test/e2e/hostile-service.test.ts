/**
 * shipbook against a service that misbehaves (test/helpers/fault-server.ts): lost answers, echoed
 * secrets, oversized and malformed answers. What reaches the terminal (echoed secrets, control
 * characters) goes through bin/shipbook.js; the rest runs in-process.
 */
import { describe, expect, it } from 'vitest';
import { hostileServiceEnv, startFaultServer } from '../helpers/fault-server.js';
import { runShipbook } from '../helpers/run.js';
import { runCli } from '../helpers/cli.js';

const KEY = 'sk_test_hostile0123456789abcdef';
const { server, env } = hostileServiceEnv(KEY);

describe('a service that loses, echoes, floods and garbles its answers', () => {
  it('says a create whose answer was lost was sent and may have created the order, never "cannot reach" or "try again"', async () => {
    server.set('POST /orders/', { mode: 'close-after-request' });
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env: env() });
    expect(r.code).toBe(5);
    expect(server.requests.filter((q) => q.path === '/orders/')).toHaveLength(1); // never repeated
    expect(r.stderr).toMatch(/was sent but its answer was lost/);
    expect(r.stderr).toMatch(/the order may have been created/);
    expect(r.stderr).toMatch(/Do not create it again/);
    expect(r.stderr).not.toMatch(/cannot reach/);
    expect(r.stderr).not.toMatch(/try again/i);
  });

  it('reports a lost answer with sent and the endpoint in --json', async () => {
    server.set('POST /orders/', { mode: 'close-after-request' });
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: env() });
    expect(r.code).toBe(5);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'answer_lost', exit_code: 5 });
  });

  it('never prints the CVV or card number that the service echoes in its error, in text, --json or --debug', async () => {
    server.set('PUT /orders/ORD-ECHO/accept/', { mode: 'echo-error' });
    for (const extra of [[], ['--json'], ['--debug']]) {
      const r = await runCli(['order', 'accept', 'ORD-ECHO', '--payment-file', 'fixtures/payments/credit-card.yaml', ...extra], { env: env() });
      expect(r.code).toBe(3);
      const printed = r.stdout + r.stderr;
      expect(printed).toMatch(/invalid request/); // the echo is shown …
      expect(printed).not.toMatch(/"cvv":"123"/); // … without the CVV
      expect(printed).not.toMatch(/(?<![0-9])123(?![0-9])/);
      expect(printed).not.toContain('4111 1111 1111 1111');
      expect(printed).not.toContain('4111111111111111');
      expect(printed).not.toContain(KEY);
    }
    expect(server.requests.at(-1)!.body).toContain('"cvv":"123"'); // the service did get it
  });

  it('shows control characters in a service error message as escapes, never sending them to the terminal', async () => {
    server.set('POST /quote/', { mode: 'status', status: 400, message: 'bad\u001b[2J\u001b]8;;http://evil/\u0007link\u009b31m' });
    const r = await runCli(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: env() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('bad\\x1b[2J\\x1b]8;;http://evil/\\x07link\\x9b31m');
    expect(r.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  });

  it('retries a bad poll (a non-JSON 200, a 404) and books when the next one answers', async () => {
    server.set('PUT /orders/ORD-T1/accept/', { mode: 'ok', result: { order: { id: 'ORD-T1', status: 'ACC', shipments: [] } } });
    server.set('GET /orders/ORD-T1/', [
      { mode: 'malformed', text: '<html>oops</html>' },
      { mode: 'status', status: 404 },
      { mode: 'ok', result: { order: { id: 'ORD-T1', status: 'processed', shipments: [{ id: 'SHP-1', tracking_number: 'TRK0000001' }] } } },
    ]);
    const r = await runShipbook(['order', 'accept', 'ORD-T1', '--payment', 'credit', '--wait', '--poll', '20ms', '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { order: { state: string } }).order.state).toBe('processed');
    expect(r.stderr).toContain('still polling');
  });

  it('ends a wait whose polls keep failing by naming the order and its last state, as fields in --json', async () => {
    server.set('PUT /orders/ORD-T2/accept/', { mode: 'ok', result: { order: { id: 'ORD-T2', status: 'ACC', shipments: [] } } });
    server.set('GET /orders/ORD-T2/', [{ mode: 'malformed', text: JSON.stringify({ message: 'OK', code: 200, result: { order: 'not an order' } }) }]);
    const r = await runShipbook(['order', 'accept', 'ORD-T2', '--payment', 'credit', '--wait', '--poll', '20ms', '--json'], { env: env() });
    // The order is accepted (paid): its result is pending, never a failure (exit 7).
    expect(r.code).toBe(7);
    const { error } = JSON.parse(r.stdout) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'result_unreadable', exit_code: 7, order_id: 'ORD-T2', last_state: 'accepted', stage: 'accepted' });
    expect(error.message).toContain('could not read the booking result of order ORD-T2 (last seen accepted)');
    expect(error.suggestion).toContain('do not book it again');
    expect(error.suggestion).toContain('shipbook order get ORD-T2');
    expect(server.requests.filter((q) => q.method === 'GET')).toHaveLength(3);
  });

  it('ends a wait whose poll hangs at --timeout (exit 7), not at the 60 s request deadline', async () => {
    server.set('PUT /orders/ORD-T3/accept/', { mode: 'ok', result: { order: { id: 'ORD-T3', status: 'ACC', shipments: [] } } });
    server.set('GET /orders/ORD-T3/', { mode: 'stall' });
    const r = await runShipbook(['order', 'accept', 'ORD-T3', '--payment', 'credit', '--wait', '--poll', '100ms', '--timeout', '1s'], { env: env() });
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('order ORD-T3 is accepted and the booking is still running');
  }, 15_000);

  it('reports a 200 quote answer without services as a protocol error (exit 5), not "no service offered"', async () => {
    server.set('POST /quote/', { mode: 'malformed', text: JSON.stringify({ message: 'OK', code: 200, result: {} }) });
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: env() });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/unexpected shape: result\.services/);
  });

  it('stops reading an oversized answer and says it is too large (exit 5)', async () => {
    server.set('POST /quote/', { mode: 'flood', bytes: 24 * 1024 * 1024 });
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: env(), timeoutMs: 30_000 });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/the service's answer is too large: more than 8 MiB/);
    expect(r.stderr).not.toMatch(/cannot reach/);
  });

  it('keeps "cannot reach … check the base URL" for a service that refuses connections', async () => {
    const dead = await startFaultServer();
    const url = dead.url;
    await dead.close();
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml'], { env: { SHIPBOOK_BASE_URL: url, SHIPBOOK_API_KEY: KEY } });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/cannot reach the service/);
    expect(r.stderr).toMatch(/base URL/);
  });
});

describe('a service that trickles its answer (a total deadline on every request, not only between bytes)', () => {
  it('ends a quote whose answer trickles at the SHIPBOOK_TIMEOUT deadline, as a timeout (exit 5)', async () => {
    server.set('POST /quote/', { mode: 'trickle', intervalMs: 200 });
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: { ...env(), SHIPBOOK_TIMEOUT: '600ms' } });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/did not answer|time/i);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('ends an order create whose answer trickles at the deadline, sent once, saying the order may exist', async () => {
    server.set('POST /orders/', { mode: 'trickle', intervalMs: 200 });
    const r = await runShipbook(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--json'], { env: { ...env(), SHIPBOOK_TIMEOUT: '600ms' } });
    expect(r.code).toBe(5);
    expect(server.requests.filter((q) => q.path === '/orders/')).toHaveLength(1);
    const error = JSON.parse(r.stdout).error;
    expect(error).toMatchObject({ code: 'timeout', sent: true });
    expect(r.stderr).toMatch(/may have been created/);
    expect(r.stderr).not.toMatch(/try again/i);
  });

  it('refuses a SHIPBOOK_TIMEOUT that is not a duration (exit 4) and sends nothing', async () => {
    const r = await runShipbook(['quote', 'fixtures/quotes/syd-mel-single.yaml'], { env: { ...env(), SHIPBOOK_TIMEOUT: 'soon' } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/SHIPBOOK_TIMEOUT "soon" is not a duration/);
    expect(server.requests).toHaveLength(0);
  });
});
