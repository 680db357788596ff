/**
 * Service-selection rules (src/booking/rules/): every condition and every action, over quote
 * entries that carry only what the interface's quote carries (code, name, carrier, global_mail,
 * price), and the rules file's problems at file:line:col.
 */
import { describe, expect, it } from 'vitest';
import { parseInput } from '../../src/input/parse.js';
import {
  applyDecision,
  australianState,
  checkRules,
  chooseService,
  decideOrder,
  documentTags,
  shipmentFacts,
  type Choice,
  type RatedEntry,
  type Refusal,
  type RuleSet,
  type ShipmentFacts,
} from '../../src/booking/rules/index.js';

/** Reads a rules file from text, failing the test with its problems. */
function rules(text: string): RuleSet {
  const checked = checkRules(parseInput('rules.yaml', Buffer.from(text)));
  if ('issues' in checked) throw new Error(checked.issues.map((i) => `${i.line}:${i.column} ${i.path} ${i.message}`).join('\n'));
  return checked.rules;
}

/** The problems of a rules file, as `line:col path message`. */
function problems(text: string): string[] {
  const checked = checkRules(parseInput('rules.yaml', Buffer.from(text)));
  return 'issues' in checked ? checked.issues.map((i) => `${i.line}:${i.column} ${i.path} ${i.message}`) : [];
}

const entry = (code: string, carrier: string, total: number, name = code, global_mail = false): RatedEntry => ({
  code,
  name,
  carrier,
  global_mail,
  total_cents: total,
});

/** A domestic quote: Aramex cheapest, StarTrack 7 % dearer, Couriers Please, Australia Post. */
const QUOTE: RatedEntry[] = [
  entry('ST-ROAD', 'StarTrack', 4410, 'Road Express'),
  entry('AX-ROAD', 'Aramex', 4120, 'Road Saver'),
  entry('CP-ROAD', 'Couriers Please', 4300, 'Parcel'),
  entry('AP-EXP', 'Australia Post', 5200, 'Express Post\nParcel'),
];

/** A parcel of `kg` from Sydney to `postcode` (Australia). */
function facts(o: Partial<ShipmentFacts> = {}): ShipmentFacts {
  return {
    delivery_country: 'AU',
    delivery_state: 'WA',
    delivery_postcode: '6000',
    collection_country: 'AU',
    collection_state: 'NSW',
    collection_postcode: '2015',
    weight_kg: 5,
    cubic_weight_kg: 4,
    packages: 1,
    largest_dimension_cm: 40,
    value_cents: 10_000,
    lithium: false,
    tags: [],
    ...o,
  };
}

function decide(text: string, f: ShipmentFacts = facts(), o: { entries?: RatedEntry[]; written?: string; globalMail?: boolean } = {}) {
  return chooseService({
    rules: rules(text).rules,
    facts: f,
    entries: o.entries ?? QUOTE,
    written: o.written,
    globalMail: o.globalMail ? { usable: true } : { usable: false, why: 'consolidated mail goes by its own path' },
  });
}

const chosen = (d: ReturnType<typeof decide>) => {
  if (!d.ok) throw new Error(`no choice: ${d.reason}`);
  return d as Choice;
};

/** A rule that denies Couriers Please when `when` holds: the condition is seen to hold by the choice. */
function holds(when: string, f: ShipmentFacts): boolean {
  const d = chosen(decide(`rules:\n  - name: r\n    when: ${when}\n    allow: { carrier: StarTrack }\n`, f));
  return d.chosen.code === 'ST-ROAD';
}

describe('rule conditions', () => {
  it('delivery and collection country, state and postcode ranges', () => {
    expect(holds('{ delivery_state: WA }', facts())).toBe(true);
    expect(holds('{ delivery_state: [vic, qld] }', facts())).toBe(false);
    expect(holds('{ delivery_state: { not: WA } }', facts())).toBe(false);
    expect(holds('{ delivery_state: { not: WA } }', facts({ delivery_country: 'NZ', delivery_state: undefined }))).toBe(true);
    expect(holds('{ delivery_country: { not: AU } }', facts({ delivery_country: 'NZ' }))).toBe(true);
    expect(holds('{ delivery_country: au }', facts())).toBe(true);
    expect(holds('{ delivery_postcode: ["0800-0899", "6700-6799"] }', facts({ delivery_postcode: '6725' }))).toBe(true);
    expect(holds('{ delivery_postcode: ["0800-0899", "6700-6799"] }', facts({ delivery_postcode: '6000' }))).toBe(false);
    expect(holds('{ delivery_postcode: "0810" }', facts({ delivery_postcode: '0810' }))).toBe(true);
    expect(holds('{ delivery_postcode: { not: "6000-6199" } }', facts({ delivery_postcode: '6725' }))).toBe(true);
    expect(holds('{ collection_country: AU, collection_state: NSW, collection_postcode: "2000-2234" }', facts())).toBe(true);
    expect(holds('{ collection_postcode: "3000-3999" }', facts())).toBe(false);
  });

  it('actual and cubic weight (in packages converted), packages and largest dimension', () => {
    const inches = shipmentFacts({ packages: [{ length: 20, width: 10, height: 10, weight: 50, unit: 'in' }] });
    expect(inches.weight_kg).toBeCloseTo(22.68, 2);
    expect(inches.cubic_weight_kg).toBeCloseTo((50.8 * 25.4 * 25.4) / 4000, 6);
    expect(inches.largest_dimension_cm).toBeCloseTo(50.8, 6);
    expect(holds('{ weight_kg: { gt: 20 } }', inches)).toBe(true);
    expect(holds('{ weight_kg: { gt: 20 } }', facts({ weight_kg: 20 }))).toBe(false);
    expect(holds('{ weight_kg: { gte: 20, lt: 30 } }', facts({ weight_kg: 20 }))).toBe(true);
    expect(holds('{ weight_kg: { lte: 0.3 } }', facts({ weight_kg: 0.1 + 0.2 }))).toBe(true);
    expect(holds('{ cubic_weight_kg: { gt: 10 } }', facts({ cubic_weight_kg: 12 }))).toBe(true);
    expect(holds('{ packages: 2 }', facts({ packages: 2 }))).toBe(true);
    expect(holds('{ packages: { eq: 2 } }', facts({ packages: 3 }))).toBe(false);
    expect(holds('{ largest_dimension_cm: { gt: 100 } }', facts({ largest_dimension_cm: 120 }))).toBe(true);
  });

  it('value of goods, lithium, sender, collection company and tags', () => {
    const s = shipmentFacts(
      {
        collection: { company: 'Harbour Homewares', country: 'AU', postcode: '3000' },
        delivery: { country: 'AU', postcode: '0810' },
        customs_information: {
          lithium: true,
          items: [
            { quantity: 12, value: 18.5 },
            { quantity: 2, value: '34.95' },
          ],
        },
      },
      { sender: 'melbourne-store', tags: ['fragile', 'vip'] },
    );
    expect(s.value_cents).toBe(29_190);
    expect(s.collection_state).toBe('VIC');
    expect(s.delivery_state).toBe('NT');
    expect(holds('{ value_aud: { gt: 291.89 } }', s)).toBe(true);
    expect(holds('{ value_aud: { gt: 291.90 } }', s)).toBe(false);
    expect(holds('{ lithium: true }', s)).toBe(true);
    expect(holds('{ lithium: false }', s)).toBe(false);
    expect(holds('{ sender: Melbourne-Store }', s)).toBe(true);
    expect(holds('{ sender: warehouse-syd }', s)).toBe(false);
    expect(holds('{ collection_company: harbour homewares }', s)).toBe(true);
    expect(holds('{ tags: vip }', s)).toBe(true);
    expect(holds('{ tags: [wholesale, fragile] }', s)).toBe(true);
    expect(holds('{ tags: { not: fragile } }', s)).toBe(false);
    expect(holds('{ tags: wholesale }', s)).toBe(false);
  });

  it('every condition given must hold', () => {
    expect(holds('{ delivery_state: WA, weight_kg: { gt: 20 } }', facts({ weight_kg: 25 }))).toBe(true);
    expect(holds('{ delivery_state: WA, weight_kg: { gt: 20 } }', facts({ weight_kg: 5 }))).toBe(false);
  });

  it('the state of an Australian postcode, the ACT apart from NSW', () => {
    expect(australianState('2600')).toBe('ACT');
    expect(australianState('2000')).toBe('NSW');
    expect(australianState('0810')).toBe('NT');
    expect(australianState('6725')).toBe('WA');
    expect(australianState('7000')).toBe('TAS');
    expect(australianState('SW1A')).toBeUndefined();
  });
});

describe('rule actions', () => {
  it('prefers StarTrack within 10 % of the cheapest, and says so with the runner-up', () => {
    const d = chosen(
      decide(
        'rules:\n  - name: heavy to WA by StarTrack\n    when: { delivery_state: WA, weight_kg: { gt: 20 } }\n    prefer: { carrier: StarTrack, within_percent: 10 }\n',
        facts({ weight_kg: 25 }),
      ),
    );
    expect(d.chosen.code).toBe('ST-ROAD');
    expect(d.runner_up?.code).toBe('AX-ROAD');
    expect(d.rule).toBe('heavy to WA by StarTrack');
    expect(d.reason).toBe(
      'StarTrack Road Express 44.10 AUD: rule "heavy to WA by StarTrack" prefers StarTrack within 10 % of the cheapest (Aramex Road Saver 41.20 AUD)',
    );
  });

  it('does not prefer a carrier dearer than its margin: the next choice (the cheapest) applies, and the reason says why', () => {
    const d = chosen(decide('rules:\n  - name: StarTrack if close\n    prefer: { carrier: StarTrack, within_percent: 5 }\n'));
    expect(d.chosen.code).toBe('AX-ROAD');
    expect(d.how).toBe('cheapest');
    expect(d.not_applied).toEqual([
      { rule: 'StarTrack if close', why: 'StarTrack Road Express 44.10 AUD is more than 5 % above the cheapest (Aramex Road Saver 41.20 AUD)' },
    ]);
    const aud = chosen(decide('rules:\n  - name: AP within 11 AUD\n    prefer: { service: ap-exp, within_aud: 11 }\n'));
    expect(aud.chosen.code).toBe('AP-EXP');
    const tight = chosen(decide('rules:\n  - name: AP within 10.79 AUD\n    prefer: { service: AP-EXP, within_aud: "10.79" }\n'));
    expect(tight.chosen.code).toBe('AX-ROAD');
  });

  it('a preference without a margin takes the preferred service at any price', () => {
    const d = chosen(decide('rules:\n  - name: always AP\n    prefer: { carrier: Australia Post }\n'));
    expect(d.chosen.code).toBe('AP-EXP');
    expect(d.reason).toBe('Australia Post Express Post Parcel 52.00 AUD: rule "always AP" prefers Australia Post (Aramex Road Saver 41.20 AUD)');
  });

  it('deny and allow narrow what is left; a later allow never brings a denied carrier back', () => {
    const d = chosen(
      decide('rules:\n  - name: no Aramex\n    deny: { carrier: Aramex }\n  - name: road only\n    allow: { service: [AX-ROAD, ST-ROAD, CP-ROAD] }\n'),
    );
    expect(d.chosen.code).toBe('CP-ROAD');
    expect(d.removed).toEqual([
      { code: 'AX-ROAD', carrier: 'Aramex', rule: 'no Aramex', by: 'deny' },
      { code: 'AP-EXP', carrier: 'Australia Post', rule: 'road only', by: 'allow' },
    ]);
    expect(d.reason).toBe(
      'Couriers Please Parcel 43.00 AUD: the cheapest allowed (next: StarTrack Road Express 44.10 AUD); rule "no Aramex" denies: AX-ROAD (Aramex); rule "road only" does not allow: AP-EXP (Australia Post)',
    );
  });

  it('choose: cheapest names its rule and the next service', () => {
    const d = chosen(decide('rules:\n  - name: cheapest always\n    choose: cheapest\n  - name: AP\n    prefer: { carrier: Australia Post }\n'));
    expect(d.chosen.code).toBe('AX-ROAD');
    expect(d.rule).toBe('cheapest always');
    expect(d.reason).toBe('Aramex Road Saver 41.20 AUD: rule "cheapest always" chooses the cheapest allowed (next: Couriers Please Parcel 43.00 AUD)');
  });

  it('set: insurance and send_documents, a later rule winning; max_total: the lowest', () => {
    const d = chosen(
      decide(
        'rules:\n  - name: insure valuable parcels\n    when: { value_aud: { gt: 500 } }\n    set: { insurance: true, send_documents: true }\n  - name: cap\n    max_total: 250\n  - name: tighter cap\n    max_total: "60.50"\n',
        facts({ value_cents: 60_000 }),
      ),
    );
    expect(d.set).toEqual({ insurance: { value: true, rule: 'insure valuable parcels' }, send_documents: { value: true, rule: 'insure valuable parcels' } });
    expect(d.max_total).toEqual({ cents: 6050, rule: 'tighter cap' });
    expect(d.matched).toEqual(['insure valuable parcels', 'cap', 'tighter cap']);
    const cheap = chosen(decide('rules:\n  - name: insure valuable parcels\n    when: { value_aud: { gt: 500 } }\n    set: { insurance: true }\n'));
    expect(cheap.set).toEqual({});
  });

  it('a written service code wins unless a rule denies it: the refusal names the rule', () => {
    const kept = chosen(decide('rules:\n  - name: no CP\n    deny: { carrier: Couriers Please }\n', facts(), { written: 'ap-exp' }));
    expect(kept.chosen.code).toBe('AP-EXP');
    expect(kept.how).toBe('written');
    const denied = decide('rules:\n  - name: no Couriers Please to rural postcodes\n    deny: { carrier: Couriers Please }\n', facts(), {
      written: 'CP-ROAD',
    }) as Refusal;
    expect(denied.ok).toBe(false);
    expect(denied.problem).toBe('written_removed');
    expect(denied.rule).toBe('no Couriers Please to rural postcodes');
    expect(denied.reason).toBe('the order names CP-ROAD (Couriers Please), but rule "no Couriers Please to rural postcodes" denies it');
  });

  it('a document no rule leaves a service for is refused with the rules that removed each service', () => {
    const d = decide(
      'rules:\n  - name: no Aramex\n    deny: { carrier: [Aramex, Couriers Please] }\n  - name: AP only\n    allow: { carrier: Australia Post }\n  - name: no AP\n    deny: { service: AP-EXP }\n',
    ) as Refusal;
    expect(d.ok).toBe(false);
    expect(d.problem).toBe('none_left');
    expect(d.reason).toBe(
      'no service is left: rule "no Aramex" denies: AX-ROAD (Aramex), CP-ROAD (Couriers Please); rule "AP only" does not allow: ST-ROAD (StarTrack); rule "no AP" denies: AP-EXP (Australia Post)',
    );
  });

  it('prefer global_mail: not applied without the consolidated-mail path (the next choice applies), applied with it', () => {
    const intl = [entry('DHL-EXP', 'DHL Express', 9000), entry('AX-INTL', 'Aramex', 6000), entry('GM', 'ShipBook Global Mail', 3500, 'Global Mail', true)];
    const text = 'rules:\n  - name: consolidated mail abroad\n    when: { delivery_country: { not: AU } }\n    prefer: { global_mail: true }\n';
    const without = chosen(decide(text, facts({ delivery_country: 'NZ', delivery_state: undefined }), { entries: intl }));
    expect(without.chosen.code).toBe('AX-INTL');
    expect(without.not_applied[0]!.rule).toBe('consolidated mail abroad');
    expect(without.not_applied[0]!.why).toContain('consolidated mail goes by its own path');
    const withPath = chosen(decide(text, facts({ delivery_country: 'NZ', delivery_state: undefined }), { entries: intl, globalMail: true }));
    expect(withPath.chosen.code).toBe('GM');
    expect(withPath.how).toBe('prefer');
  });
});

describe('order documents', () => {
  const order = {
    tags: ['melbourne-store'],
    order: {
      shipments: [
        { collection: '@melbourne', delivery: { country: 'AU', postcode: '6000' }, packages: [{ length: 10, width: 10, height: 10, weight: 25, unit: 'cm' }] },
        { collection: '@melbourne', delivery: { country: 'AU', postcode: '3000' }, service: { code: 'AP-EXP' }, packages: [] },
      ],
    },
  };

  it('decides each shipment, reads tags and the saved sender, and writes the choice into a copy', () => {
    const set = rules(
      'rules:\n  - name: store contract\n    when: { sender: melbourne, tags: melbourne-store }\n    prefer: { service: CP-ROAD }\n  - name: insure\n    set: { insurance: true }\n  - name: cap\n    max_total: 250\n',
    );
    const d = decideOrder(set, order, { quotes: [QUOTE, QUOTE] });
    expect(d.ok).toBe(true);
    expect(d.shipments.map((s) => (s.ok ? s.chosen.code : s.problem))).toEqual(['CP-ROAD', 'AP-EXP']);
    expect(d.max_total).toEqual({ cents: 25_000, rule: 'cap' });
    const applied = applyDecision(order, d) as typeof order;
    expect(applied.order.shipments[0]!.service).toEqual({ code: 'CP-ROAD', options: ['insurance'] });
    expect(order.order.shipments[0]).not.toHaveProperty('service');
    expect(documentTags({ tags: 'a, b' })).toEqual(['a', 'b']);
  });
});

describe('the rules file', () => {
  it('accepts the shape of the issue', () => {
    const set = rules(`rules:
  - name: heavy to WA by StarTrack
    when: { delivery_state: WA, weight_kg: { gt: 20 } }
    prefer: { carrier: StarTrack, within_percent: 10 }
  - name: no Couriers Please to rural postcodes
    when: { delivery_postcode: ["0800-0899", "6700-6799"] }
    deny: { carrier: Couriers Please }
  - name: consolidated mail abroad
    when: { delivery_country: { not: AU } }
    prefer: { global_mail: true }
  - name: insure valuable parcels
    when: { value_aud: { gt: 500 } }
    set: { insurance: true }
  - name: cap
    max_total: 250
`);
    expect(set.rules.map((r) => r.name)).toHaveLength(5);
    expect(set.lines).toEqual([2, 5, 8, 11, 14]);
  });

  it('reports every problem at its line and column', () => {
    expect(
      problems(`rules:
  - name: a
    when: { delivery_stat: WA }
    prefer: { carrier: StarTrack, within_percent: -1 }
  - name: A
    deny: {}
  - name: nothing
    when: { weight_kg: { gt: heavy } }
  - name: two
    prefer: { carrier: StarTrack, service: X }
    max_total: 1.234
`),
    ).toEqual([
      '3:13 rules[0].when.delivery_stat unknown field',
      '4:51 rules[0].prefer.within_percent must not be negative',
      '5:11 rules[1].name the name of rule 1 again; names must differ',
      '6:11 rules[1].deny name a carrier or a service',
      '7:5 rules[2] a rule needs an action: allow, deny, prefer, choose, set, max_total',
      '8:24 rules[2].when.weight_kg expected a number or bounds such as {gt: 20}',
      '10:13 rules[3].prefer name exactly one of carrier, service or global_mail',
      '11:16 rules[3].max_total at most 2 decimal places in AUD (got 1.234)',
    ]);
  });
});
