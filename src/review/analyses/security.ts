import type { NormalizedRequirement } from '../contracts/requirement-spec.js';
import { type Finding, findingAt } from '../core/finding.js';
import { hasContracts, linksOf, type ReviewModel } from '../core/model.js';
import { isTested, ordinalOf } from '../core/model-links.js';

/** The requirement categories the security analysis follows end to end. @public */
export const SECURITY_CATEGORIES: readonly string[] = Object.freeze(['security', 'compliance']);

// True when a requirement is a security or compliance NFR.
function isSecurityNfr(requirement: NormalizedRequirement): boolean {
  return (
    requirement.type === 'non_functional' &&
    requirement.category !== null &&
    SECURITY_CATEGORIES.includes(requirement.category.trim().toLowerCase())
  );
}

// Security NFR findings: no architecture control (CRITICAL), no test case (CRITICAL).
function nfrFindings(model: ReviewModel): Finding[] {
  const findings: Finding[] = [];
  const withDesign = hasContracts(model, ['requirement_spec', 'system_design']);
  const withTests = hasContracts(model, ['requirement_spec', 'test_report']);
  const links = linksOf(model);
  for (const requirement of model.requirements.values()) {
    if (!isSecurityNfr(requirement)) continue;
    const controls = model.controlsOf.get(requirement.id) ?? [];
    if (withDesign && controls.length === 0) {
      findings.push(
        findingAt(model, 'system_design', {
          rule: 'security.nfr_without_control',
          title: `${requirement.id} has no architecture control`,
          description: `${requirement.category ?? 'Security'} requirement ${requirement.id} ("${requirement.title}") is implemented by no security control of the design.`,
          ids: [requirement.id],
          action: `Add a security control whose nfr_ids include ${requirement.id}.`,
          baseline: requirement.baseline,
        }),
      );
    }
    const tested =
      isTested(links, ordinalOf(links, requirement.id)) ||
      controls.some((control) => (model.testsOfControl.get(control) ?? []).length > 0);
    if (withTests && !tested) {
      findings.push(
        findingAt(model, 'test_report', {
          rule: 'security.nfr_without_test',
          title: `${requirement.id} has no test case`,
          description: `${requirement.category ?? 'Security'} requirement ${requirement.id} is verified by no test case, directly or through its controls.`,
          ids: [requirement.id, ...controls],
          action: `Add a test case whose requirement_ids include ${requirement.id} (or whose controls[] include its control).`,
          baseline: requirement.baseline,
        }),
      );
    }
  }
  return findings;
}

// Control findings: a security control of the design that no test names in its controls[] (WARNING).
function controlFindings(model: ReviewModel): Finding[] {
  const design = model.contracts.system_design;
  if (design === null || !hasContracts(model, ['system_design', 'test_report'])) return [];
  const findings: Finding[] = [];
  for (const control of design.controls) {
    if ((model.testsOfControl.get(control.id) ?? []).length > 0) continue;
    findings.push(
      findingAt(model, 'test_report', {
        rule: 'security.control_untested',
        title: `Control ${control.id} is not tested`,
        description: `Security control ${control.id} is exercised by no test case: no test lists it in controls[] (a test of its NFRs does not say it exercises this control).`,
        ids: [control.id, ...control.nfrIds],
        action: `Add a test case whose controls[] include ${control.id}.`,
        baseline: design.meta.harvested,
      }),
    );
  }
  return findings;
}

// Threat findings: a CRITICAL (CRITICAL) or HIGH (WARNING) threat with no mitigating code file.
function threatFindings(model: ReviewModel): Finding[] {
  const threats = model.contracts.threat_model;
  if (threats === null || !hasContracts(model, ['threat_model', 'code_report'])) return [];
  const findings: Finding[] = [];
  for (const threat of threats.threats) {
    if (threat.risk !== 'CRITICAL' && threat.risk !== 'HIGH') continue;
    if ((model.mitigationsOf.get(threat.id) ?? []).length > 0) continue;
    const planned = threat.mitigation === null ? '' : ` The threat model plans: "${threat.mitigation}".`;
    findings.push(
      findingAt(model, 'code_report', {
        rule: threat.risk === 'CRITICAL' ? 'security.critical_threat_unmitigated' : 'security.high_threat_unmitigated',
        title: `${threat.risk} threat ${threat.id} has no mitigation in code`,
        description: `No code file lists ${threat.id}${threat.component === null ? '' : ` (${threat.component})`} in mitigates[].${planned}`,
        ids: [threat.id],
        action: `Implement the mitigation of ${threat.id} and list ${threat.id} in the mitigating file's mitigates[].`,
        ...(threat.component === null ? {} : { module: threat.component }),
        extraArtifacts: model.statuses.filter((status) => status.key === 'threat_model').map((status) => status.path),
      }),
    );
  }
  return findings;
}

/** Analysis 4, security and compliance: every security/compliance NFR traces to an architecture control and a test case (CRITICAL each). @public */
export function analyseSecurity(model: ReviewModel): Finding[] {
  return [...nfrFindings(model), ...controlFindings(model), ...threatFindings(model)];
}
