// What a script changes as it runs that later commands depend on: the directory and the variables.

/** The walker's state: the cwd (null once it is known only at run time) and assigned variables (null: unknown value). */
export interface ShellState {
  cwd: string | null;
  vars: Map<string, string | null>;
}

/** A copy for a subshell, a pipeline stage or a substitution: their changes do not reach the caller. */
export function forkState(state: ShellState): ShellState {
  return { cwd: state.cwd, vars: new Map(state.vars) };
}
