// Where the context layer lives and what it holds (DESIGN §9): plain names, no I/O.

/** The context layer's folder, relative to the project root: project-level, outside `.loop/`, so stash, clean and mode switching never touch it. */
export const CONTEXT_DIR = '.yoke/context';

/** The three context files, in the order the "Project context" block lists them. */
export const CONTEXT_FILES = ['PROJECT.md', 'DECISIONS.md', 'KNOWLEDGE.md'] as const;
export type ContextFileName = (typeof CONTEXT_FILES)[number];

/** The files that are yoke's during a run: an agent's change is restored. KNOWLEDGE.md is the agents'. */
export const PROTECTED_CONTEXT_FILES = ['PROJECT.md', 'DECISIONS.md'] as const;
export type ProtectedContextFile = (typeof PROTECTED_CONTEXT_FILES)[number];

/** The decision ledger yoke appends an entry to after each accepted unit of work. */
export const DECISIONS_FILE = `${CONTEXT_DIR}/DECISIONS.md`;

/** `context-budget` when yoke.conf does not set one: the block's size in characters. */
export const DEFAULT_CONTEXT_BUDGET = 8000;
