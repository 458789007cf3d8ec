import type { FileSystem } from '../ports/file-system.js';
import { readTextOrRefusal } from '../runtime/contained-read.js';
import type { GoalInput } from './contracts/goal.js';
import { type LoadedGoal, loadGoal, loadGoalText, unreadableGoal } from './goal-source.js';

/** Reads a loop's goal: the option (parsed once) or goal.json (parsed again only when its text changed). @internal */
export class GoalReader {
  private fromOption: LoadedGoal | undefined;
  private fromFile: { readonly text: string | null; readonly loaded: LoadedGoal } | undefined;

  constructor(
    private readonly fs: FileSystem,
    private readonly option: GoalInput | undefined,
    private readonly stages: readonly string[],
  ) {}

  /** The goal as it stands now (`path`: the run's goal.json, read when no goal option was given). */
  async load(path: string): Promise<LoadedGoal> {
    if (this.option !== undefined) {
      this.fromOption ??= await loadGoal(this.fs, path, this.option, this.stages);
      return this.fromOption;
    }
    const text = await readTextOrRefusal(this.fs, path);
    // A goal.json that cannot be read (a FIFO, a directory, a symlink loop, bytes that are not UTF-8) is an invalid
    // goal, which stops the loop evaluation_error naming the file, as a malformed one does.
    if (text !== null && typeof text !== 'string') return unreadableGoal(text);
    if (this.fromFile?.text !== text) this.fromFile = { text, loaded: loadGoalText(text, this.stages) };
    return this.fromFile.loaded;
  }
}
