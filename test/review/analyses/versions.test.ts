import { describe, expect, it } from 'vitest';
import { parseIsoTimestamp } from '../../../src/review/analyses/versions.js';
import { reviewMutated, rulesOf } from '../fixtures.js';

describe('cross-contract versions', () => {
  it('a contract version that differs from the majority is a WARNING for its stage', () => {
    const report = reviewMutated((run) => {
      run.code_report.contract_version = '1.0';
    });
    expect(rulesOf(report)).toEqual(['versions.version_mismatch']);
    expect(report.issues[0]).toMatchObject({
      severity: 'WARNING',
      source_agent: '07-code',
      remediation: { agent_to_rerun: '07-code', maintenance_category: 'adaptive' },
    });
  });

  it('an invalid timestamp is a WARNING', () => {
    const report = reviewMutated((run) => {
      run.plan.timestamp = 'yesterday';
    });
    expect(rulesOf(report)).toEqual(['versions.invalid_timestamp']);
  });

  it('missing metadata is INFO', () => {
    const report = reviewMutated((run) => {
      delete run.summary.contract_version;
      delete run.summary.timestamp;
    });
    expect(rulesOf(report)).toEqual(['versions.metadata_missing']);
    expect(report.issues[0]?.severity).toBe('INFO');
  });

  it('a gap over one hour between sequential stages is INFO', () => {
    const report = reviewMutated((run) => {
      for (const key of ['code_report', 'test_report', 'deployment_report', 'summary'] as const)
        run[key].timestamp = '2025-01-31T13:00:00+02:00';
      run.code_report.timestamp = '2025-01-31T11:30:00Z';
    });
    expect(rulesOf(report)).toEqual(['versions.timestamp_gap']);
    expect(report.issues[0]?.source_agent).toBe('07-code');
  });

  it('parses ISO 8601 dates and date-times only', () => {
    expect(parseIsoTimestamp('2025-01-31')).toBe(Date.UTC(2025, 0, 31));
    expect(parseIsoTimestamp('2025-01-31T10:00:00.5+01:00')).toBe(Date.UTC(2025, 0, 31, 9, 0, 0, 500));
    expect(parseIsoTimestamp('31/01/2025')).toBeNull();
    expect(parseIsoTimestamp('2025-13-45T99:00:00Z')).toBeNull();
  });

  it('rejects dates and times that do not exist, which Date.parse would roll over', () => {
    for (const value of [
      '2025-02-30T10:00:00Z',
      '2025-02-29',
      '2025-04-31T00:00:00Z',
      '2025-01-01T24:00:00Z',
      '2025-01-01T10:60:00Z',
      '2025-01-01T10:00:60+01:00',
    ])
      expect(parseIsoTimestamp(value)).toBeNull();
    expect(parseIsoTimestamp('2024-02-29T23:59:59Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
    expect(parseIsoTimestamp('2025-01-01T00:30:00+01:00')).toBe(Date.UTC(2024, 11, 31, 23, 30));
    const report = reviewMutated((run) => {
      run.plan.timestamp = '2025-02-30T10:00:00Z';
    });
    expect(rulesOf(report)).toEqual(['versions.invalid_timestamp']);
  });

  it('reads a timestamp without a zone as UTC, whatever the host time zone', () => {
    const hostZone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(new Date(2025, 0, 31).getTimezoneOffset()).not.toBe(0);
      expect(parseIsoTimestamp('2025-01-31T12:00:00')).toBe(Date.UTC(2025, 0, 31, 12));
      expect(parseIsoTimestamp('2025-01-31 12:00')).toBe(Date.UTC(2025, 0, 31, 12));
      expect(parseIsoTimestamp('2025-01-31T12:00:00,25')).toBe(Date.UTC(2025, 0, 31, 12, 0, 0, 250));
      expect(parseIsoTimestamp('2025-01-31')).toBe(Date.UTC(2025, 0, 31));
      const report = reviewMutated((run) => {
        for (const key of ['code_report', 'test_report', 'deployment_report', 'summary'] as const)
          run[key].timestamp = '2025-01-31T11:30:00';
        run.code_report.timestamp = '2025-01-31T10:30:00+00:00';
      });
      expect(rulesOf(report)).toEqual([]);
    } finally {
      if (hostZone === undefined) delete process.env.TZ;
      else process.env.TZ = hostZone;
    }
  });

  it('applies every zone form explicitly and rejects an offset no zone has', () => {
    expect(parseIsoTimestamp('2025-01-31T12:00:00+01')).toBe(Date.UTC(2025, 0, 31, 11));
    expect(parseIsoTimestamp('2025-01-31T12:00:00-0530')).toBe(Date.UTC(2025, 0, 31, 17, 30));
    expect(parseIsoTimestamp('2025-01-31T12:00:00.123456Z')).toBe(Date.UTC(2025, 0, 31, 12, 0, 0, 123));
    expect(parseIsoTimestamp('0099-01-01')).toBe(new Date('0099-01-01T00:00:00Z').getTime());
    for (const value of ['2025-01-31T12:00:00+24:00', '2025-01-31T12:00:00+01:60', '2025-01-31T12:00:00+1'])
      expect(parseIsoTimestamp(value)).toBeNull();
  });
});
