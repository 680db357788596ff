/**
 * A service that repeats an earlier accept's payment in its later answers (test/helpers/fault-server.ts,
 * mode `echo` with `earlier`): the answers of `order get`, `order create`, `order cancel`,
 * `order accept` (and its wait), `shipment create`, `shipment combine`, `quote`, `card list` and
 * `book` carry the card number and CVV of the last
 * accept, also to a run that never read that card. Every command that prints an answer, in every
 * format and with `--debug`, the report, JUnit, the journal, `history` and every file of the state
 * directory (the ledger) are searched for the card number and the CVV. The expected count is 0.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileServiceEnv } from '../helpers/fault-server.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { runShipbook } from '../helpers/run.js';

const KEY = 'sk_test_echo_earlier_0123456789';
const CARD = '5555555555554444';
const CVV = '737';
const { server, env } = hostileServiceEnv(KEY);

/** Every form of the card details that must not appear, with a name for the failure message. */
const FORMS: Array<[string, RegExp]> = [
  ['card number', new RegExp(CARD)],
  ['card number with spaces', /5555 5555 5555 4444/],
  ['card number with dashes', /5555-5555-5555-4444/],
  // The CVV as a word of its own (a duration such as `737 ms` in --debug is not one).
  ['CVV', new RegExp(`(?<![A-Za-z0-9.,])${CVV}(?![A-Za-z0-9.,]| ms)`)],
];

/** The names of the forms found in `text`. */
function leaks(text: string): string[] {
  return FORMS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push([path, readFileSync(path, 'utf8')]);
  }
  return out;
}

const FORMATS = [[], ['--json'], ['--output', 'yaml'], ['--output', 'ndjson'], ['--output', 'table'], ['--output', 'tsv'], ['--debug'], ['--debug', '--json']];

/** A shipment of the domestic fixture as the service shows it, with the earlier accept in its service name. */
const domestic = (tracking: string) => ({
  id: 'SHP-E1',
  status: 'NEW',
  transient_id: 'SO-10482',
  tracking_number: tracking,
  service: { code: 'SB-DOM-ROAD', name: '{{earlier}}' },
});
const order = (status: string, tracking = 'N/A') => ({ order: { id: 'ORD-ECHO1', status, price: { total: 47.3 }, shipments: [domestic(tracking)] } });

/** Routes of a service that echoes the last accept in every answer about an order or shipment. */
function echoingService(): void {
  server.set('POST /orders/', { mode: 'echo', earlier: true, result: order('new') });
  server.set('PUT /orders/ORD-ECHO1/accept/', { mode: 'echo', earlier: true, status: 201, result: order('ACC') });
  server.set('GET /orders/ORD-ECHO1/', { mode: 'echo', earlier: true, result: order('processed', 'TRK0001') });
  server.set('PUT /orders/ORD-ECHO1/cancel/', { mode: 'echo', earlier: true, result: order('cancelled') });
  server.set('POST /shipments/', {
    mode: 'echo',
    earlier: true,
    result: {
      shipment: { id: 'SHP-C1', status: 'NEW', transient_id: 'BB-JP-0918', tracking_number: 'N/A', service: { code: 'SB-GLOBAL-MAIL', name: '{{earlier}}' } },
    },
  });
  // A quote of one package may be asked by GET (quote/ with plain parameters): both answer the same.
  for (const route of ['POST /quote/', 'GET /quote/']) {
    server.set(route, {
      mode: 'echo',
      earlier: true,
      result: {
        services: [
          {
            code: 'SB-DOM-ROAD',
            name: '{{earlier}}',
            carrier: 'Sandbox Freight',
            global_mail: false,
            price: { currency: 'AUD', amount: 43, total: 47.3, gst: 4.3, insurance: 0 },
          },
        ],
      },
    });
  }
  server.set('GET /credit-cards/', {
    mode: 'echo',
    earlier: true,
    result: { credit_cards: [{ id: 'card_1', brand: 'Mastercard', last_four: '4444', expire: '08/29', holder_name: '{{earlier}}' }] },
  });
  server.set('PUT /shipments/', {
    mode: 'echo',
    earlier: true,
    result: {
      order: {
        id: 'ORD-P1',
        status: 'NEW',
        shipments: ['SHP-A', 'SHP-B', 'SHP-M'].map((id) => ({ id, status: 'PEN', service: { code: 'SB-GLOBAL-MAIL', name: '{{earlier}}' } })),
      },
    },
  });
}

describe('a service that echoes an earlier payment in its order answers', () => {
  it('shows no card number or CVV in any command, format, --debug, report, JUnit, journal, history or ledger file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-echo-earlier-'));
    const payment = join(dir, 'card.yaml');
    writeFileSync(
      payment,
      `order:\n  payment:\n    type: credit_card\n    credit_card:\n      number: "5555 5555 5555 4444"\n      cvv: "${CVV}"\n      holder_name: Priya Raman\n      expire: "08/29"\n`,
    );
    const state = join(dir, 'state');
    const runEnv = env({ SHIPBOOK_STATE_DIR: state });
    echoingService();
    const runs: Array<[string, CliResult]> = [];
    const run = async (args: string[]) => runs.push([args.join(' '), await runShipbook(args, { env: runEnv })]);
    // The accept that the service will repeat from now on (this run knows the card).
    await run(['order', 'accept', 'ORD-ECHO1', '--payment-file', payment]);
    for (const format of FORMATS) {
      // Runs that never read the card: only the answers carry it.
      await run(['order', 'get', 'ORD-ECHO1', ...format]);
      await run(['order', 'create', 'fixtures/orders/domestic-syd-mel.yaml', '--again', ...format]);
      await run(['order', 'cancel', 'ORD-ECHO1', ...format]);
      await run(['shipment', 'create', 'fixtures/shipments/au-jp-1.yaml', ...format]);
      await run(['shipment', 'combine', 'SHP-A', 'SHP-B', '--main', 'fixtures/shipments/main-to-hub.yaml', ...format]);
      await run(['order', 'accept', 'ORD-ECHO1', '--payment-file', payment, ...format]);
      await run(['order', 'accept', 'ORD-ECHO1', '--payment-file', payment, '--wait', '--poll', '20ms', ...format]);
      await run(['quote', 'fixtures/quotes/syd-mel-single.yaml', ...format]);
      await run(['card', 'list', ...format]);
    }
    // A batch of one with its files, booked to the end (polling), by the built launcher, and again in
    // YAML: each with a ledger of its own, where the document was never booked.
    const files = { report: join(dir, 'report.json'), junit: join(dir, 'junit.xml'), journal: join(dir, 'journal.ndjson') };
    const bookStates = [join(dir, 'state-book-1'), join(dir, 'state-book-2')] as const;
    const book = ['book', 'fixtures/orders/domestic-syd-mel.yaml', '--payment-file', payment, '--poll', '20ms'];
    runs.push([
      'book --json',
      await runCli([...book, '--journal', files.journal, '--report', files.report, '--junit', files.junit, '--json'], {
        env: env({ SHIPBOOK_STATE_DIR: bookStates[0] }),
        timeoutMs: 60_000,
      }),
    ]);
    runs.push(['book --output yaml', await runShipbook([...book, '--output', 'yaml'], { env: env({ SHIPBOOK_STATE_DIR: bookStates[1] }) })]);
    for (const format of FORMATS) await run(['history', ...format]);

    for (const [args, r] of runs) {
      expect(r.code, `${args}\n${r.stderr}`).toBe(0);
      expect(leaks(r.stdout + r.stderr), `${args}\n${r.stdout}${r.stderr}`).toEqual([]);
    }
    // The answers did carry the payment (masked), so the search above looked at it.
    const get = runs.find(([args]) => args === 'order get ORD-ECHO1 --json')![1];
    expect(get.stdout).toContain('****4444');
    expect(get.stdout).toMatch(/"cvv": ?"\*\*\*"/);
    for (const args of ['quote fixtures/quotes/syd-mel-single.yaml --json', 'card list --json', 'shipment create fixtures/shipments/au-jp-1.yaml --json']) {
      expect(runs.find(([a]) => a === args)![1].stdout, `${args}\n${runs.find(([a]) => a === args)![1].stdout}`).toContain('****4444');
    }
    expect(runs.find(([args]) => args === 'history --json')![1].stdout).toContain('ORD-ECHO1');
    const written = [
      ...Object.values(files).map((path): [string, string] => [path, readFileSync(path, 'utf8')]),
      ...[state, ...bookStates].flatMap(filesUnder),
    ];
    expect(written.length).toBeGreaterThan(Object.keys(files).length);
    for (const [path, text] of written) expect(leaks(text), `${path}:\n${text}`).toEqual([]);
    // The service did get the card, and did repeat it in its answers.
    expect(server.requests.some((q) => q.body.includes(`"cvv":"${CVV}"`))).toBe(true);
  }, 240_000);
});
