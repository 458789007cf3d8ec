import { type Finding, findingAt } from '../core/finding.js';
import type { ContractStatus, ReviewModel } from '../core/model.js';

/** A gap between sequential stages' timestamps above this is reported (INFO). @public */
export const TIMESTAMP_GAP_MS = 60 * 60 * 1000;

const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

// The UTC instant the written calendar fields name, or null when they name none: the date rebuilt from them must have the same year, month, day, hour, minute and second.
function utcInstant(fields: readonly (string | undefined)[]): number | null {
  const [year, month, day, hour, minute, second] = fields.map((field) => Number(field ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second);
  const real =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second;
  return real ? date.getTime() : null;
}

// The zone offset in minutes east of UTC (none or `Z`: 0), or null for an offset past 23:59.
function offsetMinutes(
  sign: string | undefined,
  hours: string | undefined,
  minutes: string | undefined,
): number | null {
  if (sign === undefined) return 0;
  const [h, m] = [Number(hours), Number(minutes ?? 0)];
  if (h > 23 || m > 59) return null;
  return (sign === '-' ? -1 : 1) * (h * 60 + m);
}

/**
 * The epoch milliseconds of an ISO 8601 timestamp (date, or date and time with an optional zone `Z`, `±hh`, `±hhmm` or
 * `±hh:mm`), or null when it is not one. @public
 */
export function parseIsoTimestamp(value: string): number | null {
  const match = ISO_8601.exec(value);
  if (match === null) return null;
  const instant = utcInstant(match.slice(1, 7));
  const offset = offsetMinutes(match[9], match[10], match[11]);
  if (instant === null || offset === null) return null;
  const millis = Number((match[7] ?? '').slice(0, 3).padEnd(3, '0'));
  return instant + millis - offset * 60_000;
}

// The version most contracts state; ties go to the highest version string.
function majorityVersion(statuses: readonly ContractStatus[]): string | null {
  const counts = new Map<string, number>();
  for (const status of statuses) {
    const version = status.meta?.contractVersion ?? null;
    if (version !== null) counts.set(version, (counts.get(version) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [version, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && version > best)) {
      best = version;
      bestCount = count;
    }
  }
  return best;
}

/** Analysis 6 (versions). @public */
export function analyseVersions(model: ReviewModel): Finding[] {
  const analysed = model.statuses.filter((status) => status.state === 'analysed' && status.meta !== null);
  const majority = majorityVersion(analysed);
  const findings: Finding[] = [];
  let previous: { status: ContractStatus; ms: number } | null = null;
  for (const status of analysed) {
    const meta = status.meta;
    if (meta === null) continue;
    if (majority !== null && meta.contractVersion !== null && meta.contractVersion !== majority) {
      findings.push(
        findingAt(model, status.key, {
          rule: 'versions.version_mismatch',
          title: `${status.key} is contract version ${meta.contractVersion}`,
          description: `${status.path} states contract_version ${meta.contractVersion} while most contracts state ${majority}.`,
          ids: [],
          action: `Regenerate ${status.key} at contract version ${majority}, or migrate it.`,
          baseline: meta.harvested,
        }),
      );
    }
    const missing = [
      meta.contractVersion === null ? 'contract_version' : null,
      meta.timestamp === null ? 'timestamp' : null,
    ].filter((field): field is string => field !== null);
    if (missing.length > 0 && !meta.harvested) {
      findings.push(
        findingAt(model, status.key, {
          rule: 'versions.metadata_missing',
          title: `${status.key} has no ${missing.join(' or ')}`,
          description: `${status.path} carries no ${missing.join(' and no ')}, so its version and freshness cannot be checked.`,
          ids: [],
          action: `Write ${missing.join(' and ')} into ${status.key}.`,
        }),
      );
    }
    if (meta.timestamp === null) continue;
    const ms = parseIsoTimestamp(meta.timestamp);
    if (ms === null) {
      findings.push(
        findingAt(model, status.key, {
          rule: 'versions.invalid_timestamp',
          title: `${status.key} has an invalid timestamp`,
          description: `${status.path} has timestamp "${meta.timestamp}", which is not ISO 8601.`,
          ids: [],
          action: `Write the timestamp of ${status.key} in ISO 8601 (e.g. 2025-01-31T12:00:00Z).`,
          baseline: meta.harvested,
        }),
      );
      continue;
    }
    if (previous !== null && status.kind === 'core' && ms - previous.ms > TIMESTAMP_GAP_MS) {
      const hours = Math.round(((ms - previous.ms) / TIMESTAMP_GAP_MS) * 10) / 10;
      findings.push(
        findingAt(model, status.key, {
          rule: 'versions.timestamp_gap',
          title: `${hours} h between ${previous.status.stage} and ${status.stage}`,
          description: `${status.stage} was written ${hours} hours after ${previous.status.stage}: the pipeline may have been interrupted.`,
          ids: [],
          action: `Check that ${status.stage} ran on the current output of ${previous.status.stage}.`,
        }),
      );
    }
    if (status.kind === 'core') previous = { status, ms };
  }
  return findings;
}
