// `yoke inspect <machine> --format html`: the diagram and the transition table on one offline page.
import { renderDot } from './dot.js';
import { escapeHtml, htmlPage } from './html-page.js';
import type { MachineGraph } from './machine-graph.js';
import { renderSvg } from './render-svg.js';

/** The whole page for one machine. */
export async function machinePage(graph: MachineGraph): Promise<string> {
  const svg = await renderSvg(renderDot(graph));
  const names = new Map(graph.states.map((state) => [state.id, state.path.join('.') || graph.name]));
  const rows = graph.transitions.map((t) => `<tr><td>${escapeHtml(names.get(t.source) ?? t.source)}</td><td><code>${escapeHtml(t.event ?? 'always')}</code></td><td>${escapeHtml(t.guard ?? '')}</td><td>${escapeHtml(t.targets.map((id) => names.get(id) ?? id).join(', ') || '(no state change)')}</td><td>${escapeHtml(t.actions.join(', '))}</td></tr>`);
  const body = [
    `<h1>${escapeHtml(graph.name)} machine v${graph.version}</h1>`,
    `<p class="meta">${graph.states.length - 1} states, ${graph.transitions.length} transitions. Dashed arrows are eventless (<code>always</code>) transitions. Drawn by <code>yoke inspect ${escapeHtml(graph.name)} --format html</code>.</p>`,
    `<div class="diagram">${svg}</div>`,
    '<h2>Transitions</h2>',
    '<table><thead><tr><th>from</th><th>event</th><th>guard</th><th>to</th><th>actions</th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
  ].join('\n');
  return htmlPage(`yoke: ${graph.name} machine v${graph.version}`, body);
}
