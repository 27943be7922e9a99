/**
 * Charts as inline SVG, drawn on the server: no script, no library, readable by a screen reader
 * (each chart is an image with a label, followed by its figures as a table).
 */
import { html, type SafeHtml } from './ui-html.js';

/** One bar or point: a label and a value. */
export interface Datum {
  /** What the value is of (a kind, a month, a date). */
  label: string;
  /** The value. */
  value: number;
}

const fmt = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

function dataTable(caption: string, data: readonly Datum[], unit: string): SafeHtml {
  return html`<details class="chart-data"><summary>${caption}: figures</summary><table><thead><tr><th scope="col">label</th><th scope="col">${unit}</th></tr></thead><tbody>${data.map(
    (datum) => html`<tr><td>${datum.label}</td><td class="num">${fmt(datum.value)}</td></tr>`,
  )}</tbody></table></details>`;
}

/** Horizontal bars, one per datum, with its label and value. */
export function barChart(caption: string, data: readonly Datum[], unit = 'count'): SafeHtml {
  if (data.length === 0) return html`<p class="muted">${caption}: nothing yet.</p>`;
  const max = Math.max(1, ...data.map((datum) => datum.value));
  const row = 22;
  const labelWidth = 130;
  const barWidth = 300;
  const height = data.length * row + 4;
  return html`<figure class="chart"><svg role="img" aria-label="${caption}" width="${labelWidth + barWidth + 70}" height="${height}" viewBox="0 0 ${labelWidth + barWidth + 70} ${height}"><title>${caption}</title>${data.map(
    (datum, index) => {
      const y = index * row + 2;
      const width = Math.max(1, Math.round((datum.value / max) * barWidth));
      return html`<text x="${labelWidth - 6}" y="${y + 15}" text-anchor="end" class="label">${datum.label.slice(0, 20)}</text><rect x="${labelWidth}" y="${y + 3}" width="${width}" height="${row - 8}" class="bar"></rect><text x="${labelWidth + width + 4}" y="${y + 15}" class="value">${fmt(datum.value)}</text>`;
    },
  )}</svg><figcaption>${caption}</figcaption>${dataTable(caption, data, unit)}</figure>`;
}

/**
 * A line over points in order (time on the x axis), y from `min` to `max` (default 0 to the
 * largest value). Points are drawn as dots so a single point still shows.
 */
export function lineChart(
  caption: string,
  data: readonly Datum[],
  options: { min?: number; max?: number; unit?: string } = {},
): SafeHtml {
  if (data.length === 0) return html`<p class="muted">${caption}: nothing yet.</p>`;
  const width = 520;
  const height = 180;
  const pad = { left: 44, right: 12, top: 10, bottom: 34 };
  const min = options.min ?? 0;
  const max = options.max ?? Math.max(min + 1, ...data.map((datum) => datum.value));
  const x = (index: number) =>
    pad.left +
    (data.length === 1
      ? (width - pad.left - pad.right) / 2
      : (index * (width - pad.left - pad.right)) / (data.length - 1));
  const y = (value: number) => pad.top + (1 - (value - min) / (max - min || 1)) * (height - pad.top - pad.bottom);
  const points = data.map((datum, index) => `${x(index).toFixed(1)},${y(datum.value).toFixed(1)}`).join(' ');
  const every = Math.max(1, Math.ceil(data.length / 6));
  return html`<figure class="chart"><svg role="img" aria-label="${caption}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><title>${caption}</title><line x1="${pad.left}" y1="${height - pad.bottom}" x2="${width - pad.right}" y2="${height - pad.bottom}" class="axis"></line><line x1="${pad.left}" y1="${pad.top}" x2="${pad.left}" y2="${height - pad.bottom}" class="axis"></line><text x="${pad.left - 4}" y="${pad.top + 8}" text-anchor="end" class="label">${fmt(max)}</text><text x="${pad.left - 4}" y="${height - pad.bottom}" text-anchor="end" class="label">${fmt(min)}</text><polyline points="${points}" class="line"></polyline>${data.map(
    (datum, index) =>
      html`<circle cx="${x(index).toFixed(1)}" cy="${y(datum.value).toFixed(1)}" r="3" class="dot"><title>${datum.label}: ${fmt(datum.value)}</title></circle>${
        index % every === 0 || index === data.length - 1
          ? html`<text x="${x(index).toFixed(1)}" y="${height - pad.bottom + 16}" text-anchor="middle" class="label">${datum.label.slice(0, 10)}</text>`
          : ''
      }`,
  )}</svg><figcaption>${caption}</figcaption>${dataTable(caption, data, options.unit ?? 'value')}</figure>`;
}
