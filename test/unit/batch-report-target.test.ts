/** The batch's reports name the service the batch booked on: report.json `target`, JUnit `<properties>`. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportWriter } from '../../src/booking/batch/report.js';
import type { Target } from '../../src/config/target.js';

const booked = { id: 'abc-1', file: 'orders/a.yaml', line: 1, status: 'booked' as const, order_id: 'ORD-1', attempts: 1 };
const summary = {
  booked: 1,
  already_booked: 0,
  booked_by_other_run: 0,
  accepted: 0,
  failed: 0,
  unknown: 0,
  invalid: 0,
  still_booking: 0,
  pending: 0,
  not_started: 0,
  over_limit: 0,
  over_budget: 0,
  totalCents: 4730,
  interrupted: false,
};

describe('batch reports and the target', () => {
  it('write the target as it is when they are written: right after started_at, and as JUnit properties', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-report-target-'));
    const paths = { report: join(dir, 'report.json'), junit: join(dir, 'junit.xml') };
    // The target changes after the first answer when a service announces itself as a sandbox.
    let target: Target | undefined = { kind: 'service', base_url: 'http://127.0.0.1:8788/', profile: 'local' };
    const reports = new ReportWriter({ ...paths, target: () => target }, 0);
    reports.add(booked);
    expect(Object.keys(JSON.parse(readFileSync(paths.report, 'utf8')) as object)).toEqual(['started_at', 'target', 'orders']);
    target = { ...target, kind: 'sandbox' };
    await reports.finish(summary);
    const report = JSON.parse(readFileSync(paths.report, 'utf8')) as { target: Target; summary: { total: string } };
    expect(report.target).toEqual({ kind: 'sandbox', base_url: 'http://127.0.0.1:8788/', profile: 'local' });
    expect(report.summary.total).toBe('47.30');
    const xml = readFileSync(paths.junit, 'utf8');
    expect(xml).toMatch(
      /<testsuite [^>]*>\s*<properties>\s*<property name="target.kind" value="sandbox"\/>\s*<property name="target.base_url" value="http:\/\/127.0.0.1:8788\/"\/>\s*<property name="target.profile" value="local"\/>\s*<\/properties>\s*<testcase /,
    );
  });

  it('without a target: no target field, no properties', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-report-target-'));
    const paths = { report: join(dir, 'report.json'), junit: join(dir, 'junit.xml') };
    const reports = new ReportWriter(paths, 0);
    reports.add(booked);
    await reports.finish(summary);
    expect(JSON.parse(readFileSync(paths.report, 'utf8'))).not.toHaveProperty('target');
    expect(readFileSync(paths.junit, 'utf8')).not.toContain('<properties>');
  });

  it('finished at once (a second Ctrl-C): every result so far, a summary counted from them, and the JUnit file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-report-now-'));
    const paths = { report: join(dir, 'report.json'), junit: join(dir, 'junit.xml') };
    const reports = new ReportWriter(paths, 60_000);
    // xmlbuilder2 is loaded as soon as a JUnit file is asked for, so the exit can write it synchronously.
    await import('xmlbuilder2');
    await new Promise((r) => setImmediate(r));
    reports.add({ ...booked, total: '47.30' });
    reports.add({ id: 'abc-2', file: 'orders/a.yaml', line: 2, status: 'accepted', order_id: 'ORD-2', attempts: 1 });
    reports.add({ id: 'abc-3', file: 'orders/a.yaml', line: 3, status: 'not_started', attempts: 0 });
    reports.finishNow();
    const report = JSON.parse(readFileSync(paths.report, 'utf8')) as { summary: Record<string, unknown>; orders: unknown[] };
    expect(report.orders).toHaveLength(3);
    expect(report.summary).toMatchObject({ booked: 1, accepted: 1, not_started: 1, interrupted: true, stopped_at_once: true, total: '47.30' });
    expect(readFileSync(paths.junit, 'utf8').match(/<testcase /g)).toHaveLength(3);
    // The normal end after it writes nothing more.
    await reports.finish(summary);
    expect((JSON.parse(readFileSync(paths.report, 'utf8')) as { summary: Record<string, unknown> }).summary).toHaveProperty('stopped_at_once', true);
  });

  it('finished at once: the total summed in cents from the totals as recorded, thousands separators and all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shipbook-report-cents-'));
    const reports = new ReportWriter({ report: join(dir, 'report.json') }, 60_000);
    // A price's total is recorded as it is shown (src/schema/money.ts Money#toString): "1,234.56".
    reports.add({ ...booked, total: '1,234.56' });
    reports.add({ ...booked, id: 'abc-2', line: 2, order_id: 'ORD-2', total: '0.10' });
    reports.add({ ...booked, id: 'abc-3', line: 3, order_id: 'ORD-3', status: 'already_booked', total: '0.20' });
    reports.finishNow();
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { summary: Record<string, unknown> };
    expect(report.summary).toMatchObject({ booked: 2, already_booked: 1, total: '1234.86' });
  });
});
