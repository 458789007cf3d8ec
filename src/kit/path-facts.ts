// What a shell found at a path a contract names, after the containment rule: plain data for a pure core.

/** Why the containment rule refused a path. @public */
export type PathRefusalReason = 'invalid' | 'lexical' | 'symlink' | 'run_dir';

/**
 * A path named by a contract, after the containment rule: refused (outside the project, with why), missing, or present
 * with its type after symlinks are resolved. @public
 */
export type PathFact =
  | { readonly state: 'refused'; readonly detail: string; readonly reason?: PathRefusalReason }
  | { readonly state: 'missing'; readonly path: string }
  | { readonly state: 'present'; readonly path: string; readonly type: 'file' | 'directory' | 'other' };

/** Whether one evidence path of an agent claim resolves to a regular file inside the run dir or the project root (symlinks resolved). @public */
export interface EvidenceFact {
  readonly ok: boolean;
  readonly detail: string;
}
