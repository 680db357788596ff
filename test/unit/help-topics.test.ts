import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import { EXIT } from '../../src/errors.js';
import { HELP_TOPICS, findManualPage, readmeSection, renderSection, topicText } from '../../src/commands/help/topics.js';

describe('help topics', () => {
  it('finds the manual page of every topic in the package and its section there', () => {
    for (const topic of HELP_TOPICS) {
      const page = findManualPage(topic.page);
      expect(page, topic.page).toBeDefined();
      expect(readmeSection(readFileSync(page!, 'utf8'), topic.heading), topic.name).toBeTruthy();
    }
  });

  it('exit-codes lists every exit code shipbook uses, fitted to 80 columns', () => {
    const text = topicText('exit-codes', 80);
    for (const code of Object.values(EXIT)) expect(text).toMatch(new RegExp(`│ ${code}\\s+│`));
    for (const line of text.split('\n')) expect(stringWidth(line)).toBeLessThanOrEqual(80);
  });

  it('environment names every variable of the table in the manual, without Markdown marks', () => {
    const text = topicText('environment', 100);
    expect(text).toContain('SHIPBOOK_API_KEY');
    expect(text).toContain('NO_COLOR');
    expect(text).not.toContain('`');
  });

  it('formats names every output format', () => {
    const text = topicText('formats', 120);
    for (const f of ['table', 'tsv', 'json', 'yaml', 'ndjson', '--quiet']) expect(text).toContain(f);
  });

  it('refuses an unknown topic with the list of topics', () => {
    expect(() => topicText('colours', 80)).toThrow(/unknown help topic "colours"/);
  });

  it('stops a section at the next heading of the same level and ignores headings in code blocks', () => {
    const md = '## A\nintro\n```sh\n# not a heading\n```\n### A.1\nsub\n## B\nother';
    expect(readmeSection(md, 'A')).toBe('intro\n```sh\n# not a heading\n```\n### A.1\nsub');
    expect(renderSection('| k | v |\n|---|---|\n| `x` | **y** |', 40)).toContain('│ x │ y │');
    // hard-wrapped README paragraphs and list items are joined, then wrapped to the terminal
    expect(renderSection('one\ntwo\n\n- three\n  four five six seven eight', 22)).toBe('one two\n\n- three four five six\n  seven eight\n');
  });
});
