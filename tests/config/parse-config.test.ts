import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/parse-config.js';
import { CONFIG_DEFAULTS, configSchema, type Config } from '../../config/types.js';
import { legalConfig } from './config-arbitrary.js';
import { MALFORMED_CONFIGS } from './malformed-configs.js';
import { LIFECYCLE_REGISTRY } from '../../machines/lifecycles/registry.js';

const FILE = '.loop/yoke.conf';
const LOOP = 'mode loop\nagent claude\n';

function parse(text: string) {
  return parseConfig(text, FILE, LIFECYCLE_REGISTRY);
}

function errorsOf(text: string) {
  return parse(text).issues.filter((issue) => issue.severity === 'error');
}

describe('parseConfig: every directive form', () => {
  const cases: [string, string, Partial<Config>][] = [
    ['mode brute', 'mode brute\nagent claude', { mode: 'brute' }],
    ['built-in agents', 'mode saga\nagent codex\njudge-agent gemini\nscoper-agent claude', { agent: { kind: 'codex' }, judgeAgent: { kind: 'gemini' }, scoperAgent: { kind: 'claude' } }],
    ['agent cmd keeps the rest of the line', 'mode loop\nagent cmd  ./agent.sh --flag "a  b"  # mine', { agent: { kind: 'cmd', command: './agent.sh --flag "a  b"' } }],
    ['judge-agent cmd', 'mode brute\nagent claude\njudge-agent cmd judge --strict', { judgeAgent: { kind: 'cmd', command: 'judge --strict' } }],
    ['models', 'mode saga\nagent claude\nmodel sonnet\njudge-model opus-4\nscoper-model o3', { model: 'sonnet', judgeModel: 'opus-4', scoperModel: 'o3' }],
    ['counts', 'mode saga\nagent claude\nmax-iterations 7\njudge-every 2\nmax-judge-failures 4\nmax-chunks 9', { maxIterations: 7, judgeEvery: 2, maxJudgeFailures: 4, maxChunks: 9 }],
    ['boundary normalizes ./ and keeps trailing /', `${LOOP}allow ./src/\nallow lib//x/./y\nno-modify src/main.rs`, { allow: ['src/', 'lib/x/y'], noModify: ['src/main.rs'] }],
    ['guard', `${LOOP}guard tests npm test -- --run   # fast`, { guards: [{ name: 'tests', command: 'npm test -- --run', line: 3 }] }],
    ['# inside a word or quotes is not a comment', `${LOOP}guard url curl http://x#y "a # b" '#' $#`, { guards: [{ name: 'url', command: `curl http://x#y "a # b" '#' $#`, line: 3 }] }],
    ['periodic and a guard-after declared before it', `${LOOP}guard-after audit audit.ok ./check.sh\nperiodic audit 5 npm audit`, {
      periodics: [{ name: 'audit', every: 5, command: 'npm audit', line: 4 }],
      guardAfters: [{ name: 'audit.ok', periodic: 'audit', command: './check.sh', line: 3 }],
    }],
    ['several hooks per event', `${LOOP}hook done ./a.sh\nhook done ./b.sh\nhook run-start echo go`, {
      hooks: [{ event: 'done', command: './a.sh', line: 3 }, { event: 'done', command: './b.sh', line: 4 }, { event: 'run-start', command: 'echo go', line: 5 }],
    }],
    ['accept', 'mode goal\nagent claude\naccept e2e_1 npm run e2e', { accepts: [{ name: 'e2e_1', command: 'npm run e2e', line: 3 }] }],
    ['budgets', `${LOOP}budget attempts 12\nbudget tokens 500k\nbudget cost-usd 2.50\nbudget minutes 90\nbudget wall-minutes 0.5`, {
      budgets: { 'attempts': 12, 'tokens': 500_000, 'cost-usd': 2.5, 'minutes': 90, 'wall-minutes': 0.5 },
    }],
    ['token suffixes', `${LOOP}budget tokens 1.5M`, { budgets: { tokens: 1_500_000 } }],
    ['durations', `${LOOP}idle-timeout 90s\nguard-timeout 1h30m`, { idleTimeoutMs: 90_000, guardTimeoutMs: 5_400_000 }],
    ['0 turns timeouts off', `${LOOP}idle-timeout 0\nguard-timeout 0`, { idleTimeoutMs: 0, guardTimeoutMs: 0 }],
    ['commit', `${LOOP}commit each`, { commit: 'each' }],
    ['context-budget', `${LOOP}context-budget 2000`, { contextBudget: 2000 }],
    ['agent-timeout', `${LOOP}agent-timeout 2h`, { agentTimeoutMs: 7_200_000 }],
    ['redact names variables', `${LOOP}redact DATABASE_URL\nredact _private2`, { redact: ['DATABASE_URL', '_private2'] }],
    ['agent-timeout 0 is off', `${LOOP}agent-timeout 0`, { agentTimeoutMs: 0 }],
    ['prices, one per model, 0 allowed', `${LOOP}price gpt-5.5 1.25 10\nprice claude-opus-4-8[1m] 15 75\nprice local-llm 0 0`, {
      prices: {
        'gpt-5.5': { inputPerMTok: 1.25, outputPerMTok: 10 },
        'claude-opus-4-8[1m]': { inputPerMTok: 15, outputPerMTok: 75 },
        'local-llm': { inputPerMTok: 0, outputPerMTok: 0 },
      },
    }],
    ['tool-call control', `${LOOP}tool network pass\ntool protected hold\ntool-control advisory`, {
      toolControl: 'advisory',
      toolRules: { network: { ruling: 'pass', line: 3 }, protected: { ruling: 'hold', line: 4 } },
    }],
    ['delivery evidence: artifacts, journeys and base-url', `mode goal\nagent claude\naccept tests npm test\nartifact ./dist//app.js tests smoke\njourney smoke journeys/smoke.yaml\nbase-url http://127.0.0.1:3000/app/`, {
      artifacts: [{ path: 'dist/app.js', criteria: ['tests', 'smoke'], line: 4 }],
      journeys: [{ name: 'smoke', flow: 'journeys/smoke.yaml', line: 5 }],
      baseUrl: 'http://127.0.0.1:3000/app',
    }],
    ['an artifact may name a journey declared after it', 'mode goal\nagent claude\naccept t true\nartifact out.zip later\njourney later f.yaml\nbase-url https://example.invalid', {
      artifacts: [{ path: 'out.zip', criteria: ['later'], line: 4 }],
    }],
    ['defaults', LOOP, { ...CONFIG_DEFAULTS, allow: [], noModify: [], guards: [], budgets: {}, prices: {}, agentTimeoutMs: 0, toolControl: 'on', toolRules: {} }],
    ['CRLF, BOM, indentation and comments', '\uFEFF# yoke\r\n\r\n  mode loop   # the mode\r\n\tagent claude\r\n', { mode: 'loop', agent: { kind: 'claude' } }],
  ];
  it.each(cases)('%s', (_name, text, expected) => {
    const { config, issues } = parse(text);
    expect(issues).toEqual([]);
    expect(config).toMatchObject(expected);
    expect(configSchema.parse(config)).toEqual(config);
  });
});

describe('5.1 valid configs parse', () => {
  it('5.1 valid configs parse: random legal combinations, in any order, with comments and blank lines', () => {
    fc.assert(fc.property(legalConfig, ({ text, expected }) => {
      const { config, issues } = parse(text);
      expect(issues.filter((issue) => issue.severity === 'error')).toEqual([]);
      for (const issue of issues) expect(issue.message).toMatch(/has no effect in \w+ mode/);
      expect(config).toEqual(expected);
      expect(configSchema.parse(config)).toEqual(config);
    }), { numRuns: 300 });
  });
});

describe('malformed configs', () => {
  it('the corpus has at least 45 cases', () => {
    expect(MALFORMED_CONFIGS.length).toBeGreaterThanOrEqual(45);
  });
  it.each(MALFORMED_CONFIGS)('$name', ({ text, line, column, says, errors = 1 }) => {
    const { config, issues } = parse(text);
    expect(config).toBeNull();
    const found = issues.filter((issue) => issue.severity === 'error');
    expect(found).toHaveLength(errors);
    const at = found.find((issue) => issue.line === line && issue.column === column);
    expect(at, JSON.stringify(found)).toBeDefined();
    if (says !== undefined) expect(`${at?.message} (${at?.hint})`).toContain(says);
    expect(at?.file).toBe(FILE);
  });
});

describe('5.2 invalid configs fail loudly', () => {
  it('5.2 invalid configs fail loudly: a malformed value never falls back to its default', () => {
    for (const line of ['max-iterations 0', 'max-judge-failures x', 'max-chunks 1.0', 'idle-timeout 20', 'guard-timeout forever', 'commit never']) {
      const { config, issues } = parse(`mode saga\nagent claude\n${line}`);
      expect(config, line).toBeNull();
      expect(issues.filter((issue) => issue.severity === 'error' && issue.line === 3), line).toHaveLength(1);
    }
  });
  it('5.2 invalid configs fail loudly: any non-numeral max-iterations is an error at its column', () => {
    fc.assert(fc.property(fc.stringMatching(/^[^\s#]+$/).filter((s) => !/^[1-9][0-9]*$/.test(s)), (value) => {
      const { config, issues } = parse(`${LOOP}max-iterations ${value}`);
      expect(config).toBeNull();
      expect(issues).toMatchObject([{ line: 3, column: 16, severity: 'error' }]);
    }));
  });
  it('reports every problem at once, sorted by line', () => {
    const issues = errorsOf('agent gpt\nbogus\nmode loop\nmax-iterations 0\nguard x');
    expect(issues.map((issue) => [issue.line, issue.column])).toEqual([[1, 7], [2, 1], [4, 16], [5, 8]]);
  });
  it('a wrong value on a repeated line is reported too', () => {
    expect(errorsOf(`${LOOP}commit off\ncommit sometimes`).map((issue) => issue.column)).toEqual([1, 8]);
  });
});

describe('5.4 guard-after requires its periodic', () => {
  it('5.4 guard-after requires its periodic: unknown periodic is an error, a later declaration is fine', () => {
    expect(errorsOf(`${LOOP}guard-after nightly n-ok true`)).toMatchObject([{ line: 3, column: 13 }]);
    expect(errorsOf(`${LOOP}guard-after nightly n-ok true\nperiodic nightly 10 ./nightly.sh`)).toEqual([]);
  });
});

describe('directives that do not apply to the mode', () => {
  const cases: [string, string, number][] = [
    ['judge-every in loop', `${LOOP}judge-every 3`, 3],
    ['accept outside goal', `${LOOP}accept t npm test`, 3],
    ['max-chunks outside saga', 'mode brute\nagent claude\nmax-chunks 4', 3],
    ['scoper-agent in brute', 'mode brute\nagent claude\n  scoper-agent codex', 3],
    ['judge-model in goal, mode declared last', 'agent claude\naccept t true\njudge-model opus\nmode goal', 3],
  ];
  it('artifact, journey and base-url apply in every mode: no warning', () => {
    for (const mode of ['loop', 'brute', 'saga', 'goal']) {
      expect(parse(`mode ${mode}\nagent claude\naccept t true\njourney j j.yaml\nartifact a.zip t j\nbase-url http://localhost:8080`).issues.filter((issue) => !issue.message.includes('`accept`'))).toEqual([]);
    }
  });
  it('without artifacts or journeys the config has no such fields (as journaled by older yokes)', () => {
    expect(parse(LOOP).config).not.toHaveProperty('artifacts');
    expect(parse(LOOP).config).not.toHaveProperty('journeys');
    expect(parse(LOOP).config).not.toHaveProperty('baseUrl');
  });
  it('store: the config (journaled) keeps only postgres://host:port/db; a password written in the file is a warning, ${VAR} is not', () => {
    const written = parse(`${LOOP}store postgres://yoke:hunter2@db.example:5432/yoke?sslmode=require`);
    expect(written.config?.store).toBe('postgres://db.example:5432/yoke');
    expect(JSON.stringify(written.config)).not.toContain('hunter2');
    expect(written.issues.map((issue) => [issue.severity, issue.line, issue.message])).toEqual([['warning', 3, 'the store URL has its password written in yoke.conf, which is committed with the project']]);
    const referenced = parse(`${LOOP}store postgres://yoke:\${YOKE_DB_PASSWORD}@db.example/yoke`);
    expect(referenced.issues).toEqual([]);
    expect(referenced.config?.store).toBe('postgres://db.example/yoke');
    expect(parse(`${LOOP}store file`).config?.store).toBe('file');
    expect(errorsOf(`${LOOP}store mysql://db/yoke`).map((issue) => issue.message)).toEqual(['`store` must be `file` or a postgres://… URL, not `mysql://db/yoke`']);
    expect(errorsOf(`${LOOP}store postgres://\${1X}@db/yoke`).map((issue) => issue.message)).toEqual(['`${1X}` in the store URL is not a variable reference']);
  });
  it('goal mode whose only criteria are journeys is valid (a journey is a criterion); with neither accept nor journey it is an error', () => {
    const journeys = parse('mode goal\nagent claude\njourney smoke journeys/smoke.yaml\njourney login journeys/login.yaml\nbase-url http://127.0.0.1:8080');
    expect(journeys.issues).toEqual([]);
    expect(journeys.config?.accepts).toEqual([]);
    expect(errorsOf('mode goal\nagent claude\nbase-url http://127.0.0.1:8080').map((issue) => [issue.line, issue.message])).toEqual([
      [1, 'goal mode needs at least one acceptance criterion, an `accept` or a `journey`'],
    ]);
  });
  it('max-iterations in goal caps the attempts: no warning', () => {
    expect(parse('mode goal\nagent claude\naccept t true\nmax-iterations 5').issues).toEqual([]);
  });

  it.each(cases)('%s is a warning, not an error', (_name, text, line) => {
    const { config, issues } = parse(text);
    expect(config).not.toBeNull();
    expect(issues).toHaveLength(1);
    const column = (text.split('\n')[line - 1] ?? '').search(/\S/) + 1;
    expect(issues[0]).toMatchObject({ severity: 'warning', line, column });
    expect(issues[0]?.message).toMatch(/has no effect in \w+ mode/);
  });
  it('a repeated allow is a warning', () => {
    const { config, issues } = parse(`${LOOP}allow src/\nallow ./src/`);
    expect(config?.allow).toEqual(['src/', 'src/']);
    expect(issues).toMatchObject([{ severity: 'warning', line: 4, column: 7 }]);
  });
});

describe('idle-timeout and the built-in agents', () => {
  it('warns when idle-timeout is shorter than a CLI may take to start, for built-in agents only', () => {
    const warned = parse('mode loop\nagent claude\nidle-timeout 10s');
    expect(warned.config).not.toBeNull();
    expect(warned.issues).toMatchObject([{ severity: 'warning', line: 3, message: expect.stringMatching(/may kill claude before its first output/) as unknown }]);
    expect(parse('mode loop\nagent cmd ./a.sh\nidle-timeout 10s').issues).toEqual([]);
    expect(parse('mode loop\nagent codex\nidle-timeout 30s').issues).toEqual([]);
    expect(parse('mode loop\nagent gemini\nidle-timeout 0').issues).toEqual([]);
  });
});

describe('issue 20.1: a timeout above Node’s timer limit would kill every agent or guard at once', () => {
  const directives = [['idle-timeout', 'idleTimeoutMs'], ['guard-timeout', 'guardTimeoutMs'], ['agent-timeout', 'agentTimeoutMs']] as const;
  it.each(directives)('%s accepts exactly up to 596h and refuses anything longer, naming the maximum', (directive, key) => {
    expect(parse(`${LOOP}${directive} 596h`).config).toMatchObject({ [key]: 596 * 3_600_000 });
    expect(parse(`${LOOP}${directive} 595h59m59s`).config).toMatchObject({ [key]: 596 * 3_600_000 - 1000 });
    expect(parse(`${LOOP}${directive} 0`).config).toMatchObject({ [key]: 0 });
    for (const tooLong of ['596h0m1s', '596h1m', '597h', '1000h', '2147484s']) {
      const errors = errorsOf(`${LOOP}${directive} ${tooLong}`);
      expect(errors).toEqual([expect.objectContaining({
        line: 3,
        column: directive.length + 2,
        message: `\`${tooLong}\` is longer than the maximum timeout of 596h (24 days 20 hours)`,
        hint: 'use 596h or less, or 0 to turn the timeout off',
      })]);
    }
  });
  it('the maximum stays below what one Node timer can hold', () => {
    expect(596 * 3_600_000).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(597 * 3_600_000).toBeGreaterThan(2 ** 31 - 1);
  });
});

describe('issue 20.5: a NUL byte in a command passed config check, then the guard failed at every iteration', () => {
  it('refuses it at parse time at its line and column, for every command directive', () => {
    for (const line of ['guard t echo a\u0000b', 'periodic q 2 echo a\u0000b', 'guard-after p g echo a\u0000b', 'hook done echo a\u0000b', 'accept t echo a\u0000b']) {
      const text = `mode goal\nagent claude\naccept ok true\nperiodic p 2 true\n${line}`;
      const errors = errorsOf(text);
      expect(errors).toEqual([expect.objectContaining({ line: 5, column: line.indexOf('\u0000') + 1, message: 'this line contains a NUL byte (\\0)' })]);
    }
  });
  it('a NUL inside a comment is no command and is left alone', () => {
    expect(errorsOf(`${LOOP}guard t npm test # a\u0000b`)).toEqual([]);
  });
});
