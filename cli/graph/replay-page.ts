// `yoke replay --html`: one offline page with the machine diagram and the run's path drawn on it,
// the figures per state, a parallel run's lanes side by side, and the event timeline.
import type { ReplayedRun, ReplayStep } from '../../store/projections/replay-steps.js';
import { groupDigits } from '../group-digits.js';
import { busyText, renderOutcome, transitionText } from '../timeline.js';
import { renderDot } from './dot.js';
import { escapeHtml, htmlPage } from './html-page.js';
import { laneRows, type LaneCell, type LaneRows } from './lane-rows.js';
import type { MachineGraph } from './machine-graph.js';
import { renderSvg } from './render-svg.js';
import { dotOverlay, duration, runOverlay, type StateStats } from './run-overlay.js';

/** The whole page for one replayed run. */
export async function replayPage(graph: MachineGraph, replayed: ReplayedRun): Promise<string> {
  const overlay = runOverlay(graph, replayed);
  const lanes = laneRows(replayed);
  const svg = await renderSvg(renderDot(graph, dotOverlay(overlay)));
  const body = [
    `<h1>yoke run <span class="mono">${escapeHtml(replayed.run)}</span></h1>`,
    `<p class="meta">${escapeHtml(replayed.mode)} mode, ${escapeHtml(replayed.machine)} machine v${replayed.version ?? '?'}, started ${escapeHtml(replayed.startedAt)}.<br>`,
    `<strong class="${replayed.outcome.exitCode === 0 ? 'ok' : 'bad'}">${escapeHtml(renderOutcome(replayed.outcome).replace(/^outcome: /, ''))}</strong></p>`,
    '<p class="legend"><span><i class="swatch" style="background:#dbeafe;border:1px solid #2563eb"></i>visited (visits · time there)</span>',
    '<span><i class="swatch" style="background:#dcfce7;border:1px solid #16a34a"></i>where the run ended</span>',
    '<span><i class="swatch" style="background:#2563eb"></i>transition taken (×times)</span>',
    '<span><i class="swatch" style="background:#9ca3af"></i>never visited</span></p>',
    `<div class="diagram" id="diagram">${svg}</div>`,
    '<h2>Per state</h2>',
    ...(lanes === null ? [] : [LANE_TIMES]),
    stateTable(overlay.states),
    ...(lanes === null ? [] : ['<h2>Lanes</h2>', laneTable(lanes)]),
    '<h2>Timeline</h2>',
    timelineTable(replayed.steps),
  ].join('\n');
  return htmlPage(`yoke replay ${replayed.run}`, body);
}

/** Under the table of a run with lanes: why the lanes' times add up to more than the run's. */
const LANE_TIMES = '<p class="meta" id="lane-times">Inside the parallel state each lane (and the integration lane) counts its states on its own: lanes run at once, so their times add up to more than the time spent in the parallel state. A lane\'s effects, agent calls and cost count in the lane state that ran them.</p>';

function stateTable(states: readonly StateStats[]): string {
  const rows = states.map((s) => `<tr><td>${escapeHtml(s.name)}</td>${[
    String(s.visits), duration(s.timeMs), String(s.effects), duration(s.effectMs), String(s.agentCalls),
    s.inputTokens + s.outputTokens > 0 ? `${groupDigits(s.inputTokens)} / ${groupDigits(s.outputTokens)}` : '',
    s.costUsd > 0 ? `$${s.costUsd.toFixed(4)}` : '',
  ].map((cell) => `<td class="num">${escapeHtml(cell)}</td>`).join('')}</tr>`);
  return [
    '<table id="states"><thead><tr><th>state</th><th class="num">visits</th><th class="num">time</th><th class="num">effects</th><th class="num">effect time</th><th class="num">agent calls</th><th class="num">tokens in / out</th><th class="num">cost</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
}

/** One column per lane: what a step changed in full, the rest greyed (busy) or empty (idle), so lanes read side by side. */
function laneTable(lanes: LaneRows): string {
  const cell = (lane: LaneCell): string => {
    const text = lane.state === 'idle' && !lane.changed ? '' : `${lane.story === null ? '' : `<span class="story">${escapeHtml(lane.story)}</span> `}${escapeHtml(lane.state)}`;
    return `<td class="${lane.changed ? 'changed' : 'same'}">${text}</td>`;
  };
  const rows = lanes.rows.map(({ step, cells }) => `<tr><td class="num">${step.seq}</td><td class="num">+${escapeHtml(duration(step.elapsedMs))}</td><td><code>${escapeHtml(step.event)}</code></td>${cells.map(cell).join('')}</tr>`);
  return [
    `<table id="lanes"><thead><tr><th class="num">seq</th><th class="num">time</th><th>event</th>${lanes.regions.map((region) => `<th>${escapeHtml(region)}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
}

function timelineTable(steps: readonly ReplayStep[]): string {
  const rows = steps.map((step) => {
    const transition = transitionText(step).trimStart();
    const effect = step.effect ? `${step.effect.label} → ${step.effect.outcome}` : '';
    const tokens = step.usage ? `${step.usage.inputTokens ?? '?'} / ${step.usage.outputTokens ?? '?'}` : '';
    const cost = step.usage?.costUsd == null ? '' : `$${step.usage.costUsd.toFixed(4)}`;
    const note = [step.detail, step.via.length > 0 ? `via ${step.via.map(busyText).join(', ')}` : null].filter((part): part is string => part !== null).join('; ');
    return `<tr><td class="num">${step.seq}</td><td class="num">+${escapeHtml(duration(step.elapsedMs))}</td><td>${escapeHtml(transition)}</td><td><code>${escapeHtml(step.event)}</code></td><td>${escapeHtml(effect)}</td><td class="num">${escapeHtml(step.effect?.durationMs == null ? '' : duration(step.effect.durationMs))}</td><td class="num">${escapeHtml(tokens)}</td><td class="num">${escapeHtml(cost)}</td><td>${escapeHtml(note)}</td></tr>`;
  });
  return [
    '<table id="timeline"><thead><tr><th class="num">seq</th><th class="num">time</th><th>state</th><th>event</th><th>effect</th><th class="num">took</th><th class="num">tokens</th><th class="num">cost</th><th>note</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
}
