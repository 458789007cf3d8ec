import type { FileSystem } from '../ports/file-system.js';
import type { GoalInput } from './contracts/goal.js';
import { type LoadedGoal, loadGoal, loadGoalText } from './goal-source.js';

/**
 * Reads a loop's goal: the `goal` option (parsed once) or the run's goal.json
 * (read each time, parsed again only when its text changed).
 *
 * @internal
 */
export class GoalReader {
  private fromOption: LoadedGoal | undefined;
  private fromFile: { readonly text: string | null; readonly loaded: LoadedGoal } | undefined;

  constructor(
    private readonly fs: FileSystem,
    private readonly path: string,
    private readonly option: GoalInput | undefined,
    private readonly stages: readonly string[],
  ) {}

  /** The goal as it stands now. */
  async load(): Promise<LoadedGoal> {
    if (this.option !== undefined) {
      this.fromOption ??= await loadGoal(this.fs, this.path, this.option, this.stages);
      return this.fromOption;
    }
    const text = await this.fs.readText(this.path);
    if (this.fromFile?.text !== text) this.fromFile = { text, loaded: loadGoalText(text, this.stages) };
    return this.fromFile.loaded;
  }
}
