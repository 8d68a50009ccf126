// DOT → inline SVG with Graphviz compiled to WebAssembly (@viz-js/viz): no network, no binary.
import { instance } from '@viz-js/viz';

/** Lay out and draw `dot`; returns an `<svg>` element ready to inline in a page. */
export async function renderSvg(dot: string): Promise<string> {
  const viz = await instance();
  const svg = viz.renderString(dot, { format: 'svg' });
  // Inline SVG needs neither the XML prolog nor the DOCTYPE.
  return svg.slice(svg.indexOf('<svg'));
}
