import { describe, expect, it } from 'vitest';
import { bind } from '../../src/input/csv-bind.js';
import { wordIssue, withWordedIssues } from '../../src/output/issues.js';
import { PLAIN_HINTS } from '../../src/shell.js';

describe("an input problem's next step", () => {
  const [unknown] = bind('o.csv', ['order_ref', 'delivery_postcod'], ',', undefined).issues;

  it('is data in input/, worded by output/ after the message, and gone from the worded problem', () => {
    expect(unknown?.message).toBe('unknown column (did you mean delivery_postcode?)');
    expect(unknown?.next).toEqual(['; the columns are listed by "', { argv: ['schema', 'csv'] }, '", or map your own headers with --map']);
    const worded = wordIssue(unknown!, PLAIN_HINTS);
    expect(worded.message).toBe(
      'unknown column (did you mean delivery_postcode?); the columns are listed by "shipbook schema csv", or map your own headers with --map',
    );
    expect('next' in worded).toBe(false);
    // Wording twice changes nothing (a problem may pass two places that word it).
    expect(wordIssue(worded, PLAIN_HINTS)).toBe(worded);
  });

  it("is worded with the run's profile and shell", () => {
    expect(wordIssue(unknown!, { shell: 'powershell', profile: 'my shop' }).message).toContain('"shipbook --profile "my shop" schema csv"');
    const r = withWordedIssues({ id: 'x', issues: [unknown!] }, { shell: 'posix', profile: 'prod' });
    expect(r.issues?.[0]?.message).toContain('"shipbook --profile prod schema csv"');
  });
});
