import { z } from 'zod';

/** The `session_id` field of the fix-loop tools: the id `start_feedback_loop` returned. @internal */
export const sessionIdInput = z.string().min(1).describe('The fix session id start_feedback_loop returned.');
