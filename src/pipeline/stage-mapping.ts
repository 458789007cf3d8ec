/**
 * Maps a feedback issue's `remediation.agent_to_rerun` to a stage of the
 * pipeline, trying in order:
 *
 * 1. the exact stage id (`07-code`, case-insensitive);
 * 2. `agent.<stage id>` (`agent.06-architecture`);
 * 3. the stage keyword: the name without a leading `agent.` / `agent-` /
 *    `agent_` and a trailing `_agent` / `-agent` / ` agent`, with `_` and
 *    spaces read as `-`, equal to the stage id without its `NN-` prefix
 *    (`architecture_agent` → `06-architecture`, `testing` → `08-testing`,
 *    `feedback_loop_agent` → `11-feedback-loop`);
 * 4. a prefix of a keyword, or a keyword followed by `-…`, of at least three
 *    characters (`security` → `12-security-threat-model`,
 *    `deploy` → `09-deployment`) — only when exactly one stage matches.
 *
 * Only stages of `stages` are candidates: a name that maps to a stage the
 * pipeline does not run maps to nothing. Returns `null` when nothing (or more
 * than one stage, ambiguously) matches; it never guesses. Pure.
 *
 * @example
 * ```ts
 * mapAgentToStage('architecture_agent', SDLC_STAGES); // '06-architecture'
 * mapAgentToStage('marketing', SDLC_STAGES);          // null
 * ```
 * @public
 */
export function mapAgentToStage(agent: string | null | undefined, stages: readonly string[]): string | null {
  if (typeof agent !== 'string') return null;
  const needle = agent.trim().toLowerCase();
  if (needle === '') return null;
  const exact = findStage(stages, (id) => id === needle || `agent.${id}` === needle);
  if (exact !== null) return exact;
  const keyword = keywordOfAgent(needle);
  if (keyword === '') return null;
  const byKeyword = findStage(stages, (id) => id === keyword || keywordOfStage(id) === keyword);
  if (byKeyword !== null) return byKeyword;
  if (keyword.length < 3) return null;
  const byPrefix = stages.filter((stage) => {
    const stageKeyword = keywordOfStage(stage.toLowerCase());
    return stageKeyword.startsWith(keyword) || keyword.startsWith(`${stageKeyword}-`);
  });
  return byPrefix.length === 1 ? (byPrefix[0] ?? null) : null;
}

// Strips the numeric order prefix from a lower-case stage id.
function keywordOfStage(id: string): string {
  return id.replace(/^\d+-/, '');
}

// Normalises a lower-case agent name to a keyword: no agent prefix or suffix, `_` and spaces as `-`.
function keywordOfAgent(needle: string): string {
  return needle
    .replace(/^agent[._-]/, '')
    .replace(/[_\s-]agent$/, '')
    .replace(/[_\s]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// Returns the first stage (in pipeline order) whose lower-case id satisfies `test`.
function findStage(stages: readonly string[], test: (lowerId: string) => boolean): string | null {
  for (const stage of stages) if (test(stage.toLowerCase())) return stage;
  return null;
}

/**
 * Orders stage ids by their position in the pipeline and drops duplicates;
 * ids that are not stages of the pipeline go last, in the order given. Pure.
 *
 * @example
 * ```ts
 * orderByPipeline(['08-testing', '07-code', '08-testing'], SDLC_STAGES); // ['07-code', '08-testing']
 * ```
 * @public
 */
export function orderByPipeline(stageIds: Iterable<string>, stages: readonly string[]): string[] {
  const rank = (id: string): number => {
    const at = stages.indexOf(id);
    return at === -1 ? stages.length : at;
  };
  return [...new Set(stageIds)]
    .map((id, order) => ({ id, order }))
    .sort((a, b) => rank(a.id) - rank(b.id) || a.order - b.order)
    .map(({ id }) => id);
}

/** Options of {@link withFeedbackRefresh}. @public */
export interface FeedbackRefreshOptions {
  /**
   * The feedback report itself is outdated, or will be once this rerun has
   * run: it is missing or unreadable, a metric read from it must be produced
   * again, or the review's own retry asks for it (default false).
   */
  readonly reportOutdated?: boolean;
}

/**
 * The one rule for rerunning the feedback (review) stage: it reruns when a
 * stage upstream of it reruns (one before it in the pipeline, or one the
 * pipeline does not list), so the review reads the new artifacts instead of
 * leaving a stale report behind (which would look like no progress), and
 * whenever its report is outdated (`reportOutdated`). It reruns only as a
 * stage of the pipeline. Returns the rerun list with the feedback stage
 * added, in pipeline order, or the list as given when the rule does not
 * apply (or the feedback stage is already in it). Pure.
 *
 * @example
 * ```ts
 * const stages = ['07-code', '08-testing', '11-feedback-loop'];
 * withFeedbackRefresh(['08-testing'], stages, '11-feedback-loop'); // ['08-testing', '11-feedback-loop']
 * withFeedbackRefresh([], stages, '11-feedback-loop', { reportOutdated: true }); // ['11-feedback-loop']
 * ```
 * @public
 */
export function withFeedbackRefresh(
  rerun: readonly string[],
  stages: readonly string[],
  feedbackStage: string,
  options: FeedbackRefreshOptions = {},
): string[] {
  const feedbackIndex = stages.indexOf(feedbackStage);
  if (feedbackIndex < 0 || rerun.includes(feedbackStage)) return [...rerun];
  const refresh = options.reportOutdated === true || rerun.some((stage) => stages.indexOf(stage) < feedbackIndex);
  return refresh ? orderByPipeline([...rerun, feedbackStage], stages) : [...rerun];
}
