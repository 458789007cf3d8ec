/** Maps a feedback issue's `remediation.agent_to_rerun` to a stage of the pipeline, trying in order: @public */
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

/** Orders stage ids by their position in the pipeline and drops duplicates. @public */
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
  /** The feedback report itself is outdated, or will be once this rerun has run. */
  readonly reportOutdated?: boolean;
}

/** The one rule for rerunning the feedback (review) stage. @public */
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
