import type { Issue } from '../../errors.js';
import type { NormalizedStory } from '../contracts/jira-tickets.js';
import { type ContractMetadata, NO_ITEMS } from '../contracts/metadata.js';
import { type NormalizedContracts, readStageContract } from '../contracts/registry.js';
import type { NormalizedRequirement } from '../contracts/requirement-spec.js';
import type { NormalizedTest } from '../contracts/test-report.js';
import type { ContractInput, ReviewContracts } from './contract-input.js';
import { type ContractKey, type ContractSlot, REVIEW_CONTRACT_SLOTS } from './contract-slots.js';
import { columnIndex } from './link-table.js';
import { type DuplicateId, indexById, indexLinks, recordDuplicates, testsOfIndex } from './model-index.js';
import { linkModel, type ModelLinks } from './model-links.js';

/** What the review made of one contract slot: analysed, missing or malformed (with every issue), where it was read, and its metadata. @public */
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

/** The normalized ids-and-links model of a run: every id the contracts define and every explicit link between them, indexed both ways. @public */
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

/** One contract slot as read: its status and its normalized value (null when missing or malformed). @internal */
export interface SlotRead {
  readonly status: ContractStatus;
  readonly value: unknown;
}

/** Reads one slot's input into its status and normalized value. Pure; never throws on input. @internal */
export function readContractSlot(slot: ContractSlot, input: ContractInput | undefined): SlotRead {
  const base = { key: slot.key, stage: slot.stage, kind: slot.kind };
  if (input === undefined || input.state === 'missing')
    return {
      status: { ...base, state: 'missing', path: slot.canonicalPath, legacy: false, issues: [], meta: null },
      value: null,
    };
  const path = input.path === '' ? slot.canonicalPath : input.path;
  const legacy = input.legacy ?? false;
  if (input.state === 'invalid_json')
    return { status: { ...base, state: 'malformed', path, legacy, issues: input.issues, meta: null }, value: null };
  const read = readStageContract(slot.key, input.document);
  if (!read.ok)
    return { status: { ...base, state: 'malformed', path, legacy, issues: read.issues, meta: null }, value: null };
  return { status: { ...base, state: 'analysed', path, legacy, issues: [], meta: read.value.meta }, value: read.value };
}

/** Builds the normalized model of a run from its contract inputs. @public */
export function buildReviewModel(inputs: ReviewContracts): ReviewModel {
  return assembleReviewModel(REVIEW_CONTRACT_SLOTS.map((slot) => readContractSlot(slot, inputs[slot.key])));
}

/** Builds the model from one read per slot, in {@link REVIEW_CONTRACT_SLOTS} order: the statuses, the contracts and every index. Pure. @internal */
export function assembleReviewModel(reads: readonly SlotRead[]): ReviewModel {
  const statuses = reads.map((read) => read.status);
  const values = new Map(reads.map((read) => [read.status.key, read.value]));
  const contracts = Object.fromEntries(
    REVIEW_CONTRACT_SLOTS.map((slot) => [slot.key, values.get(slot.key) ?? null]),
  ) as unknown as NormalizedContracts;
  const duplicates: DuplicateId[] = [];
  const requirements = indexById('requirement_spec', contracts.requirement_spec?.requirements ?? [], duplicates);
  const stories = indexById('jira_tickets', contracts.jira_tickets?.stories ?? [], duplicates);
  const tests = contracts.test_report?.tests ?? [];
  recordDuplicates('test_report', tests, duplicates);
  recordDuplicates('threat_model', contracts.threat_model?.threats ?? [], duplicates);
  recordDuplicates('system_design', contracts.system_design?.controls ?? [], duplicates);
  const fields: ModelFields = {
    statuses,
    contracts,
    requirements,
    stories,
    tests,
    controlsOf: indexLinks(
      contracts.system_design?.controls ?? [],
      (control) => control.nfrIds,
      (control) => control.id,
    ),
    testsOfControl: indexLinks(
      tests,
      (test) => test.controls ?? NO_ITEMS,
      (test) => test.id,
    ),
    mitigationsOf: indexLinks(
      contracts.code_report?.files ?? [],
      (file) => file.mitigates ?? NO_ITEMS,
      (file) => file.path,
    ),
    duplicates,
  };
  return withLinks(fields, linkModel(fields));
}

// The model's fields that are not derived from its link columns.
type ModelFields = Omit<ReviewModel, 'storiesOf' | 'codeOf' | 'testsOf'>;

// The link columns of each model built here (or made from a model's fields on its first use).
const modelLinks = new WeakMap<ReviewModel, ModelLinks>();

/**
 * A model of `fields` over `links`: the id-keyed maps storiesOf, codeOf and testsOf are made from the columns on
 * their first read (the analyses read the columns). Pure. @internal
 */
export function withLinks(fields: ModelFields, links: ModelLinks): ReviewModel {
  let storiesOf: ReadonlyMap<string, readonly string[]> | undefined;
  let codeOf: ReadonlyMap<string, readonly string[]> | undefined;
  let testsOf: ReadonlyMap<string, readonly string[]> | undefined;
  const model: ReviewModel = {
    ...fields,
    get storiesOf() {
      storiesOf ??= columnIndex(links.space, links.storiesOf);
      return storiesOf;
    },
    get codeOf() {
      codeOf ??= columnIndex(links.space, links.codeOf);
      return codeOf;
    },
    get testsOf() {
      testsOf ??= testsOfIndex(fields.tests);
      return testsOf;
    },
  };
  modelLinks.set(model, links);
  return model;
}

/** The link columns of a model: made with it, or (for a model made another way) from its fields on first use. Pure. @internal */
export function linksOf(model: ReviewModel): ModelLinks {
  let links = modelLinks.get(model);
  if (links === undefined) {
    links = linkModel(model);
    modelLinks.set(model, links);
  }
  return links;
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
