import type { ImagePart } from '../spec/language-model.js';

/** What the vision model answers when the two screenshots show no meaningful action. */
export const NO_ACTION = 'NONE';

/**
 * The instruction for one pair of consecutive screenshots: name the one thing the user did
 * between them, concretely enough to repeat it, or say that nothing happened.
 */
export const UI_ACTION_SYSTEM = [
  'You watch a screen recording, two frames at a time: the first image is the screen before, the second after.',
  'Say in one short sentence which single user-interface action turns the first screen into the second,',
  'naming the control, its label and where it is, the way someone would write a step to repeat it',
  '(for example "Clicked the green \'New SSH key\' button at the top right", not "Clicked a button").',
  'Typed text counts as one action; quote it unless it looks like a secret.',
  `If nothing the user did changed the screen (only a clock, a cursor blink or an animation moved), answer exactly ${NO_ACTION}.`,
  'Answer with the sentence alone.',
].join(' ');

/** The user turn: the task being looked for, then the two frames. */
export function uiActionMessage(query: string, before: ImagePart, after: ImagePart, atSeconds: number) {
  return {
    role: 'user' as const,
    content: `The user was doing: ${JSON.stringify(query)}. Frames at ${atSeconds.toFixed(1)} s into the clip and the next key frame.`,
    images: [before, after],
  };
}

/** The step in a model's answer, or null for "no action" (any answer that is NONE, however decorated). */
export function stepFromAnswer(answer: string): string | null {
  const text = answer
    .trim()
    .replace(/^["'`]+|["'`]+$/g, '')
    .trim();
  if (!text || /^none\b[.!]?$/i.test(text) || /^\W*none\W*$/i.test(text)) return null;
  // A long, rambling answer is cut to its first sentence: a step is one action.
  const first = text.split(/\n/)[0]!.trim();
  return first.length > 300 ? `${first.slice(0, 297)}…` : first;
}
