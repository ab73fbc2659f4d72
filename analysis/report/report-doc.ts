// A tiny document model for the report, rendered to Markdown and to a self-contained HTML page, so both
// outputs say exactly the same things. Pure functions: blocks in, a string out.

import { TIP_SCRIPT, TIP_STYLE } from '../charts/svg-tips.ts';

/** One block of the report. Text is plain (inline `code` and **bold** marks are the only markup). */
export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'table'; head: string[]; rows: string[][]; align?: ('left' | 'right')[] }
  | { kind: 'chart'; file: string; title: string };

function mdCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The blocks as Markdown (GitHub flavour). */
export function toMarkdown(blocks: readonly Block[]): string {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.kind === 'heading') out.push(`${'#'.repeat(b.level)} ${b.text}`);
    else if (b.kind === 'paragraph') out.push(b.text);
    else if (b.kind === 'list') out.push(b.items.map((i) => `- ${i}`).join('\n'));
    else if (b.kind === 'chart') out.push(`![${b.title}](${b.file})`);
    else {
      const align = b.head.map((_, i) => (b.align?.[i] === 'right' ? '---:' : '---'));
      out.push(
        [
          `| ${b.head.map(mdCell).join(' | ')} |`,
          `| ${align.join(' | ')} |`,
          ...b.rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
        ].join('\n'),
      );
    }
  }
  return `${out.join('\n\n')}\n`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Inline markup of the text blocks: `code` and **bold**, after escaping. */
function inline(s: string): string {
  return escapeHtml(s)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}th,td{border:1px solid #ccc;padding:3px 8px}
th{background:#f4f4f4}td.r{text-align:right;font-variant-numeric:tabular-nums}code{background:#f4f4f4;padding:0 3px}
figure{margin:1.5em 0}figcaption{font-size:0.9em;color:#555}figure svg{max-width:100%;height:auto}
${TIP_STYLE}`;

/**
 * The blocks as one HTML page; each chart's SVG (from `svgs`, by file) is embedded inline, with a small
 * inline script for the charts' tooltips (the SVG reads the same without it).
 */
export function toHtml(title: string, blocks: readonly Block[], svgs: ReadonlyMap<string, string>): string {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.kind === 'heading') out.push(`<h${b.level}>${inline(b.text)}</h${b.level}>`);
    else if (b.kind === 'paragraph') out.push(`<p>${inline(b.text)}</p>`);
    else if (b.kind === 'list') out.push(`<ul>${b.items.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`);
    else if (b.kind === 'chart') {
      const svg = svgs.get(b.file);
      const body = svg ?? `<p>(chart ${escapeHtml(b.file)} was not rendered)</p>`;
      out.push(
        `<figure data-chart="${escapeHtml(b.file)}">${body}<figcaption>${inline(b.title)}</figcaption></figure>`,
      );
    } else {
      const cls = (i: number) => (b.align?.[i] === 'right' ? ' class="r"' : '');
      const head = `<tr>${b.head.map((h) => `<th>${inline(h)}</th>`).join('')}</tr>`;
      const rows = b.rows.map(
        (r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${inline(c)}</td>`).join('')}</tr>`,
      );
      out.push(`<table>\n${head}\n${rows.join('\n')}\n</table>`);
    }
  }
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${out.join('\n')}
${blocks.some((b) => b.kind === 'chart') ? `<script>${TIP_SCRIPT}</script>\n` : ''}</body>
</html>
`;
}
