// config/flow/parse-flow.ts: the journey flow file, validated completely before any browser starts;
// each problem located to the YAML node it is about, never quoting a selector, text or value.
import { describe, expect, it } from 'vitest';
import { FLOW_LIMITS } from '../../../config/flow/flow-schema.js';
import { parseFlow } from '../../../config/flow/parse-flow.js';

const FILE = 'journeys/profile.yaml';

function errors(text: string) {
  const { flow, issues } = parseFlow(text, FILE);
  expect(flow).toBeNull();
  return issues.map((issue) => ({ line: issue.line, column: issue.column, says: `${issue.message} (${issue.hint})` }));
}

describe('parseFlow: valid flows', () => {
  it('reads every action, renaming fields and applying the defaults', () => {
    const { flow, issues } = parseFlow([
      'path: /login',
      'timeout: 1m30s',
      'steps:',
      "  - action: fill\n    selector: '#email'\n    value: ada@example.invalid",
      "  - action: fill\n    selector: '#password'\n    value-env: SMOKE_PASSWORD",
      "  - action: press\n    selector: '#password'\n    key: Enter\n    timeout: 5s",
      "  - action: click\n    selector: 'text=Save'",
      '  - action: expect-url\n    url: /profile',
      "  - action: expect-visible\n    selector: '#saved'",
      "  - action: expect-text\n    selector: '#saved'\n    text: Profile saved\n    exact: true",
      '  - action: reload',
    ].join('\n'), FILE);
    expect(issues).toEqual([]);
    expect(flow).toEqual({
      path: '/login',
      timeoutMs: 90_000,
      steps: [
        { action: 'fill', selector: '#email', value: { literal: 'ada@example.invalid' }, timeoutMs: FLOW_LIMITS.defaultStepMs },
        { action: 'fill', selector: '#password', value: { env: 'SMOKE_PASSWORD' }, timeoutMs: 10_000 },
        { action: 'press', selector: '#password', key: 'Enter', timeoutMs: 5_000 },
        { action: 'click', selector: 'text=Save', timeoutMs: 10_000 },
        { action: 'expect-url', url: '/profile', timeoutMs: 10_000 },
        { action: 'expect-visible', selector: '#saved', timeoutMs: 10_000 },
        { action: 'expect-text', selector: '#saved', text: 'Profile saved', exact: true, timeoutMs: 10_000 },
        { action: 'reload', timeoutMs: 10_000 },
      ],
    });
  });

  it('path defaults to / and the flow budget to 60s; 50 steps are allowed', () => {
    const { flow } = parseFlow(`steps:\n${'  - action: reload\n'.repeat(FLOW_LIMITS.maxSteps)}`, FILE);
    expect(flow).toMatchObject({ path: '/', timeoutMs: 60_000 });
    expect(flow?.steps).toHaveLength(50);
  });
});

describe('parseFlow: refused flows name file:line:column', () => {
  it('an unknown action, with a suggestion', () => {
    expect(errors("steps:\n  - action: clik\n    selector: '#a'")).toEqual([
      { line: 2, column: 13, says: expect.stringContaining('`clik` is not a step action') as unknown },
    ]);
    expect(errors('steps:\n  - action: clik')[0]?.says).toContain('did you mean `click`?');
  });

  it('an unknown field of a step, at the field', () => {
    expect(errors("steps:\n  - action: click\n    selector: '#a'\n    wait: 3s")).toEqual([
      { line: 4, column: 5, says: 'step 1 (`click`) has no field `wait` (its fields are selector, timeout)' },
    ]);
  });

  it('an unknown top-level field', () => {
    expect(errors('url: /x\nsteps:\n  - action: reload')).toEqual([{ line: 1, column: 1, says: expect.stringContaining('a flow has no field `url`') as unknown }]);
  });

  it('a field from another action (fill has no text)', () => {
    expect(errors("steps:\n  - action: reload\n  - action: fill\n    selector: '#a'\n    value: x\n    text: y")).toEqual([
      { line: 6, column: 5, says: expect.stringContaining('step 2 (`fill`) has no field `text`') as unknown },
    ]);
  });

  it('too many steps, and none', () => {
    expect(errors(`steps:\n${'  - action: reload\n'.repeat(51)}`)).toEqual([{ line: 2, column: 3, says: expect.stringContaining('at most 50 steps; this one has 51') as unknown }]);
    expect(errors('steps: []')).toEqual([{ line: 1, column: 8, says: expect.stringContaining('at least one step') as unknown }]);
    expect(errors('path: /x')).toEqual([{ line: 1, column: 1, says: expect.stringContaining('missing its `steps`') as unknown }]);
  });

  it('a missing field, a step without action, a step that is not a mapping', () => {
    expect(errors("steps:\n  - action: press\n    selector: '#a'")).toEqual([{ line: 2, column: 5, says: expect.stringContaining('step 1 (`press`) is missing its `key`') as unknown }]);
    expect(errors("steps:\n  - selector: '#a'")[0]?.says).toContain('step 1 has no `action`');
    expect(errors('steps:\n  - reload')[0]?.says).toContain('step 1 is not a mapping');
  });

  it('a fill needs exactly one of value and value-env; an env name must be one', () => {
    expect(errors("steps:\n  - action: fill\n    selector: '#a'")[0]?.says).toContain('exactly one of `value` or `value-env`');
    expect(errors("steps:\n  - action: fill\n    selector: '#a'\n    value: x\n    value-env: X")[0]?.says).toContain('exactly one');
    expect(errors("steps:\n  - action: fill\n    selector: '#a'\n    value-env: not a name")).toMatchObject([{ line: 4, column: 16 }]);
    expect(errors(`steps:\n  - action: fill\n    selector: '#a'\n    value: ${'x'.repeat(8193)}`)[0]?.says).toContain('longer than 8192');
  });

  it('durations use yoke syntax and have maxima', () => {
    expect(errors('steps:\n  - action: reload\n    timeout: 31s')).toEqual([{ line: 3, column: 14, says: expect.stringContaining('above the step maximum of 30s') as unknown }]);
    expect(errors('timeout: 3m\nsteps:\n  - action: reload')[0]?.says).toContain('above the flow maximum of 120s');
    expect(errors('steps:\n  - action: reload\n    timeout: 10')[0]?.says).toContain('must be a duration');
    expect(errors('steps:\n  - action: reload\n    timeout: "10"')[0]?.says).toContain('has no unit');
    expect(errors('steps:\n  - action: reload\n    timeout: 0s')[0]?.says).toContain('cannot be 0');
  });

  it('paths and urls', () => {
    expect(errors('path: login\nsteps:\n  - action: reload')).toEqual([{ line: 1, column: 7, says: expect.stringContaining('must start with /') as unknown }]);
    expect(errors('steps:\n  - action: expect-url\n    url: profile')[0]?.says).toContain('must start with /');
  });

  it('YAML syntax errors, duplicate keys, an empty file, a list', () => {
    expect(errors('steps:\n  - action: reload\n   timeout: 1s')).toMatchObject([{ line: 3 }]);
    expect(errors('steps:\n  - action: reload\n    action: click')[0]?.says).toContain('not valid YAML');
    expect(errors('')[0]?.says).toContain('the flow file is empty');
    expect(errors('- action: reload')[0]?.says).toContain('a flow is a mapping');
  });

  it('reports every problem at once, in line order', () => {
    expect(errors("foo: 1\nsteps:\n  - action: clik\n  - action: click\n    selector: '#a'\n    bar: 2").map((issue) => issue.line)).toEqual([1, 3, 6]);
  });

  it('messages never quote a selector, a text or a value', () => {
    const secrets = ['#secret-selector', 'secret text', 'secret-value'];
    const text = `steps:\n  - action: fill\n    selector: '${secrets[0]}'\n    value: ${secrets[2]}\n    value-env: X\n  - action: expect-text\n    selector: '${secrets[0]}'\n    text: ${secrets[1]}\n    exact: maybe\n    extra: 1`;
    const said = JSON.stringify(parseFlow(text, FILE).issues);
    expect(said).toContain('exactly one');
    expect(said).toContain('`exact` must be true or false');
    for (const secret of secrets) expect(said).not.toContain(secret);
  });
});
