// Interpreters: program text given inline (`python -c`, `node -e`, `perl -e`, a here-document on
// stdin, a script file whose text yoke can see) is scanned for what it names; `python -m pip install` is network.
import type { Finding } from '../classification.js';
import type { Arg, CommandContext, CommandRule } from '../shell/command-context.js';
import { splitOptions } from '../shell/split-options.js';
import { inlineCodeFindings } from './inline-code-findings.js';
import { scriptFileFindings } from './script-file.js';
import { isYokeEntry, operatorCommand, yokeVia } from './yoke-rules.js';

/** How one interpreter takes inline code. */
interface InterpreterSpec {
  lang: string;
  /** Options whose value is the program. */
  code: readonly string[];
  /** Other options that take a value. */
  valued: readonly string[];
  /** Edits its file operands in place with `-i` (perl, ruby). */
  inPlace?: boolean;
  /** The program is the first operand unless given by option (awk). */
  programFirst?: boolean;
}

const PYTHON: InterpreterSpec = { lang: 'python', code: ['c'], valued: ['m', 'W', 'X', 'Q'] };
const NODE: InterpreterSpec = { lang: 'node', code: ['e', 'eval', 'p', 'print'], valued: ['r', 'require', 'import', 'loader', 'C', 'conditions'] };
const AWK: InterpreterSpec = { lang: 'awk', code: [], valued: ['f', 'v', 'F', 'file', 'assign', 'field-separator'], programFirst: true };

/** The interpreters `runInterpreter` knows, by command name. */
export const INTERPRETERS: { readonly [name: string]: InterpreterSpec } = {
  python: PYTHON, python2: PYTHON, python3: PYTHON, pypy: PYTHON, pypy3: PYTHON,
  node: NODE, nodejs: NODE, bun: { ...NODE, lang: 'bun' }, deno: { lang: 'deno', code: [], valued: [] },
  perl: { lang: 'perl', code: ['e', 'E'], valued: ['I', 'M', 'm', 'x'], inPlace: true },
  ruby: { lang: 'ruby', code: ['e'], valued: ['I', 'r', 'C', 'E'], inPlace: true },
  php: { lang: 'php', code: ['r', 'B', 'R', 'E'], valued: ['c', 'd', 'z', 'f'] },
  lua: { lang: 'lua', code: ['e'], valued: ['l'] },
  Rscript: { lang: 'R', code: ['e'], valued: [] },
  awk: AWK, gawk: AWK, mawk: AWK, nawk: AWK,
};

/** The interpreter behind a versioned name: `python3.12` → python3. */
export function interpreterName(name: string): string | undefined {
  if (INTERPRETERS[name] !== undefined) return name;
  const base = /^(python[23]?|pypy3?|ruby|perl|php|node|lua)[0-9.]+$/.exec(name)?.[1];
  return base !== undefined && INTERPRETERS[base] !== undefined ? base : undefined;
}

function moduleFindings(module: string | null, operands: readonly Arg[]): Finding[] {
  if (module === null) return [{ class: 'exec', reason: 'it runs a Python module known only when it runs' }];
  const sub = operands[0]?.text ?? '';
  if ((module === 'pip' || module === 'pip3') && ['install', 'download', 'search', 'wheel'].includes(sub)) return [{ class: 'network', reason: `\`python -m ${module} ${sub}\` downloads packages` }];
  if (module === 'http.server' || module === 'SimpleHTTPServer' || module === 'smtpd') return [{ class: 'network', reason: `\`python -m ${module}\` serves on the network` }];
  return [{ class: 'exec', reason: `it runs the Python module ${module}` }];
}

function programOf(spec: InterpreterSpec, split: ReturnType<typeof splitOptions>): { code: Arg | undefined; operands: Arg[] } {
  const byOption = spec.code.map((option) => split.values.get(option)?.[0]).find((arg) => arg !== undefined);
  if (byOption !== undefined) return { code: byOption, operands: split.operands };
  if (spec.programFirst === true && !split.values.has('f') && !split.values.has('file')) return { code: split.operands[0], operands: split.operands.slice(1) };
  return { code: undefined, operands: split.operands };
}

function scriptFile(spec: InterpreterSpec, operands: readonly Arg[], ctx: CommandContext): Finding[] {
  const file = operands[0];
  if (file === undefined || file.text === '-') {
    if (ctx.stdin !== undefined) return inlineCodeFindings(ctx.stdin, spec.lang, ctx);
    return [{ class: 'exec', reason: `it runs ${spec.lang} code from its standard input, which yoke cannot see` }];
  }
  // `node dist/bundle/yoke.js answer …` is yoke; so is an unknown script given yoke's operator words
  if (isYokeEntry(file.text) || file.text === null && operatorCommand(operands.slice(1)) !== null) return yokeVia(operands.slice(1), ctx);
  return scriptFileFindings(file, ctx, spec.lang, (text) => inlineCodeFindings(text, spec.lang, ctx));
}

/** `python -c …`, `node -e …`, `perl -pi -e … files`, `awk '…' file`, `python script.py`. */
export const runInterpreter: CommandRule = (name, args, ctx) => {
  const spec = INTERPRETERS[interpreterName(name) ?? ''] ?? PYTHON;
  if (spec.lang === 'deno' && args[0]?.text === 'eval') return args[1]?.text == null ? [{ class: 'exec', reason: '`deno eval` runs code known only when it runs' }] : inlineCodeFindings(args[1].text, 'deno', ctx);
  const split = splitOptions(args, { valued: [...spec.code, ...spec.valued], stopAtOperand: !spec.programFirst });
  if (spec.lang === 'python' && split.values.has('m')) return moduleFindings(split.values.get('m')?.[0]?.text ?? null, split.operands);
  const { code, operands } = programOf(spec, split);
  if (code === undefined) return scriptFile(spec, operands, ctx);
  const codeFindings = code.text === null ? [{ class: 'exec' as const, reason: `it runs ${spec.lang} code known only when it runs` }] : inlineCodeFindings(code.text, spec.lang, ctx);
  const inPlace = spec.inPlace === true && split.flags.has('i');
  const files = operands.flatMap((arg) => ctx.path(inPlace ? 'write' : 'read', arg, `${spec.lang}${inPlace ? ' -i rewrites' : ' reads'}`));
  return [...codeFindings, ...files];
};
