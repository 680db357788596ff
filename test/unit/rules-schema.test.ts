/**
 * The rules file's JSON Schema (`shipbook schema rules`), published beside the example rules in
 * fixtures/rules/rules.schema.json: up to date, and accepting what shipbook accepts (checked with
 * an independent JSON Schema validator).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { rulesJsonSchema } from '../../src/booking/rules/index.js';

describe('the JSON Schema of a rules file', () => {
  it('fixtures/rules/rules.schema.json is up to date (vitest -u regenerates it)', async () => {
    await expect(`${JSON.stringify(rulesJsonSchema(), null, 2)}\n`).toMatchFileSnapshot('../../fixtures/rules/rules.schema.json');
  });

  it('accepts the example rules and flags a misspelt field and a rule without a name', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(rulesJsonSchema());
    expect(validate(parse(readFileSync('fixtures/rules/shipping.yaml', 'utf8')))).toBe(true);
    expect(validate({ rules: [{ name: 'a', when: { delivery_stat: 'WA' }, deny: { carrier: 'Aramex' } }] })).toBe(false);
    expect(validate({ rules: [{ deny: { carrier: 'Aramex' } }] })).toBe(false);
  });
});
