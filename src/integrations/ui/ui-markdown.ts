/**
 * A small, safe Markdown renderer for procedures and entity pages: headings, paragraphs,
 * lists, block quotes, fenced code, inline code, emphasis and links. Every piece of source text
 * is escaped before any tag is added, raw HTML in the source is shown as text, and links keep
 * only http(s) and mailto targets — memory text is untrusted, so nothing in it can become
 * markup, a script or a `javascript:` link.
 */
import { escapeHtml, raw, type SafeHtml } from './ui-html.js';

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

// Emphasis and links over text that is already escaped: the patterns can only add tags we write.
function emphasis(escaped: string): string {
  return escaped
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, text: string, href: string) => {
      // `href` is escaped text: &amp; and the like decode back to what was written, and quotes
      // are entities, so the attribute cannot be closed from inside.
      const decoded = href.replace(/&amp;/g, '&');
      return SAFE_LINK.test(decoded) ? `<a href="${href}" rel="noopener noreferrer nofollow">${text}</a>` : whole;
    });
}

/** One line of inline Markdown: code spans kept verbatim (escaped), the rest with emphasis and links. */
export function renderInline(text: string): string {
  const parts = text.split(/(`[^`]+`)/);
  return parts
    .map((part) =>
      part.length > 2 && part.startsWith('`') && part.endsWith('`')
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : emphasis(escapeHtml(part)),
    )
    .join('');
}

/** Render Markdown to safe HTML. */
export function renderMarkdown(source: string): SafeHtml {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let paragraph: string[] = [];
  let list: { tag: 'ul' | 'ol'; items: string[] } | undefined;
  let quote: string[] = [];

  const flush = () => {
    if (paragraph.length > 0) out.push(`<p>${renderInline(paragraph.join(' '))}</p>`);
    paragraph = [];
    if (list)
      out.push(`<${list.tag}>${list.items.map((item) => `<li>${renderInline(item)}</li>`).join('')}</${list.tag}>`);
    list = undefined;
    if (quote.length > 0) out.push(`<blockquote><p>${renderInline(quote.join(' '))}</p></blockquote>`);
    quote = [];
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      index++;
      while (index < lines.length && !lines[index]!.trim().startsWith(fence[1]!)) code.push(lines[index++]!);
      out.push(`<pre><code>${escapeHtml(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      // Headings inside a page start below the page's own title.
      const level = Math.min(6, heading[1]!.length + 1);
      out.push(`<h${level}>${renderInline(heading[2]!.replace(/\s+#+\s*$/, ''))}</h${level}>`);
      continue;
    }
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line);
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line);
    if (bullet || numbered) {
      const tag = bullet ? 'ul' : 'ol';
      if (paragraph.length > 0 || quote.length > 0 || (list && list.tag !== tag)) flush();
      list ??= { tag, items: [] };
      list.items.push((bullet ?? numbered)![1]!);
      continue;
    }
    const quoted = /^\s*>\s?(.*)$/.exec(line);
    if (quoted) {
      if (paragraph.length > 0 || list) flush();
      quote.push(quoted[1]!);
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (list && /^\s{2,}\S/.test(line)) {
      list.items[list.items.length - 1] += ` ${line.trim()}`;
      continue;
    }
    if (list || quote.length > 0) flush();
    paragraph.push(line.trim());
  }
  flush();
  return raw(out.join('\n'));
}
