import { z } from 'zod';
import { isArrayOf, isObject } from '../../kit/zod-fast-path.js';
import { hasContractMetadata, isIdList, isNameOrNamed } from './fast-parse.js';
import {
  type ContractMetadata,
  type ContractRead,
  contractMetadataFields,
  hasKey,
  idListSchema,
  isHarvestShape,
  metadataOf,
  NO_ITEMS,
  readWith,
} from './metadata.js';

/** The canonical `deployment_report.json` (stage 09-deployment): the stories deployed, the environments, and the rollback procedure. @public */
export const deploymentReportSchema = z.looseObject({
  ...contractMetadataFields,
  deployed_stories: idListSchema.describe('Story ids (US-nnn) of jira_tickets.json that were deployed.').optional(),
  environments: z.array(z.union([z.string().min(1), z.looseObject({ name: z.string().min(1) })])),
  rollback: z.unknown().optional(),
});

/** The fast predicate of {@link deploymentReportSchema} (see FastCheck). @internal */
export function isCanonicalDeploymentReport(value: unknown): boolean {
  return (
    isObject(value) &&
    hasContractMetadata(value) &&
    (value.deployed_stories === undefined || isIdList(value.deployed_stories)) &&
    isArrayOf(value.environments, isNameOrNamed)
  );
}

// The baseline rstack-agents' `adopt` harvests for 09-deployment (harvest.js): CI pipeline and deploy config paths, no environments.
const harvestedDeploymentReportSchema = z.looseObject({
  ...contractMetadataFields,
  ci_pipelines: z.array(z.string()).optional(),
  deploy_configs: z.array(z.string()).optional(),
});

/** `deployment_report.json`, normalized. `deployedStories` is null when the shape does not list them. @public */
export interface DeploymentReportContract {
  readonly meta: ContractMetadata;
  readonly deployedStories: readonly string[] | null;
  readonly environments: readonly string[];
}

/** Reads deployment_report.json (canonical and rstack-agents' shapes, and an adoption's harvest). @internal */
export function readDeploymentReport(input: unknown): ContractRead<DeploymentReportContract> {
  if (!hasKey(input, 'environments') && isHarvestShape(input, ['ci_pipelines', 'deploy_configs'])) {
    return readWith(harvestedDeploymentReportSchema, input, (parsed) => ({
      meta: metadataOf(parsed),
      deployedStories: null,
      environments: NO_ITEMS,
    }));
  }
  return readWith(
    deploymentReportSchema,
    input,
    (parsed) => ({
      meta: metadataOf(parsed),
      deployedStories: parsed.deployed_stories ?? null,
      environments: parsed.environments.map((environment) =>
        typeof environment === 'string' ? environment : environment.name,
      ),
    }),
    isCanonicalDeploymentReport,
  );
}
