import { describe, expect, it } from 'vitest';
import { list, reviewMutated, rulesOf } from '../fixtures.js';

describe('architecture ↔ code', () => {
  it('a designed endpoint without a route is CRITICAL, grouped under its service', () => {
    const report = reviewMutated((run) => {
      list(run.system_design, 'api_endpoints').push({ method: 'get', path: '/users/', service: 'auth' });
    });
    expect(rulesOf(report)).toEqual(['architecture.endpoint_without_code']);
    expect(report.issues[0]).toMatchObject({
      severity: 'CRITICAL',
      related_ids: ['GET /users'],
      module: 'auth',
      remediation: { agent_to_rerun: '07-code' },
    });
  });

  it('matches endpoints after normalizing method case and trailing slashes', () => {
    const report = reviewMutated((run) => {
      (list(run.code_report, 'files')[0] as Record<string, unknown>).endpoints = ['post /login/'];
    });
    expect(report.issues).toEqual([]);
  });

  it('a designed table without a migration is CRITICAL', () => {
    const report = reviewMutated((run) => {
      (run.system_design.database as { tables: unknown[] }).tables.push({ name: 'sessions' });
    });
    expect(rulesOf(report)).toEqual(['architecture.table_without_migration']);
    expect(report.issues[0]?.severity).toBe('CRITICAL');
  });

  it('a designed service without code is a WARNING', () => {
    const report = reviewMutated((run) => {
      list(run.system_design, 'services').push({ name: 'billing' });
    });
    expect(rulesOf(report)).toEqual(['architecture.service_without_code']);
    expect(report.issues[0]).toMatchObject({ severity: 'WARNING', module: 'billing' });
  });

  it('needs both contracts', () => {
    const report = reviewMutated((run) => {
      list(run.system_design, 'services').push({ name: 'billing' });
      delete (run as Partial<typeof run>).code_report;
    });
    expect(rulesOf(report)).not.toContain('architecture.service_without_code');
  });
});
