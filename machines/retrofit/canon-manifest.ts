// canon/manifest.yaml: what the canon holds and what each agent gets, read with line numbers.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { CanonIssue } from './canon-issue.js';
import { isArtifactKind, isRetrofitAgent, SUPPORTED_KINDS, type ArtifactKind, type RetrofitAgent } from './retrofit-agents.js';

/** A list entry and the line it is on. */
export interface Located<T> {
  value: T;
  line: number;
}

/** The retrofit part of the manifest. */
export interface CanonManifest {
  version: number;
  instructions: Located<string>;
  skills: Located<string>[];
  policy: Located<string>[];
  context: Located<string>[];
  agents: Partial<Record<RetrofitAgent, ArtifactKind[]>>;
}

const FILE = 'manifest.yaml';

/** Parse the manifest; every problem becomes an issue with its line, and `manifest` is null if any. */
export function parseCanonManifest(text: string): { manifest: CanonManifest | null; issues: CanonIssue[] } {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true });
  const issues: CanonIssue[] = [];
  const lineOf = (node: Node | null | undefined): number => (node?.range ? counter.linePos(node.range[0]).line : 1);
  const fail = (node: Node | null | undefined, message: string): void => {
    issues.push({ file: FILE, line: lineOf(node), message });
  };
  for (const error of doc.errors) issues.push({ file: FILE, line: error.linePos?.[0].line ?? 1, message: `not valid YAML: ${error.message.split('\n')[0] ?? ''}` });
  if (issues.length > 0) return { manifest: null, issues };
  if (!isMap(doc.contents)) return { manifest: null, issues: [{ file: FILE, line: 1, message: 'must be a mapping with version, instructions, skills, policy, context and agents' }] };
  const root = doc.contents;
  const field = (key: string): Node | null => {
    const node = root.get(key, true);
    return (node as Node | undefined) ?? null;
  };

  const versionNode = field('version');
  const version = isScalar(versionNode) && typeof versionNode.value === 'number' && Number.isInteger(versionNode.value) && versionNode.value >= 1 ? versionNode.value : null;
  if (version === null) fail(versionNode, '`version` must be a whole number of 1 or more');

  const instructionsNode = field('instructions');
  const instructions = isScalar(instructionsNode) && typeof instructionsNode.value === 'string' ? { value: instructionsNode.value, line: lineOf(instructionsNode) } : null;
  if (instructions === null) fail(instructionsNode, '`instructions` must name the baseline file, like AGENTS.md');

  const strings = (key: string): Located<string>[] => {
    const node = field(key);
    if (!isSeq(node)) {
      fail(node, `\`${key}\` must be a list`);
      return [];
    }
    return node.items.flatMap((item) => {
      if (isScalar(item) && typeof item.value === 'string' && item.value !== '') return [{ value: item.value, line: lineOf(item) }];
      fail(item as Node, `every entry of \`${key}\` must be a non-empty string`);
      return [];
    });
  };
  const skills = strings('skills');
  const policy = strings('policy');
  const context = strings('context');

  const agents: Partial<Record<RetrofitAgent, ArtifactKind[]>> = {};
  const agentsNode = field('agents');
  if (!isMap(agentsNode)) fail(agentsNode, '`agents` must map each agent (claude, codex, gemini) to what it gets');
  else {
    for (const pair of agentsNode.items) {
      const name = isScalar(pair.key) ? String(pair.key.value) : '';
      const keyNode = pair.key as Node;
      if (!isRetrofitAgent(name)) {
        fail(keyNode, `unknown agent \`${name}\` (known: claude, codex, gemini)`);
        continue;
      }
      if (!isSeq(pair.value)) {
        fail(keyNode, `\`agents.${name}\` must be a list like [instructions, skills, gate]`);
        continue;
      }
      const kinds: ArtifactKind[] = [];
      for (const item of pair.value.items) {
        const kind = isScalar(item) ? String(item.value) : '';
        if (!isArtifactKind(kind)) fail(item as Node, `unknown artifact \`${kind}\` for ${name} (known: instructions, skills, commands, gate)`);
        else if (!SUPPORTED_KINDS[name].includes(kind)) fail(item as Node, `${name} has no \`${kind}\` (it supports ${SUPPORTED_KINDS[name].join(', ')})`);
        else if (kinds.includes(kind)) fail(item as Node, `\`${kind}\` is listed twice for ${name}`);
        else kinds.push(kind);
      }
      agents[name] = kinds;
    }
  }
  if (issues.length > 0 || version === null || instructions === null) return { manifest: null, issues };
  return { manifest: { version, instructions, skills, policy, context, agents }, issues };
}
