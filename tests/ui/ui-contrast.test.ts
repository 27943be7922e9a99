import { describe, expect, it } from 'vitest';
import { UI_CSS } from '../../src/integrations/ui/ui-assets.js';

// The view's colours, read from its own stylesheet, in the light and the dark scheme: every
// pair of text and the background it sits on reaches WCAG AA for body text (4.5:1).

function variables(block: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of block.matchAll(/--([a-z-]+):\s*(#[0-9a-f]{6})/gi)) found.set(match[1]!, match[2]!);
  return found;
}

function luminance(hex: string): number {
  const channel = (at: number) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

// Text colour, then the backgrounds it is drawn on.
const PAIRS: Array<[string, string[]]> = [
  ['fg', ['page', 'surface', 'raised']],
  ['muted', ['page', 'surface', 'raised']],
  ['accent', ['page', 'surface', 'raised', 'accent-soft']],
  ['accent-fg', ['accent']],
  ['bad', ['surface', 'bad-soft']],
  ['ok', ['surface']],
  ['agent', ['agent-soft']],
  ['ns', ['ns-soft']],
];

describe('the web view’s colours', () => {
  const dark = /@media \(prefers-color-scheme: dark\)\s*\{\s*:root\s*\{([^}]*)\}/.exec(UI_CSS)?.[1];
  const light = /:root\s*\{([^}]*)\}/.exec(UI_CSS)?.[1];

  it.each([
    ['light', light],
    ['dark', dark],
  ])('reach 4.5:1 for text on its background (%s scheme)', (_scheme, block) => {
    expect(block, 'the scheme declares its colours').toBeTruthy();
    const colours = variables(block!);
    for (const [text, backgrounds] of PAIRS) {
      for (const background of backgrounds) {
        const [fore, back] = [colours.get(text), colours.get(background)];
        expect(fore && back, `--${text} and --${background} are declared`).toBeTruthy();
        expect(contrast(fore!, back!), `--${text} on --${background}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});
