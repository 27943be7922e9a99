import type { ConversationInput } from '../../src/index.js';

/** Sam's four-turn conversation: a preference (dark mode) and an event (a failed deploy, fixed). */
export const samConversation = (extra: Partial<ConversationInput> = {}): ConversationInput => ({
  sessionId: 'session_1',
  messages: [
    { role: 'user', content: 'Hi, I am Sam. I switched all my editors to dark mode.', id: 'm1' },
    { role: 'assistant', content: 'Noted! Dark mode everywhere.', id: 'm2' },
    { role: 'user', content: 'Also the deploy failed yesterday because the disk was full.', id: 'm3' },
    { role: 'assistant', content: 'I cleared the logs and redeployed; it worked.', id: 'm4' },
  ],
  ...extra,
});
