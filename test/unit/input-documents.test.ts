/**
 * Files of several documents (src/input/documents.ts): which texts may hold several, and each
 * document of a JSON array or YAML stream with its own line in the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  documentOfLine,
  documentsOf,
  documentsOfText,
  isDocumentList,
  isNdjsonName,
  jsonOrYamlDocuments,
  mayHoldSeveralDocuments,
} from '../../src/input/documents.js';
import { MAX_INPUT_BYTES } from '../../src/input/read.js';

describe('mayHoldSeveralDocuments', () => {
  it.each([
    ['a JSON array', '  [{"a": 1}]', true],
    ['one document', 'a: 1\nb: 2\n', false],
    ['one document opened by ---', '---\na: 1\n', false],
    ['comments, a directive and blank lines before the first ---', '# orders\n%YAML 1.2\n\n---\na: 1\n', false],
    ['a --- after content', 'a: 1\n---\nb: 2\n', true],
    ['a --- after content, CRLF', 'a: 1\r\n---\r\nb: 2\r\n', true],
    ['two documents opened by ---', '---\na: 1\n--- # second\nb: 2\n', true],
    ['a --- line inside a quoted value (YAML reads it as a marker there too)', 'a: "x\n--- y"\n', true],
    ['markers alone', '---\n'.repeat(1000), false],
    ['---- is no marker', 'a: 1\n----\n', false],
  ])('%s', (_name, text, expected) => {
    expect(mayHoldSeveralDocuments(text)).toBe(expected);
  });
});

describe('jsonOrYamlDocuments', () => {
  const lines = (text: string) => [...jsonOrYamlDocuments('f.yaml', text)].map((d) => ('doc' in d ? ['doc', d.line] : ['issues', d.line, d.issues[0]!.line]));

  it('gives each element of a JSON array at its own line, and positions inside it at the file line', () => {
    const text = '[\n  {"a": 1},\n\n  {"b": 2,\n   "c": 3},\n  "text"\n]\n';
    expect(lines(text)).toEqual([
      ['doc', 2],
      ['doc', 4],
      ['issues', 6, 6],
    ]);
    const docs = [...jsonOrYamlDocuments('f.json', text)];
    const second = docs[1]!;
    expect('doc' in second && second.doc.locate(['c'])).toEqual({ line: 5, column: 9 });
  });

  it('gives each document of a YAML stream, starting after its --- line; an empty one is skipped', () => {
    expect(lines('a: 1\n---\nb: 2\n---\n---\nc: [\n')).toEqual([
      ['doc', 1],
      ['doc', 3],
      // The unclosed list is reported where the input ends, the line after it.
      ['issues', 6, 7],
    ]);
  });

  it('counts YAML aliases per document of a stream, and refuses a stream with one document over the limit before composing it', () => {
    const doc = (n: number) => `s: &s x\nlist: [${Array(n).fill('*s').join(', ')}]\n`;
    expect(lines(`${doc(60)}---\n${doc(60)}`)).toEqual([
      ['doc', 1],
      ['doc', 4],
    ]);
    const refused = [...jsonOrYamlDocuments('f.yaml', `${doc(60)}---\n${doc(101)}`)];
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ line: 5, issues: [{ line: 5, column: 8 + 4 * 100, message: 'more than 100 YAML aliases (*name)' }] });
  });

  it('splits a JSON array whose strings hold brackets, commas and escaped quotes, keeping line and column of each element', () => {
    const text = '[{"a": "x], {\\"y\\", z"}, {"b": [1, [2, 3]], "c": "]"},\n   {"d": {"e": null}}]';
    const docs = [...jsonOrYamlDocuments('f.json', text)];
    expect(docs.map((d) => ('doc' in d ? d.doc.data : d.issues))).toEqual([{ a: 'x], {"y", z' }, { b: [1, [2, 3]], c: ']' }, { d: { e: null } }]);
    const [, second, third] = docs;
    expect(second && 'doc' in second && second.doc.locate(['c'])).toEqual({ line: 1, column: 50 });
    expect(third && 'doc' in third && third.doc.locate(['d', 'e'])).toEqual({ line: 2, column: 16 });
    expect([...jsonOrYamlDocuments('f.json', ' [ ] ')]).toEqual([]);
  });

  it('gives a text of one document, or an array it cannot read, as one document', () => {
    expect(lines('a: 1\n')).toEqual([['doc', 1]]);
    // A --- line inside quotes ends the document there, for YAML too: one document, and the problem at that line.
    expect(lines('a: "x\n--- y"\n')).toEqual([['issues', 1, 2]]);
    expect(lines('[1, 2\n')).toEqual([['issues', 1, 2]]);
  });

  it('parses a document only when it is asked for', () => {
    const documents = jsonOrYamlDocuments('f.json', `[${Array.from({ length: 3 }, (_, i) => `{"n": ${i}}`).join(',')}]`);
    const first = documents.next();
    expect(first.done).toBe(false);
    expect('doc' in first.value! && first.value.doc.data).toEqual({ n: 0 });
  });
});

describe('NDJSON lines', () => {
  it('reads a line as a document at its line, and skips a blank one', () => {
    expect(isNdjsonName('orders.NDJSON')).toBe(true);
    expect(isNdjsonName('orders.jsonl')).toBe(true);
    expect(isNdjsonName('orders.json')).toBe(false);
    expect(documentOfLine('o.ndjson', '   ', 3)).toBeUndefined();
    const doc = documentOfLine('o.ndjson', '{"a": {"b": 1}}', 7);
    expect(doc && 'doc' in doc && doc.doc.locate(['a', 'b'])).toEqual({ line: 7, column: 13 });
    const bad = documentOfLine('o.ndjson', '{"a": ', 9);
    expect(bad && 'issues' in bad && bad.issues[0]!.line).toBe(9);
  });
});

describe('documentsOf: the one reading of a file of many documents', () => {
  it('reads NDJSON by what it holds, whatever the name (standard input has none)', () => {
    const text = '{"a": 1}\n\n{"a": 2}\n';
    expect([...documentsOfText('-', text)].map((d) => d.line)).toEqual([1, 3]);
    expect([...documentsOfText('orders.json', text)].map((d) => d.line)).toEqual([1, 3]);
    expect(isDocumentList('-', text)).toBe(true);
  });

  it('tells a list of documents from one document', () => {
    expect(isDocumentList('-', '{"a": 1}')).toBe(false);
    expect(isDocumentList('-', '{\n  "a": 1\n}\n')).toBe(false);
    expect(isDocumentList('f.yaml', '---\na: 1\n')).toBe(false);
    expect(isDocumentList('f.yaml', 'a: 1\n---\nb: 2\n')).toBe(true);
    expect(isDocumentList('f.json', '[{"a": 1}]')).toBe(true);
    expect(isDocumentList('f.ndjson', '{"a": 1}\n')).toBe(true);
  });

  const dir = mkdtempSync(join(tmpdir(), 'shipbook-documents-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const all = async (source: { file: string; bytes?: Buffer }) => {
    const out = [];
    for await (const d of documentsOf(source))
      out.push('doc' in d ? { line: d.line, data: d.doc.data } : { line: d.line, messages: d.issues.map((i) => `${i.line ?? ''}:${i.message}`) });
    return out;
  };

  it('reads a file from disk: a YAML stream, a JSON array, and bytes already read from standard input alike', async () => {
    const yaml = join(dir, 'orders.yaml');
    writeFileSync(yaml, 'a: 1\n---\nb: 2\n');
    expect(await all({ file: yaml })).toEqual([
      { line: 1, data: { a: 1 } },
      { line: 3, data: { b: 2 } },
    ]);
    expect(await all({ file: '-', bytes: Buffer.from('[{"a": 1},\n {"request": {"b": 2}}]') })).toEqual([
      { line: 1, data: { a: 1 } },
      { line: 2, data: { b: 2 } },
    ]);
  });

  it('gives a file that cannot be read, or is not UTF-8 text, as one entry with its problem and line', async () => {
    expect(await all({ file: join(dir, 'missing.json') })).toEqual([{ line: 1, messages: [':no such file'] }]);
    const latin1 = join(dir, 'latin1.ndjson');
    writeFileSync(latin1, Buffer.concat([Buffer.from('{"city": "Sydney"}\n{"city": "Gen'), Buffer.from([0xe8]), Buffer.from('ve"}\n')]));
    expect(await all({ file: latin1 })).toEqual([{ line: 1, messages: ['2:is not UTF-8 text; save it as UTF-8'] }]);
  });

  it('streams an NDJSON file larger than one document may be, line by line', async () => {
    const big = join(dir, 'big.ndjson');
    const line = `{"pad": "${'x'.repeat(1000)}"}\n`;
    writeFileSync(big, line.repeat(Math.ceil(MAX_INPUT_BYTES / line.length) + 10));
    let n = 0;
    let last = 0;
    for await (const d of documentsOf({ file: big })) {
      expect('doc' in d).toBe(true);
      n++;
      last = d.line;
    }
    expect(n).toBe(Math.ceil(MAX_INPUT_BYTES / line.length) + 10);
    expect(last).toBe(n);
  });
});
