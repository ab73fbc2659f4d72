// Tooltips for the report's charts that need no download and keep working without JavaScript: every mark
// that carries a description (its aria-label, from the spec's `description` channel) also gets an SVG
// <title>, which browsers show on hover in the chart files themselves; report.html adds a small inline
// script that shows the same text at once, in a box, as the pointer moves over a mark.

/** The class of a mark that has a tip; the page's script and the browser test look for it. */
const TIP_CLASS = 'hb-tip';

/**
 * Gives each described mark of a vega SVG a <title> with its description, and lets the pointer through
 * the text marks. vega writes the description as
 * the mark's aria-label, already escaped for XML (newlines as &#xA;), so it is valid <title> text as is.
 */
export function addSvgTitles(svg: string): string {
  // Labels drawn over marks (a grid cell's text) must not take the pointer from the mark beneath.
  const labels = svg.replace(
    /<g class="mark-text role-mark([^"]*)"/g,
    '<g class="mark-text role-mark$1" pointer-events="none"',
  );
  return labels.replace(
    /<path aria-label="([^"]*)" role="graphics-symbol"([^>]*?)\/>/g,
    (_, label: string, rest: string) =>
      `<path class="${TIP_CLASS}" aria-label="${label}" role="graphics-symbol"${rest}><title>${label}</title></path>`,
  );
}

/** CSS of the tip box and of hovered marks in report.html. */
export const TIP_STYLE = `#hb-tipbox{position:fixed;z-index:10;display:none;max-width:36em;padding:6px 9px;background:#fff;border:1px solid #888;border-radius:4px;box-shadow:0 2px 6px rgba(0,0,0,.25);font-size:12px;line-height:1.35;white-space:pre-line;pointer-events:none}
path.${TIP_CLASS}{cursor:crosshair}path.${TIP_CLASS}:hover{stroke:#000;stroke-width:2.5px}`;

/**
 * The page's script: on the first hover of a mark its <title> moves into data-tip (so the browser's own,
 * slower tooltip does not show as well), then a box near the pointer shows it until the pointer leaves.
 */
export const TIP_SCRIPT = `(() => {
  const box = document.createElement('div');
  box.id = 'hb-tipbox';
  box.setAttribute('role', 'tooltip');
  document.body.appendChild(box);
  const markOf = (e) => (e.target instanceof Element ? e.target.closest('.${TIP_CLASS}') : null);
  const place = (e) => {
    const x = Math.min(e.clientX + 14, window.innerWidth - box.offsetWidth - 4);
    const below = e.clientY + 14 + box.offsetHeight <= window.innerHeight;
    box.style.left = Math.max(0, x) + 'px';
    box.style.top = Math.max(0, below ? e.clientY + 14 : e.clientY - box.offsetHeight - 10) + 'px';
  };
  document.addEventListener('mouseover', (e) => {
    const mark = markOf(e);
    if (!mark) return;
    const title = mark.querySelector('title');
    if (title) {
      mark.setAttribute('data-tip', title.textContent);
      title.remove();
    }
    box.textContent = mark.getAttribute('data-tip');
    box.style.display = 'block';
    place(e);
  });
  document.addEventListener('mousemove', (e) => {
    if (box.style.display === 'block') place(e);
  });
  document.addEventListener('mouseout', (e) => {
    if (markOf(e) && !(e.relatedTarget instanceof Element && e.relatedTarget.closest('.${TIP_CLASS}') === markOf(e)))
      box.style.display = 'none';
  });
})();`;
