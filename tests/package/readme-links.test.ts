import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README is a front page (what memoir is, install, the agent loop, the doors, the bench
// headline, links); everything else lives in guides under docs/ that `npm run docs` publishes.
// These tests keep it that way: the front page stays short, every relative link in the README,
// CONTRIBUTING and docs/ reaches a file and a heading that exist, every guide is published by
// typedoc, the README's bench figures are the ones its guide reports, and CONTRIBUTING's table
// of entry points is package.json's.

const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Markdown files whose links are checked, relative to the root. */
function markdownFiles(): string[] {
  const found = ['README.md', 'CONTRIBUTING.md'];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      const path = `${dir}/${name}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found;
}

/** The lines of a Markdown text outside fenced code blocks (and outside front matter). */
function proseLines(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  let start = 0;
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1);
    if (end > 0) start = end + 1;
  }
  for (const line of lines.slice(start)) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence === undefined) out.push(line);
  }
  return out;
}

/** A heading's anchor as GitHub (github-slugger) makes it: code and emphasis keep their text. */
function slugOf(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link keeps its text
    .replace(/[`*]/g, '');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Every anchor a Markdown file defines on GitHub and on the typedoc site alike, with GitHub's
 * -1, -2 suffixes for repeated headings. typedoc leaves inline code out of a heading's anchor
 * (`## Scale: \`npm run bench:scale\`` is `#scale` there, `#scale-npm-run-benchscale` on
 * GitHub), so a heading with code in it gives no anchor a link may rely on.
 */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    if (heading.includes('`')) continue;
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative links `[text](target)` of a Markdown text, outside code. */
function relativeLinks(text: string): string[] {
  const links: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      links.push(target);
    }
  }
  return links;
}

/** Broken links of one file, each as `file: target (why)`. */
function brokenLinks(file: string): string[] {
  const text = read(file);
  const broken: string[] = [];
  for (const link of relativeLinks(text)) {
    const [pathPart = '', anchor] = link.split('#', 2);
    const target = pathPart === '' ? join(root, file) : resolve(root, dirname(file), decodeURIComponent(pathPart));
    if (!target.startsWith(root) || !existsSync(target)) {
      broken.push(`${file}: ${link} (no file ${relative(root, target)})`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!target.endsWith('.md')) {
      broken.push(`${file}: ${link} (an anchor into a file that is not Markdown)`);
      continue;
    }
    if (!anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
      broken.push(`${file}: ${link} (no heading with anchor #${anchor} in ${relative(root, target)})`);
    }
  }
  return broken;
}

/** Rows of the Markdown tables in a text. */
const tableRows = (text: string) =>
  proseLines(text).filter((line) => /^\|.*\|$/.test(line) && !/^\|[-:| ]+\|$/.test(line));

describe('the README is a front page', () => {
  it('is at most 400 lines', () => {
    const lines = read('README.md').split('\n').length;
    expect(
      lines,
      'README.md has grown past a front page: move the detail into a guide in docs/guides',
    ).toBeLessThanOrEqual(400);
  });

  it('links to every guide in docs/guides', () => {
    const readme = read('README.md');
    const guides = readdirSync(join(root, 'docs/guides')).filter((name) => name.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(0);
    const unlinked = guides.filter((name) => !readme.includes(`](docs/guides/${name}`));
    expect(unlinked, 'guides the README does not link to').toEqual([]);
  });

  it('quotes the bench tables exactly as the benchmarks guide reports them', () => {
    const readme = read('README.md');
    const section = readme.slice(
      readme.indexOf('## Benchmarks'),
      readme.indexOf('\n## ', readme.indexOf('## Benchmarks') + 1),
    );
    const rows = tableRows(section);
    expect(rows.length, 'the README shows the LoCoMo headline table and the scale table').toBeGreaterThanOrEqual(10);
    const guideRows = new Set(tableRows(read('docs/guides/benchmarks.md')));
    expect(rows.filter((row) => !guideRows.has(row))).toEqual([]);
    // The headline keeps its baselines and the note on which figures chose the defaults.
    expect(section).toMatch(/\| BM25 \(LoCoMo paper\) \|/);
    expect(section).toMatch(/\| DRAGON \(LoCoMo paper\) \|/);
    expect(section).toMatch(/\*\*Which figures chose the defaults\.\*\*/);
    expect(section).toMatch(/AMD EPYC, 2 cores/);
  });
});

describe('links between the README, CONTRIBUTING and the guides', () => {
  it.each(markdownFiles())('%s: every relative link reaches a file and a heading', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('the link check catches a missing file, a missing anchor and a missing self-anchor', () => {
    // A guard against a check that passes everything: the same code on known-bad links.
    const links = relativeLinks(
      'see [a](./nope.md), [b](./docs/guides/stores.md#no-such-heading), [c](#nowhere), `[d](./in-code.md)`\n```\n[e](./in-fence.md)\n```\n',
    );
    expect(links).toEqual(['./nope.md', './docs/guides/stores.md#no-such-heading', '#nowhere']);
    expect(anchorsOf(read('docs/guides/stores.md')).has('no-such-heading')).toBe(false);
    expect(anchorsOf(read('docs/guides/stores.md')).has('write-your-own-store')).toBe(true);
  });

  it('makes anchors the way GitHub does', () => {
    expect(slugOf('Tuning that holds on conversations it was not tuned on: --folds')).toBe(
      'tuning-that-holds-on-conversations-it-was-not-tuned-on---folds',
    );
    expect(slugOf("Every door keeps the core's promises")).toBe('every-door-keeps-the-cores-promises');
    expect(slugOf('Recall and the prompt (the LLM pipeline)')).toBe('recall-and-the-prompt-the-llm-pipeline');
    expect([...anchorsOf('# A\n## Same\n## Same\n')]).toEqual(['a', 'same', 'same-1']);
    // Headings with inline code are anchored differently by typedoc: not linkable.
    expect([...anchorsOf('## Scale: `npm run bench:scale`\n')]).toEqual([]);
  });
});

describe('typedoc publishes the guides', () => {
  const config = JSON.parse(read('typedoc.base.json')) as { projectDocuments?: string[]; readme?: string };
  const published = new Set(config.projectDocuments ?? []);

  it('lists every guide in docs/guides (and docs/vocabulary.md) in projectDocuments', () => {
    const guides = readdirSync(join(root, 'docs/guides'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/guides/${name}`);
    const missing = [...guides, 'docs/vocabulary.md'].filter((path) => !published.has(path));
    expect(missing, 'add these to "projectDocuments" in typedoc.base.json').toEqual([]);
  });

  it('lists only files that exist, each with a title for the site', () => {
    for (const path of published) {
      expect(existsSync(join(root, path)), path).toBe(true);
      expect(read(path), `${path} needs front matter with a title`).toMatch(/^---\ntitle: .+\n(?:.*\n)*?---\n/);
    }
  });

  it("links every published guide from the site's landing page", () => {
    const index = read(config.readme ?? 'docs/index.md');
    const unlinked = [...published].filter((path) => !index.includes(`](./${relative('docs', path)}`));
    expect(unlinked).toEqual([]);
  });
});

describe('CONTRIBUTING matches package.json', () => {
  const exportsField = (JSON.parse(read('package.json')) as { exports: Record<string, unknown> }).exports;
  const entryPoints = Object.keys(exportsField)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? 'memoir' : `memoir/${key.slice(2)}`));
  const contributing = read('CONTRIBUTING.md');
  const section = contributing.slice(contributing.indexOf('## Public entry points'));
  const tableImports = tableRows(section.slice(0, section.indexOf('\n## ', 1)))
    .map((row) => /^\|\s*`([^`]+)`/.exec(row)?.[1])
    .filter((name): name is string => name !== undefined);

  it('has one row per entry point in the table of public entry points', () => {
    expect([...tableImports].sort()).toEqual([...entryPoints].sort());
  });

  it('says how many there are', () => {
    const words =
      'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen'.split(
        ' ',
      );
    const count = words[entryPoints.length] ?? String(entryPoints.length);
    expect(section).toMatch(new RegExp(`exports ${count} entry points`));
  });
});
