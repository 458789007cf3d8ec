import { describe, expect, it } from 'vitest';
import { list, reviewMutated, rulesOf } from '../fixtures.js';

describe('documentation completeness', () => {
  it('a missing BRD/FRD/SOW is a WARNING; a missing HLD or test plan is INFO', () => {
    const report = reviewMutated((run) => {
      run.documentation.documents = list(run.documentation, 'documents').filter((document) => document.type === 'FRD');
    });
    expect(rulesOf(report)).toEqual([
      'documentation.core_document_missing',
      'documentation.core_document_missing',
      'documentation.design_document_missing',
      'documentation.design_document_missing',
    ]);
    expect(report.issues.map((issue) => issue.severity)).toEqual(['WARNING', 'WARNING', 'INFO', 'INFO']);
    expect(report.issues[0]?.remediation).toMatchObject({
      agent_to_rerun: '03-documentation',
      maintenance_category: 'preventive',
    });
  });

  it('an FRD that misses functional requirements is one WARNING listing them', () => {
    const report = reviewMutated((run) => {
      const frd = list(run.documentation, 'documents')[1] as Record<string, unknown>;
      frd.covers = ['FR-001'];
    });
    expect(rulesOf(report)).toEqual(['documentation.frd_incomplete']);
    expect(report.issues[0]).toMatchObject({ severity: 'WARNING', related_ids: ['FR-002'] });
  });

  it('an FRD that does not state its coverage is a WARNING', () => {
    const report = reviewMutated((run) => {
      delete (list(run.documentation, 'documents')[1] as Record<string, unknown>).covers;
    });
    expect(rulesOf(report)).toEqual(['documentation.frd_incomplete']);
  });

  it('a document covering an unknown id is a dangling reference', () => {
    const report = reviewMutated((run) => {
      (list(run.documentation, 'documents')[0] as Record<string, unknown>).covers = ['FR-001', 'FR-404'];
    });
    expect(rulesOf(report)).toEqual(['references.dangling']);
    expect(report.issues[0]).toMatchObject({
      related_ids: ['FR-404'],
      source_agent: '03-documentation',
      remediation: { agent_to_rerun: '03-documentation' },
    });
  });
});
