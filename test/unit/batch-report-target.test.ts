/** The batch's reports name the service the batch booked on: report.json `target`, JUnit `<properties>`. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReportWriter } from '../../src/batch/report.js';
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
});
