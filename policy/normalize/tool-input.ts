// Reads the fields of a tool call's input, which arrives as an object or as a JSON string (codex
// function-call arguments), without trusting its shape.

/** `{ empties: true }` when the input's `content` is the empty string (a Write that leaves the file empty), else nothing. */
export function emptiesFile(input: Record<string, unknown>): { empties?: true } {
  return input.content === '' ? { empties: true } : {};
}

/** The input as an object: a JSON string is parsed; anything else that is no object is empty. */
export function inputObject(input: unknown): Record<string, unknown> {
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** The first of `names` that holds a non-empty string, or null. */
export function stringField(input: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) {
    const value = input[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/** A field holding a string or a list of strings, as a list. */
export function stringList(input: Record<string, unknown>, name: string): string[] {
  const value = input[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** An argv list (`["bash", "-lc", "…"]`) as one shell command line, each word quoted. */
export function argvCommand(argv: readonly string[]): string {
  return argv.map((word) => (/^[A-Za-z0-9_./=:@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`)).join(' ');
}
