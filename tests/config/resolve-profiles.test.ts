// Cross-line routing checks (config/resolve-profiles.ts): roles naming profiles, and the warnings
// about an escalate ladder that cannot do what the file seems to ask (DESIGN §15).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/parse-config.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

const parse = (lines: string[]) => parseConfig(`${['mode saga', ...lines].join('\n')}\n`, '.loop/yoke.conf', LIFECYCLE_REGISTRY);
const issues = (lines: string[], severity: 'error' | 'warning') => parse(lines).issues.filter((i) => i.severity === severity).map((i) => `${i.line}:${i.column} ${i.message}`);

describe('resolveProfiles', () => {
  it('judge-agent and scoper-agent naming a profile run its agent with its model, and the worker keeps its own', () => {
    const { config, issues: found } = parse([
      'profile fast tier light model haiku claude', 'profile deep tier strong cmd ./deep.sh', 'profile wise tier frontier model opus codex',
      'agent fast', 'judge-agent deep', 'scoper-agent wise',
    ]);
    expect(found).toEqual([]);
    expect(config).toMatchObject({
      agent: { kind: 'claude' }, model: 'haiku', agentProfile: 'fast',
      judgeAgent: { kind: 'cmd', command: './deep.sh' }, judgeProfile: 'deep',
      scoperAgent: { kind: 'codex' }, scoperModel: 'opus', scoperProfile: 'wise',
    });
    // deep declares no model: none is set for the judge (the worker's is not copied into it)
    expect(config?.judgeModel).toBeUndefined();
  });

  it('a judge-model line wins over the judge profile\'s model', () => {
    expect(parse(['profile wise model opus claude', 'agent claude', 'judge-agent wise', 'judge-model sonnet']).config).toMatchObject({ judgeModel: 'sonnet', judgeProfile: 'wise' });
  });

  it('refuses a judge-agent or scoper-agent naming no declared profile, with its line and column', () => {
    expect(issues(['profile fast claude', 'agent fast', 'judge-agent nosuch', 'scoper-agent fats'], 'error')).toEqual([
      '4:13 `nosuch` is not a known agent or profile',
      '5:14 `fats` is not a known agent or profile',
    ]);
  });

  it('warns when escalate never runs a second profile of a tier', () => {
    expect(issues(['profile a tier light claude', 'profile b tier light codex', 'profile c tier strong claude', 'agent a', 'routing escalate'], 'warning'))
      .toEqual(['3:1 `routing escalate` never runs the profile `b`: `a` (line 2) is the light rung']);
  });

  it('warns when max-tier leaves a ladder of one rung, or none, and when every profile shares a tier', () => {
    expect(issues(['profile a tier light claude', 'profile c tier strong claude', 'agent a', 'routing escalate', 'max-tier standard'], 'warning'))
      .toEqual(['6:1 `routing escalate` can never escalate: `max-tier standard` leaves no tier above light, so every attempt runs a']);
    expect(issues(['profile a tier strong claude', 'profile c tier frontier claude', 'agent claude', 'routing escalate', 'max-tier light'], 'warning'))
      .toEqual(['6:1 `max-tier light` leaves `routing escalate` no profile, so every attempt runs the `agent` line']);
    expect(issues(['profile a claude', 'profile b codex', 'agent a', 'routing escalate'], 'warning')).toEqual([
      '3:1 `routing escalate` never runs the profile `b`: `a` (line 2) is the standard rung',
      '5:1 `routing escalate` can never escalate: every profile is in the standard tier, so every attempt runs a',
    ]);
  });

  it('says nothing about a ladder that climbs, or about profiles under other routing', () => {
    expect(issues(['profile a tier light claude', 'profile c tier strong claude', 'agent a', 'routing escalate', 'max-tier strong'], 'warning')).toEqual([]);
    expect(issues(['profile a claude', 'profile b codex', 'agent a', 'routing economic'], 'warning')).toEqual([]);
  });
});
