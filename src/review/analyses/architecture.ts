import { NO_ITEMS } from '../contracts/metadata.js';
import { type Finding, findingAt } from '../core/finding.js';
import { hasContracts, type ReviewModel } from '../core/model.js';

/** Analysis 2, architecture ↔ code. @public */
export function analyseArchitecture(model: ReviewModel): Finding[] {
  const design = model.contracts.system_design;
  const code = model.contracts.code_report;
  if (design === null || code === null || !hasContracts(model, ['system_design', 'code_report'])) return [];
  const routes = new Set<string>();
  const rawTables = new Set<string>();
  const rawServices = new Set<string>();
  // Names are lower-cased once per distinct name, not once per file (files share a handful of services).
  for (let index = 0; index < code.files.length; index++) {
    const file = code.files[index] as (typeof code.files)[number];
    const { endpoints = NO_ITEMS, tables = NO_ITEMS, service } = file;
    for (let at = 0; at < endpoints.length; at++) routes.add(endpoints[at] as string);
    for (let at = 0; at < tables.length; at++) rawTables.add(tables[at] as string);
    if (service !== undefined) rawServices.add(service);
  }
  const tables = new Set([...rawTables].map((table) => table.toLowerCase()));
  const services = new Set([...rawServices].map((service) => service.toLowerCase()));
  const harvested = design.meta.harvested;
  const findings: Finding[] = [];
  for (const endpoint of design.endpoints) {
    if (routes.has(endpoint.key)) continue;
    findings.push(
      findingAt(model, 'code_report', {
        rule: 'architecture.endpoint_without_code',
        title: `No route for ${endpoint.key}`,
        description: `The design defines ${endpoint.key}${endpoint.service === null ? '' : ` on ${endpoint.service}`}, but no code file lists it in endpoints[].`,
        ids: [endpoint.key],
        action: `Generate the route and handler for ${endpoint.key} and list it in the code file's endpoints[].`,
        ...(endpoint.service === null ? {} : { module: endpoint.service }),
        baseline: harvested,
      }),
    );
  }
  for (const table of design.tables) {
    if (tables.has(table.toLowerCase())) continue;
    findings.push(
      findingAt(model, 'code_report', {
        rule: 'architecture.table_without_migration',
        title: `No migration for table ${table}`,
        description: `The design defines table ${table}, but no code file lists it in tables[].`,
        ids: [table],
        action: `Write the migration for ${table} and list it in the code file's tables[].`,
        baseline: harvested,
      }),
    );
  }
  for (const service of design.services) {
    if (services.has(service.toLowerCase())) continue;
    findings.push(
      findingAt(model, 'code_report', {
        rule: 'architecture.service_without_code',
        title: `No code for service ${service}`,
        description: `The design defines service ${service}, but no code file names it as its service.`,
        ids: [service],
        action: `Scaffold service ${service} and set service: "${service}" on its code files.`,
        module: service,
        baseline: harvested,
      }),
    );
  }
  return findings;
}
