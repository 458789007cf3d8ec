import { z } from 'zod';
import { optionShapeOf, refuseInvalidOptions, refuseOptions } from '../errors.js';
import { isInside, normalizePath } from '../kit/paths.js';
import type { Clock } from '../ports/clock.js';
import type { CommandRunner } from '../ports/command-runner.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Tracer } from '../ports/tracer.js';
import type { ListenerErrorHandler } from '../runtime/event-feed.js';
import type { AuditEntry } from './contracts/audit.js';
import type { KeepPolicy } from './core/keep.js';
import type { CandidateApplier, CandidateSource, EnvironmentProbe } from './host-ports.js';

/**
 * Options of {@link FixLoopOrchestrator}.
 *
 * @public
 */
export interface FixLoopOrchestratorOptions {
  /** The project's filesystem: sessions and workspaces live inside its root. */
  readonly fs: FileSystem;
  /** Sessions live in `<dir>/<sessionId>/`, relative to the filesystem root (e.g. `.goal-loop/fix-sessions`). */
  readonly dir: string;
  /** Runs the build and test commands (and the default probe's `command -v`) in the workspace. */
  readonly commands: CommandRunner;
  /** The host's source of fixes. */
  readonly candidates: CandidateSource;
  /** Carries out automatic candidates (for unified diffs: `createGitPatchApplier`). */
  readonly applier: CandidateApplier;
  /**
   * Which applied fixes stay: `'improving'` (default when the applier can `revert`) reverts a fix that does not lower
   * the gap; `'all'` (default otherwise) keeps every fix. `'improving'` without `revert` is refused.
   */
  readonly keep?: KeepPolicy;
  /** Checks the environment before the first measurement (default: `createEnvironmentProbe`). */
  readonly probe?: EnvironmentProbe;
  /** Time source (default: `systemClock`); session ids and durations come from it. */
  readonly clock?: Clock;
  /**
   * Aborts the step in progress: the call rejects with the signal's reason; once fired, every call rejects at once and
   * writes nothing. A step cut off is recorded as interrupted on the next call.
   */
  readonly signal?: AbortSignal;
  /** Receives every audit entry as it is appended; what it throws goes to `onListenerError`, never to the step. */
  readonly onEvent?: (entry: AuditEntry) => void;
  /** Receives what `onEvent` threw, with the entry; the step goes on. Default: one `console.warn` line. */
  readonly onListenerError?: ListenerErrorHandler<AuditEntry>;
  /** Time limit of each build and test command run, in ms (default 600 000). */
  readonly commandTimeoutMs?: number;
  /**
   * Time limit of each host call (`probe`, `propose`, `apply`), in ms (default 600 000): at the limit the call is
   * aborted and counts as failed ("timed out after N ms").
   */
  readonly hostCallTimeoutMs?: number;
  /** A session lock whose heartbeat is older than this is stale (default 600 000 ms, 10 minutes). A lock whose holder ran on this host and whose process is gone is taken over at once. */
  readonly lockTimeoutMs?: number;
  /** Where the spans go (`fix_loop.session` → `fix_loop.step` → `fix_loop.command`); default the global tracer, if any. */
  readonly tracer?: Tracer;
  /** Also give the spans OpenTelemetry's GenAI attributes (docs/tracing.md). Default `false`. */
  readonly genAiAttributes?: boolean;
}

/** An option that must be an object with these methods (a port). @internal */
export const port = (name: string, methods: readonly string[]) =>
  z.custom(
    (value) =>
      typeof value === 'object' &&
      value !== null &&
      methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function'),
    { message: `${name} must be an object with ${methods.join(', ')}` },
  );

// Every option has an entry (checked against FixLoopOrchestratorOptions), so a key outside it is a misspelling.
const optionShape = optionShapeOf<FixLoopOrchestratorOptions>()({
  fs: port('fs', ['readText', 'writeText', 'appendText', 'truncate', 'createExclusive', 'stat', 'remove']),
  dir: z
    .string()
    .min(1)
    .refine((dir) => !dir.startsWith('/') && isInside(dir, '.') && normalizePath(dir) !== '.', {
      message: 'dir must be a relative path inside the filesystem root',
    }),
  commands: port('commands', ['run']),
  candidates: port('candidates', ['propose']),
  applier: port('applier', ['apply']),
  keep: z.enum(['improving', 'all']).optional(),
  probe: port('probe', ['probe']).optional(),
  clock: port('clock', ['now', 'sleep']).optional(),
  signal: z
    .custom<AbortSignal>((value) => typeof value === 'object' && value !== null && 'aborted' in value, {
      message: 'signal must be an AbortSignal',
    })
    .optional(),
  onEvent: z.custom((value) => typeof value === 'function', { message: 'onEvent must be a function' }).optional(),
  onListenerError: z
    .custom((value) => typeof value === 'function', { message: 'onListenerError must be a function' })
    .optional(),
  commandTimeoutMs: z.int().min(1).optional(),
  hostCallTimeoutMs: z.int().min(1).optional(),
  lockTimeoutMs: z.int().min(1).optional(),
  tracer: port('tracer', ['startSpan']).optional(),
  genAiAttributes: z.boolean().optional(),
});

/** `INVALID_OPTIONS` listing every issue with its JSON path, unknown keys included (with a did-you-mean). @internal */
export function validateFixLoopOptions(options: FixLoopOrchestratorOptions): void {
  refuseInvalidOptions('FixLoopOrchestrator', optionShape, options);
  if (options.keep === 'improving' && typeof options.applier.revert !== 'function')
    refuseOptions('FixLoopOrchestrator', [
      { code: 'custom', path: ['keep'], message: "keep 'improving' needs an applier with revert(); this one has none" },
    ]);
}

/** The keep policy that applies: the one given, else `improving` when the applier can revert. @internal */
export function keepPolicyOf(options: FixLoopOrchestratorOptions): KeepPolicy {
  return options.keep ?? (typeof options.applier.revert === 'function' ? 'improving' : 'all');
}

/** A session id is one safe path segment. @internal */
export const sessionIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, {
  message: 'a session id is one path segment of letters, digits, ".", "_" and "-" (at most 128)',
});
