/**
 * The one stylesheet of a report document's content, wherever a document is shown: the public
 * share page inlines it (its CSP names the page's stylesheet by hash), the web app serves it as a
 * stylesheet file of its own (docs/web.md "Report documents").
 *
 * Every rule is scoped under `.document`, the element that holds the rendered Markdown, and reads
 * colours and the measure only from these custom properties, which the page around it defines for
 * light and dark (and print, where it differs):
 * `--doc-ink` (text), `--doc-muted` (secondary text), `--doc-line` (rules and borders),
 * `--doc-surface` (the paper under the document), `--doc-measure` (the prose's line length),
 * `--doc-zebra` (even rows, code blocks), `--doc-head` (header cells), `--doc-total` and
 * `--doc-grand` (total and grand-total rows), `--doc-shade` (a table's scrolling edge),
 * `--doc-chart-1` and `--doc-chart-2` (a chart's billable and not-billable series; blues by default).
 *
 * - Prose keeps a readable measure; tables take the width they need, so no cell breaks inside a
 *   token ("09:00", "2026-11-11", "Wednesday") while the screen has room. A table wider than its
 *   column scrolls inside its own `.table-wrap`, whose edges show a shadow while there is more to
 *   scroll to (backgrounds that scroll with the content cover the shadows at the ends: CSS alone,
 *   no script). Below 40rem tables set 13 px type in tighter cells and wrap a cell past 12rem, so
 *   that a table of five short columns (an invoice's project, person, hours, rate and amount) and
 *   one with a long label ("Fälliger Gesamtbetrag in EUR") fit a 390 px phone whole; 12rem still
 *   holds a day's label ("Wednesday 2026-11-04") on one line.
 * - Header cells never break inside a word and ignore the host page's own table styling; rows the
 *   Markdown renderer marks `total` / `grand-total` stand out (their shade replaces the zebra).
 * - Alignment classes replace markdown-it's inline `style` (which a strict CSP blocks).
 * - A chart (chart.ts) is coloured here by its classes alone: its SVG carries no style. It comes
 *   drawn wide and narrow, and its box (a size container) shows the narrow drawing where the wide
 *   one would shrink below 30rem, so its text stays legible on a phone without scrolling
 *   sideways; the second series is hatched and outlined, and print shows the wide drawing and
 *   turns the fills into greys and black, so the series differ without colour.
 * - Print drops the scrolling, lets tables use the page width and keeps every row whole; the page
 *   around the document drops its own chrome.
 */
export const DOCUMENT_CSS = `
.document{line-height:1.6;overflow-wrap:break-word}
.document :is(h1,h2,h3,h4,h5,h6){line-height:1.25;margin:1.6em 0 .5em;max-width:var(--doc-measure);overflow-wrap:anywhere}
.document :is(p,ul,ol,blockquote,dl){max-width:var(--doc-measure)}
.document :is(p,ul,ol,blockquote,pre){margin:0 0 1em}
.document blockquote{margin-left:0;padding-left:1rem;border-left:4px solid var(--doc-line);color:var(--doc-muted)}
.document code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
.document pre{overflow-x:auto;padding:.75rem;border:1px solid var(--doc-line);border-radius:8px;background:var(--doc-zebra)}
.document hr{border:0;border-top:1px solid var(--doc-line);margin:2rem 0}
.document .table-wrap{margin:0 0 1.5rem}
.document .table-wrap{overflow-x:auto;background-color:var(--doc-surface);background-image:linear-gradient(to right,var(--doc-surface) 35%,transparent),linear-gradient(to left,var(--doc-surface) 35%,transparent),radial-gradient(farthest-side at 0 50%,var(--doc-shade),transparent),radial-gradient(farthest-side at 100% 50%,var(--doc-shade),transparent);background-position:left center,right center,left center,right center;background-size:2.5rem 100%,2.5rem 100%,.9rem 100%,.9rem 100%;background-repeat:no-repeat;background-attachment:local,local,scroll,scroll}
.document table{border-collapse:collapse;width:max-content;min-width:min(100%,var(--doc-measure));font-variant-numeric:tabular-nums}
.document :is(th,td){border:1px solid var(--doc-line);padding:.4rem .7rem;text-align:left;vertical-align:top;max-width:40rem}
.document th{white-space:nowrap;word-break:keep-all;overflow-wrap:normal;hyphens:manual;font-size:inherit;text-transform:none;letter-spacing:normal;color:inherit}
.document thead th{background:var(--doc-head);font-weight:600}
.document tbody tr:nth-child(even){background:var(--doc-zebra)}
.document tbody tr.total{background:var(--doc-total)}
.document tbody tr.grand-total{background:var(--doc-grand)}
.document tr.total td{border-top:2px solid var(--doc-muted)}
.document tr.grand-total td{border-top:3px double var(--doc-ink)}
.document :is(td.align-right,td.align-center){white-space:nowrap}
@media screen and (max-width:40rem){.document table{font-size:.8125rem}.document :is(th,td){max-width:12rem;padding:.3rem .25rem}}
.document .align-left{text-align:left}
.document .align-center{text-align:center}
.document .align-right{text-align:right}
.document .image-alt{font-style:italic;color:var(--doc-muted)}
.document .image-alt::before{content:"[image: "}
.document .image-alt::after{content:"]"}
.document .chart{margin:0 0 1.5rem;max-width:var(--doc-measure);container-type:inline-size}
.document .chart figcaption{font-weight:600;margin:0 0 .25rem}
.document .chart-svg{display:block;width:100%;height:auto;font-variant-numeric:tabular-nums}
.document .chart-narrow{display:none}
@container (max-width:29.99rem){.document .chart-wide{display:none}.document .chart-narrow{display:block}}
.document .chart-text{fill:var(--doc-ink)}
.document .chart-muted{fill:var(--doc-muted)}
.document .chart-grid{stroke:var(--doc-line);stroke-width:1}
.document .chart-axis{stroke:var(--doc-muted);stroke-width:1}
.document .chart-s1{fill:var(--doc-chart-1,#2f6fce)}
.document .chart-s2{stroke:var(--doc-chart-2,#2f6fce);stroke-width:1}
.document .chart-hatch-bg{fill:var(--doc-surface)}
.document .chart-hatch{stroke:var(--doc-chart-2,#2f6fce);stroke-width:2}
.document .chart-data summary{cursor:pointer;color:var(--doc-muted);font-size:.925rem}
.document .chart-data .table-wrap{margin:.5rem 0 0}
@media print{
.document .table-wrap{overflow:visible}
.document table{width:100%;min-width:0;font-size:9pt}
.document :is(th,td){max-width:none;white-space:normal;overflow-wrap:anywhere;padding:.2rem .4rem}
.document th{overflow-wrap:normal}
.document tr.total{font-weight:700}
.document thead{display:table-header-group}
.document pre{white-space:pre-wrap;overflow:visible}
.document :is(tr,pre,blockquote){break-inside:avoid}
.document :is(h1,h2,h3,h4,h5,h6){break-after:avoid}
.document .chart{break-inside:avoid;max-width:none}
.document .chart-svg{max-width:40rem}
.document .chart-wide{display:block}
.document .chart-narrow{display:none}
.document .chart-data{display:none}
.document .chart-text{fill:#000}
.document .chart-muted{fill:#333}
.document .chart-grid{stroke:#bbb}
.document .chart-axis{stroke:#000}
.document .chart-s1{fill:#555;stroke:#000;stroke-width:.5}
.document .chart-s2{stroke:#000;stroke-width:.75}
.document .chart-hatch-bg{fill:#fff}
.document .chart-hatch{stroke:#000;stroke-width:1.5}
}
`;
