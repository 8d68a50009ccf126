// machines/retrofit/plan-links.ts and the planner around it: a link on a generated path's way stays
// a link. CLAUDE.md → AGENTS.md (or the reverse) is one file: the baseline goes in once and nothing
// imports it twice; identical skills behind a shared folder link are written once; a link leading
// out of the project refuses the path; and a CRLF file gets a CRLF block.
import { describe, expect, it } from 'vitest';
import type { Canon } from '../../../machines/retrofit/canon.js';
import { planRetrofit } from '../../../machines/retrofit/plan-retrofit.js';
import type { LinkedPath, ProjectFiles } from '../../../machines/retrofit/retrofit-plan.js';

const CANON: Canon = {
  version: 1,
  instructions: '# How to work here\n',
  skills: [{ name: 'review', description: 'Review a change.', body: '# Review\n', text: '---\nname: review\ndescription: Review a change.\n---\n# Review\n' }],
  policy: [],
  context: [],
  agents: { claude: ['instructions', 'skills'], codex: ['instructions', 'skills'] },
};

function project(files: Record<string, string>, links: Record<string, LinkedPath> = {}): ProjectFiles {
  return { files: new Map(Object.entries(files)), notText: new Set(), links: new Map(Object.entries(links)) };
}

const entry = (plan: ReturnType<typeof planRetrofit>, path: string) => plan.entries.find((item) => item.path === path);

describe('planRetrofit through links', () => {
  it('CLAUDE.md → AGENTS.md: the baseline goes into AGENTS.md once, CLAUDE.md is left a link with nothing to import', () => {
    const agents = '# Our agents file\n';
    const plan = planRetrofit(CANON, ['claude'], project({ 'AGENTS.md': agents, 'CLAUDE.md': agents }, { 'CLAUDE.md': { real: 'AGENTS.md' } }), null);
    expect(entry(plan, 'AGENTS.md')).toMatchObject({ action: 'update' });
    expect(entry(plan, 'AGENTS.md')?.through).toBeUndefined();
    expect(entry(plan, 'CLAUDE.md')).toMatchObject({ action: 'unchanged', reason: expect.stringContaining('a link to AGENTS.md') as string });
    expect(entry(plan, 'CLAUDE.md')?.content).toBeUndefined();
    expect(Object.keys(plan.lock.files)).not.toContain('CLAUDE.md');
  });

  it('AGENTS.md → CLAUDE.md: the baseline is written through the link into CLAUDE.md, which does not import itself', () => {
    const claude = '# Our rules\n';
    const plan = planRetrofit(CANON, ['claude'], project({ 'AGENTS.md': claude, 'CLAUDE.md': claude }, { 'AGENTS.md': { real: 'CLAUDE.md' } }), null);
    expect(entry(plan, 'AGENTS.md')).toMatchObject({ action: 'update', through: 'CLAUDE.md' });
    expect(entry(plan, 'AGENTS.md')?.content).toContain('# How to work here');
    expect(entry(plan, 'AGENTS.md')?.content).not.toContain('@AGENTS.md');
    expect(entry(plan, 'CLAUDE.md')).toMatchObject({ action: 'unchanged', reason: expect.stringContaining('AGENTS.md is a link to it') as string });
  });

  it('a shared skills folder (.agents/skills → .claude/skills) holds each skill once', () => {
    const plan = planRetrofit(CANON, ['claude', 'codex'], project({}, { '.agents/skills/review/SKILL.md': { real: '.claude/skills/review/SKILL.md' } }), null);
    expect(entry(plan, '.claude/skills/review/SKILL.md')).toMatchObject({ action: 'create' });
    expect(entry(plan, '.agents/skills/review/SKILL.md')).toMatchObject({ action: 'unchanged', reason: expect.stringContaining('the same file as .claude/skills/review/SKILL.md') as string });
    expect(plan.entries.filter((item) => item.action === 'create' && item.path.endsWith('SKILL.md'))).toHaveLength(1);
  });

  it('a link leading out of the project refuses the path (nothing written there), and its lock entry stays', () => {
    const refused = { refused: '`.claude` is a link to `/home/me/.claude`, outside the project; yoke writes only inside it' };
    const plan = planRetrofit(CANON, ['claude'], project({}, { '.claude/skills/review/SKILL.md': refused }), null);
    expect(entry(plan, '.claude/skills/review/SKILL.md')).toMatchObject({ action: 'refused', reason: `${refused.refused}; left untouched` });
    expect(plan.entries.some((item) => item.path.startsWith('.claude/') && item.content !== undefined)).toBe(false);
  });

  it('a CRLF AGENTS.md gets its block in CRLF; a second run over that result changes nothing', () => {
    const agents = '# Ours\r\n\r\nUse tabs.\r\n';
    const first = planRetrofit(CANON, ['codex'], project({ 'AGENTS.md': agents }), null);
    const written = entry(first, 'AGENTS.md')?.content ?? '';
    expect(written.startsWith(agents)).toBe(true);
    expect(written.replace(/\r\n/g, '')).not.toContain('\n');
    const second = planRetrofit(CANON, ['codex'], project({ 'AGENTS.md': written }), first.lock);
    expect(entry(second, 'AGENTS.md')).toMatchObject({ action: 'unchanged' });
  });
});
