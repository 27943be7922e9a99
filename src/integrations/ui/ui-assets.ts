/** The view's stylesheet and its one small script (keyboard navigation), served from /assets. */

/** /assets/ui.css */
export const UI_CSS = `
:root { color-scheme: light dark; --fg: #1d1d1f; --bg: #fff; --muted: #666; --line: #ddd; --accent: #2357c6; --bar: #4a78d4; --bad: #b3261e; --ok: #1e7b34; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8e8e8; --bg: #16171a; --muted: #9a9a9a; --line: #333; --accent: #8ab4ff; --bar: #6f96e6; } }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
header { display: flex; align-items: center; gap: 1rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.brand { font-weight: 700; }
nav ul { display: flex; gap: .75rem; list-style: none; margin: 0; padding: 0; flex-wrap: wrap; }
nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
a { color: var(--accent); }
a:focus, button:focus, input:focus, select:focus, textarea:focus, tr:focus-within { outline: 2px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: .5rem; background: var(--bg); padding: .25rem; }
main { padding: 0 1rem 2rem; max-width: 1100px; }
footer { padding: .5rem 1rem; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); }
.scope { padding: .4rem 1rem; margin: 0; background: color-mix(in srgb, var(--accent) 8%, transparent); font-size: 14px; display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
caption { text-align: left; color: var(--muted); font-size: 13px; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.muted, .hint { color: var(--muted); }
.badge { border: 1px solid var(--line); border-radius: 4px; padding: 0 .3rem; font-size: 12px; }
.badge.warn, .bad { color: var(--bad); } .ok { color: var(--ok); }
pre.text { white-space: pre-wrap; word-break: break-word; margin: 0; font: 14px/1.4 ui-monospace, monospace; }
.tiers { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: .75rem; }
.tier { border: 1px solid var(--line); border-radius: 6px; padding: .5rem; } .tier h3 { margin: 0 0 .3rem; font-size: 14px; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; } dl.meta dt { color: var(--muted); } dl.meta dd { margin: 0; }
form.action { border: 1px solid var(--line); border-radius: 6px; padding: .5rem .75rem; margin: .5rem 0; display: grid; gap: .25rem; max-width: 640px; }
form.action h3 { margin: 0; }
form.inline { display: inline; }
.filter-form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin: .5rem 0; }
fieldset.filters { display: flex; flex-wrap: wrap; gap: .5rem; border: 1px solid var(--line); }
button { font: inherit; padding: .2rem .7rem; }
button.danger { color: var(--bad); }
.notice { border-left: 4px solid var(--ok); padding: .3rem .6rem; }
.confirm { border: 2px solid var(--bad); border-radius: 6px; padding: .5rem 1rem; max-width: 720px; }
.results { padding-left: 1.2rem; } .result { margin-bottom: 1rem; } .meta-line { color: var(--muted); font-size: 13px; margin: 0; }
.breakdown { width: auto; font-size: 13px; } .explanation { font-size: 13px; color: var(--muted); }
.pager { display: flex; gap: 1rem; margin: .5rem 0; color: var(--muted); }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 1rem; }
figure.chart { margin: 0; } figure.chart svg { max-width: 100%; height: auto; }
svg .bar { fill: var(--bar); } svg .line { fill: none; stroke: var(--bar); stroke-width: 2; } svg .dot { fill: var(--bar); }
svg .axis { stroke: var(--muted); } svg text { fill: var(--fg); font-size: 11px; }
tr.current-row { font-weight: 600; }
kbd { border: 1px solid var(--line); border-radius: 3px; padding: 0 .25rem; font-size: 12px; }
`;

/**
 * /assets/ui.js — keyboard navigation only; every page works without it. `/` focuses the
 * search box (or opens Search), `j` / `k` move between rows, Enter follows the row's link.
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
})();
`;
