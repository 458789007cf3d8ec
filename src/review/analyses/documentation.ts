import { type Finding, findingAt, listIds } from '../core/finding.js';
import type { ReviewModel } from '../core/model.js';

/** Documents stage 03 itself writes: a missing one is a WARNING. @public */
export const CORE_DOCUMENT_TYPES: readonly string[] = Object.freeze(['BRD', 'FRD', 'SOW']);

/** Design documents the index should list: a missing one is INFO. @public */
export const DESIGN_DOCUMENT_TYPES: readonly string[] = Object.freeze(['HLD', 'TEST_PLAN']);

/** Analysis 5, documentation completeness. @public */
export function analyseDocumentation(model: ReviewModel): Finding[] {
  const documentation = model.contracts.documentation;
  if (documentation === null) return [];
  const findings: Finding[] = [];
  const byType = new Map<string, (typeof documentation.documents)[number][]>();
  for (const document of documentation.documents) {
    const ofType = byType.get(document.type);
    if (ofType === undefined) byType.set(document.type, [document]);
    else ofType.push(document);
  }
  const harvested = documentation.meta.harvested;
  for (const type of CORE_DOCUMENT_TYPES) {
    if (byType.has(type)) continue;
    findings.push(
      findingAt(model, 'documentation', {
        rule: 'documentation.core_document_missing',
        title: `No ${type}`,
        description: `documentation.json lists no ${type} document.`,
        ids: [type],
        action: `Write the ${type} and list it in documentation.json.`,
        baseline: harvested,
      }),
    );
  }
  for (const type of DESIGN_DOCUMENT_TYPES) {
    if (byType.has(type)) continue;
    findings.push(
      findingAt(model, 'documentation', {
        rule: 'documentation.design_document_missing',
        title: `No ${type === 'TEST_PLAN' ? 'test plan' : type} indexed`,
        description: `documentation.json lists no ${type} document.`,
        ids: [type],
        action: `Index the ${type} in documentation.json (and write it if it does not exist).`,
        baseline: harvested,
      }),
    );
  }
  const spec = model.contracts.requirement_spec;
  const frds = byType.get('FRD') ?? [];
  if (spec !== null && frds.length > 0) {
    const functional = spec.requirements
      .filter((requirement) => requirement.type === 'functional' && !requirement.baseline)
      .map((requirement) => requirement.id);
    const stated = frds.filter((frd) => frd.covers !== null);
    if (stated.length === 0 && functional.length > 0) {
      findings.push(
        findingAt(model, 'documentation', {
          rule: 'documentation.frd_incomplete',
          title: 'The FRD does not state what it covers',
          description: `documentation.json does not list the requirement ids the FRD covers, so its coverage of ${functional.length} functional requirements cannot be verified.`,
          ids: [],
          action: 'List the covered requirement ids in the FRD entry (covers[]).',
          baseline: harvested,
        }),
      );
    } else if (stated.length > 0) {
      const covered = new Set(stated.flatMap((frd) => frd.covers ?? []));
      const missing = functional.filter((id) => !covered.has(id));
      if (missing.length > 0) {
        findings.push(
          findingAt(model, 'documentation', {
            rule: 'documentation.frd_incomplete',
            title: `The FRD misses ${missing.length} functional requirement${missing.length === 1 ? '' : 's'}`,
            description: `The FRD covers no section for ${listIds(missing)}.`,
            ids: missing,
            action: `Add ${listIds(missing)} to the FRD and to its covers[].`,
            extraArtifacts: stated.map((frd) => frd.path),
            baseline: harvested,
          }),
        );
      }
    }
  }
  return findings;
}
