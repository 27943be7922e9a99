/**
 * HTML built from tagged templates: every interpolated value is escaped unless it is already
 * {@link SafeHtml} (the output of another template), so memory text — untrusted, written by
 * whoever the agent talked to — can only ever land in a page as text.
 */

const SAFE = Symbol('safe-html');

/** A piece of HTML that is already escaped. Only {@link html}, {@link raw} and the renderers make one. */
export interface SafeHtml {
  /** Marks the value as escaped. */
  readonly [SAFE]: true;
  /** The HTML text. */
  readonly text: string;
}

/** What a template accepts: text (escaped), numbers, safe HTML, lists of those; null, undefined and false render nothing. */
export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * Text as it may sit in an element or a quoted attribute. Control characters other than tab and
 * newline, and lone surrogates, become U+FFFD, so nothing invisible or malformed reaches the page.
 */
export function escapeHtml(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is replaced here.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd')
      .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')
      .replace(/[&<>"'`]/g, (char) => ESCAPES[char]!)
  );
}

/** Mark text as HTML. Only for markup this module's callers wrote themselves, never for data. */
export function raw(text: string): SafeHtml {
  return { [SAFE]: true, text };
}

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && SAFE in value;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (isSafe(value)) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** The template tag: `html\`<p>${memory.content}</p>\`` escapes the content. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let index = 0; index < values.length; index++) out += render(values[index]!) + (strings[index + 1] ?? '');
  return raw(out);
}

/** A query string from parameters (empty values left out), `?a=1&b=2`, or '' when none is left. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** An ISO timestamp shown to the minute, UTC (`2025-11-27 10:15`), or a dash. */
export function shortTime(iso: string | null | undefined): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : '—';
}
