// What a script changes as it runs that later commands depend on: the directory and the variables.

/**
 * The walker's state: the cwd (null once it is known only at run time), assigned variables (null:
 * unknown value) and the files the command wrote so far, by absolute path, with their text (null:
 * written with text yoke cannot see).
 */
export interface ShellState {
  cwd: string | null;
  vars: Map<string, string | null>;
  files?: Map<string, string | null>;
}

/** A copy for a subshell, a pipeline stage or a substitution: their changes do not reach the caller. */
export function forkState(state: ShellState): ShellState {
  return { cwd: state.cwd, vars: new Map(state.vars), files: new Map(state.files) };
}
