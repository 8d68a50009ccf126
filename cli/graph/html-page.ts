// The shell of yoke's offline pages: one file, inline styles, no script, nothing fetched.

/** Escape text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 24px; color: #111827; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; }
.meta { color: #4b5563; margin: 0 0 16px; }
.diagram { overflow: auto; border: 1px solid #e5e7eb; border-radius: 8px; padding: 12px; background: #fff; }
.diagram svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: 13px; } th, td { text-align: left; padding: 3px 10px 3px 0; vertical-align: top; border-bottom: 1px solid #f3f4f6; }
th { color: #374151; font-weight: 600; border-bottom: 1px solid #d1d5db; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.legend span { display: inline-block; margin-right: 16px; } .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; vertical-align: -1px; margin-right: 4px; }
.ok { color: #15803d; } .bad { color: #b91c1c; }
#lanes td.same { color: #9ca3af; } #lanes td.changed { color: #111827; } #lanes .story { font-weight: 600; }
`;

/** A complete HTML document around `body` (already escaped HTML). */
export function htmlPage(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    `<body>\n${body}\n</body>`,
    '</html>',
    '',
  ].join('\n');
}
