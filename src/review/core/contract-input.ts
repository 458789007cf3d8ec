import type { Issue } from '../../errors.js';
import type { ContractKey } from './contract-slots.js';

/**
 * One stage contract as handed to {@link reviewPipeline}: missing, present but not JSON (with the parse issue), or
 * present with its parsed JSON value (any value: the review validates its shape). @public
 */
export type ContractInput =
  | { readonly state: 'missing' }
  | {
      readonly state: 'invalid_json';
      readonly path: string;
      readonly issues: readonly Issue[];
      readonly legacy?: boolean;
    }
  | { readonly state: 'present'; readonly path: string; readonly document: unknown; readonly legacy?: boolean };

/** The contracts of one run, by key. @public */
export type ReviewContracts = { readonly [K in ContractKey]?: ContractInput };

/** Wraps an already-parsed JSON value as a present contract (for callers that hold documents in memory). @public */
export function presentContract(document: unknown, path = ''): ContractInput {
  return { state: 'present', path, document };
}
