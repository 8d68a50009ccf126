// cli/canon.ts with the shipped canon/: every lifecycle's init templates make a valid workspace.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/parse-config.js';
import { modeTemplates } from '../../cli/canon.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

const MODES = LIFECYCLE_REGISTRY.map((lifecycle) => lifecycle.name);

const text = (files: Record<string, Buffer>, name: string): string => files[name]?.toString('utf8') ?? '';

describe.each(MODES)('canon templates for %s mode', (mode) => {
  const templates = modeTemplates(mode);
  if (!templates) throw new Error(`the registry has no ${mode} lifecycle`);

  it('include a yoke.conf for this mode that parses without a single issue', () => {
    const { config, issues } = parseConfig(text(templates.files, 'yoke.conf'), 'yoke.conf', LIFECYCLE_REGISTRY);
    expect(issues).toEqual([]);
    expect(config?.mode).toBe(mode);
  });

  it('choose `agent claude` (what `yoke init` rewrites), with every other built-in and `agent cmd` as commented alternatives', () => {
    const conf = text(templates.files, 'yoke.conf').split('\n');
    expect(conf.filter((line) => /^agent /.test(line))).toEqual(['agent claude']);
    const start = conf.indexOf('agent claude');
    expect(conf.slice(start, start + 5)).toEqual(['agent claude', '# agent codex', '# agent gemini', '# agent opencode', '# agent qwen']);
    expect(conf).toContain('# agent cmd my-agent --non-interactive');
  });

  it('write every spec file, yoke.conf, protocol.md, notes.md and the .gitignore that keeps yoke\'s folders out of git', () => {
    const names = Object.keys(templates.files);
    for (const spec of templates.spec) expect(names).toContain(spec);
    expect(templates.spec).toContain('yoke.conf');
    expect(templates.spec).toContain('protocol.md');
    expect(names).toContain('notes.md');
    expect(text(templates.files, '.gitignore').split('\n')).toEqual(expect.arrayContaining(['.journal/', '.stash/', 'proof/']));
    expect(text(templates.files, 'notes.md').split('\n')[0]).toBe('STATUS: IN_PROGRESS');
  });
});

describe('mode-specific files (DESIGN §1)', () => {
  const files = (mode: string) => modeTemplates(mode) ?? { files: {}, spec: [] };

  it('brute is loop plus judge.md as a spec file', () => {
    expect(Object.keys(files('brute').files).sort()).toEqual([...Object.keys(files('loop').files), 'judge.md'].sort());
    expect(files('brute').spec.sort()).toEqual([...files('loop').spec, 'judge.md'].sort());
  });

  it('saga adds specification.md (spec) and plans chunks in sub-plan.md (not a spec file); saga-notes.md starts IN_PROGRESS', () => {
    const saga = files('saga');
    expect(Object.keys(saga.files).sort()).toEqual(['.gitignore', 'judge.md', 'notes.md', 'protocol.md', 'saga-notes.md', 'specification.md', 'sub-plan.md', 'yoke.conf']);
    expect(saga.spec.sort()).toEqual(['judge.md', 'protocol.md', 'specification.md', 'yoke.conf']);
    expect(text(saga.files, 'saga-notes.md').split('\n')[0]).toBe('STATUS: IN_PROGRESS');
  });

  it('goal has goal.md as a spec file and at least one accept criterion', () => {
    const goal = files('goal');
    expect(Object.keys(goal.files).sort()).toEqual(['.gitignore', 'goal.md', 'notes.md', 'protocol.md', 'yoke.conf']);
    expect(goal.spec).toContain('goal.md');
    expect(parseConfig(text(goal.files, 'yoke.conf'), 'yoke.conf', LIFECYCLE_REGISTRY).config?.accepts.length).toBeGreaterThan(0);
  });
});
