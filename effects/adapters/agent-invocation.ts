// What an agent adapter decides about one call: the command line and its extra environment.

/** How to start one agent call; the runner adds the YOKE_* variables, stdin, cwd and process group. */
export interface AgentInvocation {
  /** run by `sh -c` in the project root */
  command: string;
  /** adapter-specific environment added to the call's environment */
  env: Record<string, string>;
}

/** The tool-call gate a built-in agent call is wired to (DESIGN §13). */
export interface AgentGate {
  /** the hook command line (shell words) */
  command: string;
  /** the session to resume, or null for a fresh one */
  resume: string | null;
  /** a private home whose user settings carry the hook (Gemini CLI's GEMINI_CLI_HOME), or null */
  home?: string | null;
  /** variables that load the hook from a private location (qwen's QWEN_CODE_SYSTEM_SETTINGS_PATH, opencode's plugin), or null */
  settingsEnv?: Record<string, string> | null;
}
