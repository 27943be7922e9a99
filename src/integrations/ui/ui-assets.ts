/**
 * The view's stylesheet and its one small script (keyboard navigation, select-all), served from
 * /assets. Everything is inline here: the view works offline and loads nothing from elsewhere
 * (its content security policy allows only its own origin). Colours are chosen for at least
 * 4.5:1 contrast on their background in both schemes.
 */

/** /assets/ui.css */
export const UI_CSS = `
:root {
  color-scheme: light dark;
  --font: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, "SF Mono", "Cascadia Code", "JetBrains Mono", Menlo, Consolas, monospace;
  --page: #f6f6f3; --surface: #ffffff; --raised: #fbfbf9; --fg: #1b1c20; --muted: #5b606b; --line: #e2e2dc; --line-strong: #cfd0c8;
  --accent: #3451c6; --accent-fg: #ffffff; --accent-soft: #e8ecfb; --accent-line: #c4cef4;
  --bar: #5b74d6; --track: #e9eaf0;
  --bad: #b3261e; --bad-soft: #fdecea; --ok: #17703b; --ok-soft: #e5f4ea; --warn: #8a5a00; --warn-soft: #fff4dc;
  --agent: #0f6b63; --agent-soft: #e0f2ef; --ns: #6a4a9c; --ns-soft: #efe9f8;
  --radius: 10px; --shadow: 0 1px 2px rgb(20 20 30 / 6%), 0 1px 1px rgb(20 20 30 / 4%);
}
@media (prefers-color-scheme: dark) {
  :root {
    --page: #111318; --surface: #181b21; --raised: #1d2128; --fg: #e7e8eb; --muted: #a0a6b1; --line: #2b3038; --line-strong: #3a404b;
    --accent: #9aabff; --accent-fg: #101320; --accent-soft: #232a45; --accent-line: #38426e;
    --bar: #8497f0; --track: #2a2f3a;
    --bad: #ff9189; --bad-soft: #3a1f1f; --ok: #6fd69a; --ok-soft: #193024; --warn: #f2c46b; --warn-soft: #332a17;
    --agent: #6fd3c6; --agent-soft: #17302d; --ns: #c7a9f5; --ns-soft: #2b2340;
    --shadow: 0 1px 2px rgb(0 0 0 / 40%);
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { font: 15px/1.55 var(--font); color: var(--fg); background: var(--page); margin: 0; min-height: 100vh; display: flex; flex-direction: column; }
a { color: var(--accent); text-underline-offset: 2px; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 4px; }
tr:focus-within { outline: 2px solid var(--accent); outline-offset: -2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: .5rem; background: var(--surface); padding: .4rem .7rem; z-index: 10; border-radius: 6px; }
code, kbd, pre { font-family: var(--mono); }
code { font-size: .88em; background: var(--raised); border: 1px solid var(--line); border-radius: 4px; padding: 0 .3em; }

/* header and navigation */
header.top { background: var(--surface); border-bottom: 1px solid var(--line); position: sticky; top: 0; z-index: 5; }
.top-inner { max-width: 1220px; margin: 0 auto; padding: .55rem 1.5rem; display: flex; align-items: center; gap: 1.25rem; flex-wrap: wrap; }
.brand { display: inline-flex; align-items: center; gap: .5rem; font-weight: 700; font-size: 17px; letter-spacing: -.01em; color: var(--fg); text-decoration: none; }
.logo-bg { fill: var(--accent); } .logo-fg { stroke: var(--accent-fg); }
nav ul { display: flex; gap: .15rem; list-style: none; margin: 0; padding: 0; flex-wrap: wrap; }
header nav a { display: block; padding: .3rem .65rem; border-radius: 999px; color: var(--muted); text-decoration: none; font-size: 14px; font-weight: 500; }
header nav a:hover { color: var(--fg); background: var(--raised); }
header nav a[aria-current="page"] { color: var(--accent); background: var(--accent-soft); font-weight: 600; }
.badge { border: 1px solid var(--line-strong); border-radius: 999px; padding: 0 .5rem; font-size: 12px; color: var(--muted); }
.badge.warn { color: var(--bad); border-color: currentColor; }

/* scope bar */
.scopebar { max-width: 1220px; width: 100%; margin: 0 auto; padding: .6rem 1.5rem; font-size: 13.5px; display: flex; gap: .4rem .75rem; flex-wrap: wrap; align-items: center; color: var(--muted); }
.scope-label { font-weight: 600; color: var(--fg); text-transform: uppercase; letter-spacing: .06em; font-size: 11.5px; }
.scopebar strong { color: var(--fg); }
.scopebar input { width: 8.5rem; padding: .2rem .45rem; }

main { flex: 1; width: 100%; max-width: 1220px; margin: 0 auto; padding: .5rem 1.5rem 3rem; }
main:focus { outline: none; }
h1 { font-size: 26px; line-height: 1.2; letter-spacing: -.02em; margin: .75rem 0 1rem; }
h2 { font-size: 17px; letter-spacing: -.01em; margin: 1.75rem 0 .6rem; }
h3 { font-size: 14.5px; margin: 0 0 .35rem; }
footer { border-top: 1px solid var(--line); color: var(--muted); font-size: 12.5px; }
footer { display: flex; justify-content: space-between; gap: 1rem; flex-wrap: wrap; padding: .8rem max(1.5rem, calc((100% - 1220px) / 2 + 1.5rem)); }
kbd { border: 1px solid var(--line-strong); border-bottom-width: 2px; border-radius: 4px; padding: 0 .3rem; font-size: 11.5px; background: var(--surface); }
.muted, .hint { color: var(--muted); }
.hint { font-size: 13px; }
.lead { font-size: 16.5px; margin: 0 0 .75rem; max-width: 70ch; }
.summary { margin: .5rem 0 .9rem; color: var(--muted); }
.summary strong { color: var(--fg); font-variant-numeric: tabular-nums; }
.ok { color: var(--ok); } .bad { color: var(--bad); }

/* forms and buttons */
input, select, textarea { font: inherit; color: var(--fg); background: var(--surface); border: 1px solid var(--line-strong); border-radius: 6px; padding: .35rem .55rem; }
textarea { width: 100%; font-family: var(--mono); font-size: 13.5px; line-height: 1.5; resize: vertical; }
input[type="checkbox"] { width: 1rem; height: 1rem; accent-color: var(--accent); vertical-align: middle; }
label { font-size: 13.5px; color: var(--muted); }
button { font: inherit; font-size: 14px; font-weight: 500; padding: .35rem .85rem; border-radius: 6px; border: 1px solid var(--line-strong); background: var(--surface); color: var(--fg); cursor: pointer; }
button:hover { background: var(--raised); border-color: var(--muted); }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); }
button.primary:hover { filter: brightness(1.08); }
button.danger { color: var(--bad); border-color: color-mix(in srgb, var(--bad) 45%, transparent); }
button.danger:hover { background: var(--bad-soft); }
button.subtle { border-style: dashed; }
.filter-form { display: flex; flex-wrap: wrap; gap: .75rem; align-items: flex-end; margin: 0 0 .5rem; }
.filter-form > label { display: flex; flex-direction: column; gap: .2rem; }
fieldset.filters { display: flex; flex-wrap: wrap; gap: .5rem .9rem; border: 1px solid var(--line); border-radius: var(--radius); background: var(--surface); padding: .5rem .9rem .75rem; margin: 0; }
fieldset.filters legend { font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); padding: 0 .3rem; }
fieldset.filters label { display: flex; flex-direction: column; gap: .15rem; }
.filter-actions { display: flex; gap: .75rem; align-items: center; padding-bottom: .2rem; }
form.action { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: .9rem 1rem; margin: .75rem 0; display: grid; gap: .35rem; max-width: 680px; box-shadow: var(--shadow); }
form.action.wide { max-width: 860px; }
form.action h2, form.action h3 { margin: 0 0 .2rem; }
form.inline { display: inline; }
.bulk { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .25rem 0 .5rem; }
.error { color: var(--bad); margin: .2rem 0; }

/* tables */
.table-wrap { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); overflow-x: auto; box-shadow: var(--shadow); margin: .5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; }
.table-wrap table { margin: 0; }
caption { text-align: left; color: var(--muted); font-size: 12.5px; padding: .55rem .9rem; caption-side: top; }
th, td { text-align: left; padding: .55rem .7rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { font-size: 11px; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); background: var(--raised); white-space: nowrap; border-top: 1px solid var(--line); }
tbody tr:last-child > * { border-bottom: 0; }
table.rows tbody tr:hover { background: var(--raised); }
table.memories td.text { min-width: 14rem; }
table.memories td { font-size: 14px; }
table.memories th, table.memories td { padding-left: .55rem; padding-right: .55rem; }
td.scope { min-width: 7rem; }
table.rows td.text a { color: var(--fg); text-decoration: none; font-weight: 500; }
table.rows td.text a:hover { color: var(--accent); text-decoration: underline; }
tr.stale td.text a { color: var(--muted); font-weight: 400; }
td.when, td.validity { white-space: nowrap; color: var(--muted); font-size: 13.5px; font-variant-numeric: tabular-nums; }
th.pick, td.pick { width: 2.2rem; padding-right: 0; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
a.sort { color: inherit; text-decoration: none; display: inline-flex; gap: .25rem; align-items: center; }
a.sort:hover, a.sort.active { color: var(--accent); }
a.sort .arrow { font-size: 11px; opacity: .55; } a.sort.active .arrow { opacity: 1; }
tr.current-row { font-weight: 600; }
.chip { display: inline-flex; gap: .25rem; align-items: baseline; border-radius: 999px; padding: .05rem .5rem; font-size: 12.5px; background: var(--accent-soft); color: var(--accent); margin: 0 .25rem .15rem 0; white-space: nowrap; }
.chip-key { font-size: 10.5px; text-transform: uppercase; letter-spacing: .05em; opacity: .8; }
.chip-agent { background: var(--agent-soft); color: var(--agent); }
.chip-namespace { background: var(--ns-soft); color: var(--ns); }
.kind { font-size: 12.5px; border: 1px solid var(--line-strong); border-radius: 4px; padding: 0 .35rem; color: var(--muted); white-space: nowrap; }
svg.share .track { fill: var(--track); } svg.share .bar { fill: var(--bar); }

/* states and notices */
.empty { border: 1.5px dashed var(--line-strong); border-radius: var(--radius); padding: 2rem 1rem; text-align: center; color: var(--muted); background: var(--surface); margin: .75rem 0; }
.empty svg { color: var(--muted); }
.empty-title { font-weight: 600; color: var(--fg); margin: .4rem 0 .2rem; }
.empty-hint { margin: 0; font-size: 14px; }
.notice { background: var(--ok-soft); color: var(--fg); border: 1px solid color-mix(in srgb, var(--ok) 35%, transparent); border-radius: 8px; padding: .5rem .8rem; margin: .25rem 0 1rem; }
.notice.warn { background: var(--warn-soft); border-color: color-mix(in srgb, var(--warn) 40%, transparent); }
.confirm { background: var(--surface); border: 1px solid var(--line); border-left: 4px solid var(--bad); border-radius: var(--radius); padding: .9rem 1.2rem 1.1rem; max-width: 760px; box-shadow: var(--shadow); }
.confirm.save { border-left-color: var(--accent); }
.confirm h2 { margin-top: .2rem; }
.confirm form { display: flex; gap: 1rem; align-items: center; margin-top: .75rem; }
ul.doomed { margin: .5rem 0; padding-left: 1.2rem; } ul.doomed li { margin: .15rem 0; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }

/* the core block */
pre.core-text { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: .9rem 1rem; box-shadow: var(--shadow); max-width: 860px; }
meter { width: 10rem; height: .7rem; vertical-align: middle; }
ol.diff { list-style: none; padding: 0; margin: .75rem 0; font: 13.5px/1.5 var(--mono); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
ol.diff li { padding: .1rem .6rem; white-space: pre-wrap; word-break: break-word; }
ol.diff .sign { display: inline-block; width: 1.2rem; color: var(--muted); user-select: none; }
ol.diff .added { background: var(--ok-soft); } ol.diff .added .sign { color: var(--ok); }
ol.diff .removed { background: var(--bad-soft); text-decoration: line-through; text-decoration-color: color-mix(in srgb, var(--bad) 50%, transparent); } ol.diff .removed .sign { color: var(--bad); }

/* one memory, search, records */
pre.text { white-space: pre-wrap; word-break: break-word; margin: 0; font: 13.5px/1.5 var(--mono); }
.tiers { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: .75rem; }
.tier { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: .7rem .85rem; box-shadow: var(--shadow); }
.tier h3 { font-size: 11.5px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1.25rem; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: .8rem 1rem; box-shadow: var(--shadow); }
dl.meta dt { color: var(--muted); font-size: 13.5px; } dl.meta dd { margin: 0; }
details { margin: .75rem 0; } summary { cursor: pointer; color: var(--muted); }
.results { padding-left: 0; list-style: none; counter-reset: result; }
.result { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: .75rem 1rem; margin-bottom: .75rem; box-shadow: var(--shadow); }
.result > p:first-child { margin: 0 0 .2rem; font-weight: 500; }
.meta-line { color: var(--muted); font-size: 13px; margin: 0; }
table.breakdown { width: auto; font-size: 13px; margin-top: .5rem; } table.breakdown th, table.breakdown td { padding: .2rem .6rem; }
.explanation { font-size: 13px; color: var(--muted); }
.pager { display: flex; gap: 1rem; align-items: center; margin: .5rem 0; color: var(--muted); font-size: 14px; }
ul.facts, ul.cards { list-style: none; padding: 0; }
ul.facts > li, ul.cards > li { background: var(--surface); border: 1px solid var(--line); border-radius: 8px; padding: .55rem .85rem; margin-bottom: .5rem; box-shadow: var(--shadow); }
ul.cards h2 { font-size: 11.5px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: .6rem 0 .2rem; }
ul.cards ul { margin: 0; padding-left: 1.1rem; }
cite { color: var(--muted); font-size: 13px; font-style: normal; font-family: var(--mono); }
article.markdown { margin-top: .75rem; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: .25rem 1.25rem 1rem; max-width: 860px; box-shadow: var(--shadow); }

/* charts */
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1rem; }
figure.chart figcaption { font-weight: 600; font-size: 14px; }
figure.chart { margin: 0; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: .75rem; box-shadow: var(--shadow); }
figure.chart svg { max-width: 100%; height: auto; }
svg .bar { fill: var(--bar); } svg .line { fill: none; stroke: var(--bar); stroke-width: 2; } svg .dot { fill: var(--bar); }
svg .axis { stroke: var(--line-strong); } svg text { fill: var(--fg); font-size: 11px; }

@media (max-width: 720px) {
  .top-inner, .scopebar, main { padding-left: 1rem; padding-right: 1rem; }
  th, td { padding: .45rem .55rem; }
  .charts { grid-template-columns: 1fr; }
}
@media (prefers-reduced-motion: no-preference) { a, button { transition: background-color .12s, color .12s, border-color .12s; } }
`;

/**
 * /assets/ui.js — keyboard navigation and select-all only; every page works without it. `/`
 * focuses the search box (or opens Search), `j` / `k` move between rows, Enter follows the row's
 * link; the box in a list's header ticks or clears every row's box.
 */
export const UI_JS = `
(() => {
  const typing = (el) => el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
  const rows = () => Array.from(document.querySelectorAll('[data-row] a')).filter((a) => a.closest('[data-row]').querySelector('a') === a);
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || typing(document.activeElement)) return;
    if (event.key === '/') {
      const box = document.querySelector('[data-search]');
      event.preventDefault();
      if (box) box.focus(); else location.href = '/search' + location.search.replace(/([?&])(page|q)=[^&]*/g, '$1');
      return;
    }
    if (event.key === 'j' || event.key === 'k') {
      const links = rows();
      if (links.length === 0) return;
      const at = links.indexOf(document.activeElement);
      const next = event.key === 'j' ? Math.min(links.length - 1, at + 1) : Math.max(0, at < 0 ? 0 : at - 1);
      links[next].focus();
      event.preventDefault();
    }
  });
  document.addEventListener('change', (event) => {
    const all = event.target;
    if (!(all instanceof HTMLInputElement) || !all.hasAttribute('data-select-all')) return;
    const table = all.closest('table');
    if (table) for (const box of table.querySelectorAll('tbody input[type="checkbox"][name="id"]')) box.checked = all.checked;
  });
})();
`;
