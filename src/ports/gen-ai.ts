import type { SpanAttributes } from './tracer.js';

/** What a span stands for in OpenTelemetry's GenAI conventions. @internal */
export interface GenAiRole {
  readonly kind: 'workflow' | 'agent' | 'tool';
  /** The workflow's, agent's or tool's name (none when it has none). */
  readonly name?: string;
}

// Each role's operation, and the attribute that carries its name (a workflow is named as an agent, per the conventions).
const GEN_AI_ROLES = {
  workflow: { operation: 'invoke_workflow', nameKey: 'gen_ai.agent.name' },
  agent: { operation: 'invoke_agent', nameKey: 'gen_ai.agent.name' },
  tool: { operation: 'execute_tool', nameKey: 'gen_ai.tool.name' },
} as const;

/**
 * The GenAI attributes of a span of `role`: `gen_ai.operation.name`, and `gen_ai.agent.name` (or `gen_ai.tool.name`)
 * when the role has a name. @internal
 */
export function genAiAttributes(role: GenAiRole): SpanAttributes {
  const { operation, nameKey } = GEN_AI_ROLES[role.kind];
  return role.name === undefined
    ? { 'gen_ai.operation.name': operation }
    : { 'gen_ai.operation.name': operation, [nameKey]: role.name };
}

/**
 * The `error.type` of a failure: the thrown error's string `code` (a `GoalLoopError`'s), else its name (`TypeError`,
 * `AbortError`), else `_OTHER`, the conventions' value for a failure without a type. @internal
 */
export function errorTypeOf(error: unknown): string {
  try {
    const { code, name } = (typeof error === 'object' && error !== null ? error : {}) as {
      code?: unknown;
      name?: unknown;
    };
    if (typeof code === 'string' && code !== '') return code;
    if (typeof name === 'string' && name !== '') return name;
  } catch {
    // A getter that throws leaves the failure without a type.
  }
  return '_OTHER';
}
