import type { Issue } from '../errors.js';
import type { ContractInput, ReviewContracts } from './contract-input.js';
import { type ContractKey, REVIEW_CONTRACT_SLOTS } from './contract-slots.js';
import type { ContractMetadata } from './contracts/metadata.js';
import { type ContractValues, type NormalizedContracts, readStageContract } from './contracts/registry.js';
import type { NormalizedRequirement } from './contracts/requirement-spec.js';
import type { NormalizedStory } from './contracts/jira-tickets.js';
import type { NormalizedTest } from './contracts/test-report.js';

/**
 * What the review made of one contract slot: analysed, missing or malformed
 * (with every issue), where it was read, and its metadata.
 *
 * @public
 */
export interface ContractStatus {
  readonly key: ContractKey;
  readonly stage: string;
  readonly kind: 'core' | 'optional';
  readonly state: 'analysed' | 'missing' | 'malformed';
  /** Where it was read (relative to the run dir), or its canonical path when missing. */
  readonly path: string;
  readonly legacy: boolean;
  readonly issues: readonly Issue[];
  readonly meta: ContractMetadata | null;
}

/** An id defined twice in one contract. @public */
export interface DuplicateId {
  readonly key: ContractKey;
  readonly id: string;
}

/**
 * The normalized ids-and-links model of a run: every id the contracts define
 * and every explicit link between them, indexed both ways. Built once, read
 * by every analysis.
 *
 * @public
 */
export interface ReviewModel {
  readonly statuses: readonly ContractStatus[];
  readonly contracts: NormalizedContracts;
  readonly requirements: ReadonlyMap<string, NormalizedRequirement>;
  readonly stories: ReadonlyMap<string, NormalizedStory>;
  readonly tests: readonly NormalizedTest[];
  /** Story ids linked to each requirement id. */
  readonly storiesOf: ReadonlyMap<string, readonly string[]>;
  /** Code file paths implementing each story or requirement id. */
  readonly codeOf: ReadonlyMap<string, readonly string[]>;
  /** Test ids covering each story or requirement id. */
  readonly testsOf: ReadonlyMap<string, readonly string[]>;
  /** Control ids implementing each NFR id. */
  readonly controlsOf: ReadonlyMap<string, readonly string[]>;
  /** Test ids exercising each control id. */
  readonly testsOfControl: ReadonlyMap<string, readonly string[]>;
  /** Code file paths mitigating each threat id. */
  readonly mitigationsOf: ReadonlyMap<string, readonly string[]>;
  readonly duplicates: readonly DuplicateId[];
}

// Appends `value` to the list at `key`, creating it.
function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (list[list.length - 1] !== value) list.push(value);
}

// Reads one slot's input into its status and normalized value.
function readSlot<K extends ContractKey>(key: K, input: ContractInput | undefined): { status: Omit<ContractStatus, 'key' | 'stage' | 'kind'>; value: ContractValues[K] | null; canonical: string } {
  const canonical = REVIEW_CONTRACT_SLOTS.find((slot) => slot.key === key)?.canonicalPath ?? '';
  if (input === undefined || input.state === 'missing') return { status: { state: 'missing', path: canonical, legacy: false, issues: [], meta: null }, value: null, canonical };
  const path = input.path === '' ? canonical : input.path;
  const legacy = input.legacy ?? false;
  if (input.state === 'invalid_json') return { status: { state: 'malformed', path, legacy, issues: input.issues, meta: null }, value: null, canonical };
  const read = readStageContract(key, input.document);
  if (!read.ok) return { status: { state: 'malformed', path, legacy, issues: read.issues, meta: null }, value: null, canonical };
  return { status: { state: 'analysed', path, legacy, issues: [], meta: read.value.meta }, value: read.value, canonical };
}

// Indexes a list by id, keeping the first and recording duplicates.
function indexById<T extends { readonly id: string }>(key: ContractKey, items: readonly T[], duplicates: DuplicateId[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    if (map.has(item.id)) duplicates.push({ key, id: item.id });
    else map.set(item.id, item);
  }
  return map;
}

/**
 * Builds the normalized model of a run from its contract inputs. Pure; never
 * throws on input (a bad contract becomes a `malformed` status).
 *
 * @public
 */
export function buildReviewModel(inputs: ReviewContracts): ReviewModel {
  const statuses: ContractStatus[] = [];
  const values: Partial<Record<ContractKey, unknown>> = {};
  for (const slot of REVIEW_CONTRACT_SLOTS) {
    const { status, value } = readSlot(slot.key, inputs[slot.key]);
    statuses.push({ key: slot.key, stage: slot.stage, kind: slot.kind, ...status });
    values[slot.key] = value;
  }
  const contracts = Object.fromEntries(REVIEW_CONTRACT_SLOTS.map((slot) => [slot.key, values[slot.key] ?? null])) as unknown as NormalizedContracts;
  const duplicates: DuplicateId[] = [];
  const requirements = indexById('requirement_spec', contracts.requirement_spec?.requirements ?? [], duplicates);
  const stories = indexById('jira_tickets', contracts.jira_tickets?.stories ?? [], duplicates);
  const tests = contracts.test_report?.tests ?? [];
  indexById('test_report', tests, duplicates);
  indexById('threat_model', contracts.threat_model?.threats ?? [], duplicates);
  indexById('system_design', contracts.system_design?.controls ?? [], duplicates);

  const storiesOf = new Map<string, string[]>();
  for (const story of stories.values()) for (const id of story.requirementIds) push(storiesOf, id, story.id);
  const codeOf = new Map<string, string[]>();
  const mitigationsOf = new Map<string, string[]>();
  for (const file of contracts.code_report?.files ?? []) {
    for (const id of file.implements) push(codeOf, id, file.path);
    for (const id of file.mitigates) push(mitigationsOf, id, file.path);
  }
  const testsOf = new Map<string, string[]>();
  const testsOfControl = new Map<string, string[]>();
  for (const test of tests) {
    for (const id of test.storyIds) push(testsOf, id, test.id);
    for (const id of test.requirementIds) push(testsOf, id, test.id);
    for (const id of test.controls) push(testsOfControl, id, test.id);
  }
  const controlsOf = new Map<string, string[]>();
  for (const control of contracts.system_design?.controls ?? []) for (const id of control.nfrIds) push(controlsOf, id, control.id);
  return { statuses, contracts, requirements, stories, tests, storiesOf, codeOf, testsOf, controlsOf, testsOfControl, mitigationsOf, duplicates };
}

/** The status of one slot in the model. @public */
export function contractStatus(model: ReviewModel, key: ContractKey): ContractStatus {
  const found = model.statuses.find((status) => status.key === key);
  if (found === undefined) throw new TypeError(`unknown contract key "${key}"`);
  return found;
}

/** True when every contract in `keys` was read and analysed. @public */
export function hasContracts(model: ReviewModel, keys: readonly ContractKey[]): boolean {
  return keys.every((key) => model.contracts[key] !== null);
}
