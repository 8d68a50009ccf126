// Parses shell text with mvdan/sh (the `mvdan-sh` build, bash dialect) into the tree of shell-tree.ts.
//
// Deterministic: the parser is a pure function of the text. Nodes this file does not convert one by
// one (arithmetic, test expressions, parameter operations) are searched for the command
// substitutions inside them, so no command that would run is lost.
import sh, { type ShNode } from 'mvdan-sh';
import { decodeAnsiC, unescapeDoubleQuoted, unescapeUnquoted } from './shell-escapes.js';
import type { ShellAssign, ShellCommand, ShellPart, ShellRedirect, ShellStmt, ShellWord } from './shell-tree.js';

const { syntax } = sh;

/** mvdan/sh's token numbers for redirection operators (checked by a test against the parser itself). */
export const REDIRECT_OPERATORS: { readonly [token: number]: string } = {
  54: '>', 55: '>>', 56: '<', 57: '<>', 58: '<&', 59: '>&', 60: '>|', 61: '<<', 62: '<<-', 63: '<<<', 64: '&>', 65: '&>>',
};

/** mvdan/sh's token numbers for `&&`, `||`, `|` and `|&`. */
export const BINARY_OPERATORS: { readonly [token: number]: '&&' | '||' | '|' | '|&' } = { 10: '&&', 11: '||', 12: '|', 13: '|&' };

/** The outcome of parsing: the statements, or the parser's message. */
export type ParsedShell = { ok: true; stmts: ShellStmt[] } | { ok: false; error: string };

function child(node: ShNode, field: string): ShNode | null {
  const value = node[field];
  return typeof value === 'object' && value !== null ? (value as ShNode) : null;
}

function children(node: ShNode, field: string): ShNode[] {
  const value = node[field];
  return Array.isArray(value) ? value.filter((item): item is ShNode => typeof item === 'object' && item !== null) : [];
}

function text(node: ShNode | null, field: string): string {
  const value = node?.[field];
  return typeof value === 'string' ? value : '';
}

/** Every statement of the command substitutions and process substitutions found inside `node`. */
function nestedStmts(node: ShNode): ShellStmt[] {
  const found: ShellStmt[] = [];
  syntax.Walk(node, (inner) => {
    if (inner === null) return false;
    const type = syntax.NodeType(inner);
    if (type === 'CmdSubst' || type === 'ProcSubst') {
      found.push(...stmts(children(inner, 'Stmts')));
      return false;
    }
    return true;
  });
  return found;
}

function parts(nodes: ShNode[], quoted: boolean): ShellPart[] {
  return nodes.flatMap((part): ShellPart[] => {
    switch (syntax.NodeType(part)) {
      case 'Lit': {
        const raw = text(part, 'Value');
        return [{ kind: 'text', text: quoted ? unescapeDoubleQuoted(raw) : unescapeUnquoted(raw), quoted }];
      }
      case 'SglQuoted': return [{ kind: 'text', text: part.Dollar === true ? decodeAnsiC(text(part, 'Value')) : text(part, 'Value'), quoted: true }];
      case 'DblQuoted': return parts(children(part, 'Parts'), true);
      case 'CmdSubst': case 'ProcSubst': return [{ kind: 'subst', stmts: stmts(children(part, 'Stmts')), quoted }];
      case 'ParamExp': {
        const plain = part.Exp === null && part.Slice === null && part.Repl === null && part.Index === null && part.Length !== true && part.Excl !== true;
        const name = text(child(part, 'Param'), 'Value');
        return plain && name !== '' ? [{ kind: 'param', name, quoted }] : [{ kind: 'dynamic', stmts: nestedStmts(part) }];
      }
      case 'BraceExp': {
        if (part.Sequence === true) return [{ kind: 'text', text: '*', quoted: false }];
        return [{ kind: 'brace', alternatives: children(part, 'Elems').map(word) }];
      }
      default: return [{ kind: 'dynamic', stmts: nestedStmts(part) }];
    }
  });
}

/** Whether an unquoted literal of the word has a `{` (only then can it hold a brace expansion). */
function mayHaveBraces(nodes: ShNode[]): boolean {
  return nodes.some((part) => syntax.NodeType(part) === 'Lit' && text(part, 'Value').includes('{'));
}

function word(node: ShNode): ShellWord {
  const direct = children(node, 'Parts');
  return { parts: parts(mayHaveBraces(direct) ? children(syntax.SplitBraces(node), 'Parts') : direct, false) };
}

function maybeWord(node: ShNode | null): ShellWord | null {
  return node === null ? null : word(node);
}

/** A here-document body: expansions apply (unless its delimiter was quoted), globs and braces do not. */
function heredocWord(node: ShNode | null): ShellWord | null {
  return node === null ? null : { parts: parts(children(node, 'Parts'), true) };
}

function assign(node: ShNode): ShellAssign {
  const name = child(node, 'Name');
  const array = child(node, 'Array');
  if (array !== null) return { name: text(name, 'Value'), value: { parts: [{ kind: 'dynamic', stmts: nestedStmts(array) }] } };
  return { name: name === null ? null : text(name, 'Value'), value: maybeWord(child(node, 'Value')) };
}

function redirect(node: ShNode): ShellRedirect {
  const op = REDIRECT_OPERATORS[Number(node.Op)] ?? '?';
  const fd = child(node, 'N');
  return { op, fd: fd === null ? null : text(fd, 'Value'), target: maybeWord(child(node, 'Word')), heredoc: heredocWord(child(node, 'Hdoc')) };
}

function group(nodes: ShNode[], words: ShNode[], subshell: boolean): ShellCommand {
  return { kind: 'group', stmts: stmts(nodes), words: words.map(word), subshell };
}

function ifClause(node: ShNode): ShNode[] {
  const rest = child(node, 'Else');
  return [...children(node, 'Cond'), ...children(node, 'Then'), ...(rest === null ? [] : ifClause(rest))];
}

function command(node: ShNode): ShellCommand {
  switch (syntax.NodeType(node)) {
    case 'CallExpr': return { kind: 'call', assigns: children(node, 'Assigns').map(assign), args: children(node, 'Args').map(word) };
    case 'DeclClause': return { kind: 'decl', variant: text(child(node, 'Variant'), 'Value'), assigns: children(node, 'Args').map(assign) };
    case 'BinaryCmd': {
      const left = child(node, 'X');
      const right = child(node, 'Y');
      const op = BINARY_OPERATORS[Number(node.Op)] ?? '&&';
      return { kind: 'binary', op, left: left === null ? empty() : stmt(left), right: right === null ? empty() : stmt(right) };
    }
    case 'Subshell': return group(children(node, 'Stmts'), [], true);
    case 'Block': return group(children(node, 'Stmts'), [], false);
    case 'IfClause': return group(ifClause(node), [], false);
    case 'WhileClause': return group([...children(node, 'Cond'), ...children(node, 'Do')], [], false);
    case 'ForClause': {
      const loop = child(node, 'Loop');
      const items = loop === null ? [] : children(loop, 'Items');
      return { kind: 'group', stmts: stmts(children(node, 'Do')), words: items.map(word), subshell: false };
    }
    case 'CaseClause': {
      const subject = child(node, 'Word');
      const items = children(node, 'Items');
      return group(items.flatMap((item) => children(item, 'Stmts')), subject === null ? [] : [subject], false);
    }
    case 'FuncDecl': {
      const body = child(node, 'Body');
      return { kind: 'function', name: text(child(node, 'Name'), 'Value'), body: body === null ? empty() : stmt(body) };
    }
    case 'TimeClause': case 'CoprocClause': {
      const inner = child(node, 'Stmt');
      return { kind: 'group', stmts: inner === null ? [] : [stmt(inner)], words: [], subshell: false };
    }
    default: return { kind: 'group', stmts: nestedStmts(node), words: [], subshell: true };
  }
}

function empty(): ShellStmt {
  return { command: null, redirects: [] };
}

function stmt(node: ShNode): ShellStmt {
  const cmd = child(node, 'Cmd');
  return { command: cmd === null ? null : command(cmd), redirects: children(node, 'Redirs').map(redirect) };
}

function stmts(nodes: ShNode[]): ShellStmt[] {
  return nodes.map(stmt);
}

function errorText(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'Error' in error && typeof error.Error === 'function') {
    const message: unknown = (error.Error as () => unknown).call(error);
    if (typeof message === 'string') return message;
  }
  return error instanceof Error ? error.message : 'the parser gave no reason';
}

/**
 * Parses `source` as a bash script.
 * @example parseShell('cd dir && rm -f -- *') // { ok: true, stmts: [{ command: { kind: 'binary', op: '&&', … } }] }
 */
export function parseShell(source: string): ParsedShell {
  try {
    const file = syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(source, '');
    return { ok: true, stmts: stmts(children(file, 'Stmts')) };
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}
