// fast-check generator of legal yoke.conf files with the Config each must parse to (spec 5.1).
import fc from 'fast-check';
import { BUILT_IN_AGENT_KINDS, CONFIG_DEFAULTS, HOOK_EVENTS, RULINGS, TOOL_CLASSES, TOOL_CONTROL_MODES, type Config, type Mode } from '../../config/types.js';
import { LIFECYCLE_REGISTRY, LIFECYCLES } from '../../machines/lifecycles/registry.js';

/** One directive line and how it changes the expected Config once its line number is known. */
interface Entry {
  text: string;
  apply: (config: Config, line: number) => void;
}

const name = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,10}$/);
const command = fc.oneof(
  fc.constantFrom('npm test', 'curl -s http://x/a#frag', 'echo "a # b"', "grep -c '#' notes.md", 'echo $#', 'make -j4 check'),
  fc.stringMatching(/^[a-z][a-z0-9 ._=-]{0,15}[a-z0-9]$/),
);
const count = fc.integer({ min: 1, max: 100_000 });
const duration = fc.oneof(
  fc.constant({ text: '0', ms: 0 }),
  fc.tuple(fc.integer({ min: 1, max: 500 }), fc.constantFrom(['s', 1000] as const, ['m', 60_000] as const, ['h', 3_600_000] as const))
    .map(([n, [unit, ms]]) => ({ text: `${n}${unit}`, ms: n * ms })),
);
const agent: fc.Arbitrary<{ text: string; spec: Config['agent'] }> = fc.oneof(
  fc.constantFrom(...BUILT_IN_AGENT_KINDS).map((kind) => ({ text: kind, spec: { kind } })),
  command.map((cmd) => ({ text: `cmd ${cmd}`, spec: { kind: 'cmd' as const, command: cmd } })),
);
const path = fc.stringMatching(/^[a-z]{1,6}(\/[a-z]{1,6}){0,2}\/?$/);

function scalar<K extends keyof Config>(text: string, key: K, value: Config[K]): Entry {
  return { text, apply: (config) => { config[key] = value; } };
}

function optional(arb: fc.Arbitrary<Entry>): fc.Arbitrary<Entry[]> {
  return fc.option(arb, { nil: undefined }).map((entry) => (entry === undefined ? [] : [entry]));
}

const settings = fc.tuple(
  optional(agent.map((a) => scalar(`judge-agent ${a.text}`, 'judgeAgent', a.spec))),
  optional(agent.map((a) => scalar(`scoper-agent ${a.text}`, 'scoperAgent', a.spec))),
  ...(['model', 'judgeModel', 'scoperModel'] as const).map((key) => optional(
    fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,12}$/).map((m) => scalar(`${key.replace('M', '-m')} ${m}`, key, m)),
  )),
  ...(['maxIterations', 'judgeEvery', 'maxJudgeFailures', 'maxChunks'] as const).map((key) => optional(
    count.map((n) => scalar(`${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${n}`, key, n)),
  )),
  // a legal idle-timeout that draws no warning: off, or long enough for any agent CLI to start (30 s)
  optional(duration.filter((d) => d.ms === 0 || d.ms >= 30_000).map((d) => scalar(`idle-timeout ${d.text}`, 'idleTimeoutMs', d.ms))),
  optional(duration.map((d) => scalar(`guard-timeout ${d.text}`, 'guardTimeoutMs', d.ms))),
  optional(duration.map((d) => scalar(`agent-timeout ${d.text}`, 'agentTimeoutMs', d.ms))),
  optional(fc.constantFrom('off', 'done', 'each' as const).map((c) => scalar(`commit ${c}`, 'commit', c))),
  optional(fc.constantFrom(...TOOL_CONTROL_MODES).map((c) => scalar(`tool-control ${c}`, 'toolControl', c))),
).map((groups) => groups.flat());

const toolRules: fc.Arbitrary<Entry[]> = fc.uniqueArray(fc.tuple(fc.constantFrom(...TOOL_CLASSES), fc.constantFrom(...RULINGS)), { maxLength: 4, selector: ([c]) => c })
  .map((rows) => rows.map(([toolClass, ruling]): Entry => ({
    text: `tool ${toolClass} ${ruling}`,
    apply: (c, line) => { (c.toolRules ??= {})[toolClass] = { ruling, line }; },
  })));

const budgets: fc.Arbitrary<Entry[]> = fc.tuple(
  optional(count.map((n) => ({ text: `budget attempts ${n}`, apply: (c: Config) => { c.budgets.attempts = n; } }))),
  optional(fc.tuple(count, fc.constantFrom(['', 1], ['k', 1000], ['M', 1_000_000]) as fc.Arbitrary<[string, number]>)
    .map(([n, [suffix, scale]]) => ({ text: `budget tokens ${n}${suffix}`, apply: (c: Config) => { c.budgets.tokens = n * scale; } }))),
  optional(count.map((cents) => (cents / 100).toFixed(2))
    .map((usd) => ({ text: `budget cost-usd ${usd}`, apply: (c: Config) => { c.budgets['cost-usd'] = Number(usd); } }))),
  optional(count.map((n) => ({ text: `budget minutes ${n}`, apply: (c: Config) => { c.budgets.minutes = n; } }))),
  optional(count.map((n) => ({ text: `budget wall-minutes ${n}.5`, apply: (c: Config) => { c.budgets['wall-minutes'] = n + 0.5; } }))),
).map((groups) => groups.flat());

const modelName = fc.stringMatching(/^[a-z0-9][a-z0-9.:[\]-]{0,12}$/);
const dollars = fc.integer({ min: 0, max: 100_000 }).map((cents) => (cents / 100).toFixed(2));
const prices: fc.Arbitrary<Entry[]> = fc.uniqueArray(fc.tuple(modelName, dollars, dollars), { maxLength: 3, selector: ([m]) => m })
  .map((rows) => rows.map(([m, input, output]): Entry => ({
    text: `price ${m} ${input} ${output}`,
    apply: (c) => { (c.prices ??= {})[m] = { inputPerMTok: Number(input), outputPerMTok: Number(output) }; },
  })));

const boundary: fc.Arbitrary<Entry[]> = fc.tuple(fc.uniqueArray(path, { maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), fc.boolean())
  .map(([paths, allowed, dotSlash]) => paths.map((p, i) => {
    const key = allowed[i] === true ? 'allow' : 'noModify';
    return {
      text: `${key === 'allow' ? 'allow' : 'no-modify'} ${dotSlash ? './' : ''}${p}`,
      apply: (c: Config) => {
        c[key].push(p);
        if (key === 'noModify') c.ignoredProtected?.push(p);
      },
    };
  }));

const commands = (mode: Mode): fc.Arbitrary<Entry[]> => fc.record({
  guardNames: fc.uniqueArray(name, { maxLength: 6 }),
  periodics: fc.uniqueArray(fc.tuple(name, count, command), { maxLength: 3, selector: ([n]) => n }),
  accepts: fc.uniqueArray(fc.tuple(name, command), { minLength: LIFECYCLES[mode]?.features.includes('acceptance') ? 1 : 0, maxLength: 3, selector: ([n]) => n }),
  hooks: fc.array(fc.tuple(fc.constantFrom(...HOOK_EVENTS), command), { maxLength: 4 }),
  guardCommands: fc.array(fc.tuple(command, fc.nat()), { minLength: 6, maxLength: 6 }),
  journeys: fc.uniqueArray(fc.tuple(name, path.map((p) => `${p.replace(/\/$/, '')}.yaml`)), { maxLength: 2, selector: ([n]) => n }),
  artifacts: fc.uniqueArray(fc.tuple(path.map((p) => p.replace(/\/$/, '')), fc.nat(), fc.boolean()), { maxLength: 2, selector: ([p]) => p }),
}).map(({ guardNames, periodics, accepts, hooks, guardCommands, journeys: declared, artifacts }) => {
  // journeys and accepts share the criterion namespace; an artifact names one or two criteria
  const journeys = declared.filter(([j]) => !accepts.some(([a]) => a === j));
  const criteria = [...accepts.map(([a]) => a), ...journeys.map(([j]) => j)];
  return [
  ...guardNames.map((g, i): Entry => {
    const [cmd, pick] = guardCommands[i] ?? ['true', 0];
    const periodic = periodics[pick % Math.max(1, periodics.length)];
    if (periodic === undefined || pick % 2 === 0) {
      return { text: `guard ${g} ${cmd}`, apply: (c, line) => { c.guards.push({ name: g, command: cmd, line }); } };
    }
    return { text: `guard-after ${periodic[0]} ${g} ${cmd}`, apply: (c, line) => { c.guardAfters.push({ name: g, periodic: periodic[0], command: cmd, line }); } };
  }),
  ...periodics.map(([p, every, cmd]): Entry => ({ text: `periodic ${p} ${every} ${cmd}`, apply: (c, line) => { c.periodics.push({ name: p, every, command: cmd, line }); } })),
  ...accepts.map(([a, cmd]): Entry => ({ text: `accept ${a} ${cmd}`, apply: (c, line) => { c.accepts.push({ name: a, command: cmd, line }); } })),
  ...hooks.map(([event, cmd]): Entry => ({ text: `hook ${event} ${cmd}`, apply: (c, line) => { c.hooks.push({ event, command: cmd, line }); } })),
  ...journeys.map(([j, flow]): Entry => ({ text: `journey ${j} ./${flow}`, apply: (c, line) => { (c.journeys ??= []).push({ name: j, flow, line }); } })),
  ...(journeys.length === 0 ? [] : [scalar('base-url http://127.0.0.1:3000/', 'baseUrl', 'http://127.0.0.1:3000')]),
  ...(criteria.length === 0 ? [] : artifacts.map(([file, pick, two]): Entry => {
    const named = [...new Set([criteria[pick % criteria.length] ?? '', ...(two ? [criteria[(pick + 1) % criteria.length] ?? ''] : [])])];
    return { text: `artifact ${file} ${named.join(' ')}`, apply: (c, line) => { (c.artifacts ??= []).push({ path: file, criteria: named, line }); } };
  })),
  ];
});

const decoration = fc.record({
  indent: fc.constantFrom('', ' ', '\t', '  '),
  comment: fc.constantFrom('', ' # note', '\t#x', '   #'),
  before: fc.array(fc.constantFrom('', '# a comment', '   ', '\t# indented comment'), { maxLength: 2 }),
});

/** A legal config file and the Config it must parse to. */
export const legalConfig: fc.Arbitrary<{ text: string; expected: Config }> = fc.constantFrom(...LIFECYCLE_REGISTRY.map((lifecycle) => lifecycle.name)).chain((mode) =>
  fc.tuple(agent, settings, budgets, prices, toolRules, boundary, commands(mode)).chain(([worker, ...groups]) => {
    const entries: Entry[] = [scalar(`mode ${mode}`, 'mode', mode), scalar(`agent ${worker.text}`, 'agent', worker.spec), ...groups.flat()];
    return fc.tuple(
      fc.shuffledSubarray(entries, { minLength: entries.length, maxLength: entries.length }),
      fc.array(decoration, { minLength: entries.length, maxLength: entries.length }),
      fc.constantFrom('\n', '\r\n'),
    ).map(([shuffled, decorations, newline]) => {
      const expected: Config = {
        mode, agent: worker.spec, ...CONFIG_DEFAULTS, allow: [], noModify: [], ignoredProtected: [], guards: [], periodics: [],
        guardAfters: [], hooks: [], accepts: [], budgets: {}, prices: {}, toolRules: {},
      };
      const lines: string[] = [];
      shuffled.forEach((entry, i) => {
        const { indent, comment, before } = decorations[i] ?? { indent: '', comment: '', before: [] };
        lines.push(...before, `${indent}${entry.text}${comment}`);
        entry.apply(expected, lines.length);
      });
      return { text: lines.join(newline) + newline, expected };
    });
  }),
);
