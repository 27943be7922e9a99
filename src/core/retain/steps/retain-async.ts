import { isConversationInput } from '../../conversation/conversation-input.js';
import { parseInput } from '../../utils/validate.js';
import { retainOptionsSchema } from '../retain-options.js';
import { parseRetainInputs } from './parse-retain-input.js';
import { parseConversation } from './retain.js';
import type { RetainContext } from './retain-context.js';

/**
 * `retainAsync`: validate now (a caller's mistake should surface at the call, not as an event
 * later), then queue `run` in the background.
 */
export function retainAsync(
  ctx: RetainContext,
  input: unknown,
  retainOptions: unknown,
  run: () => Promise<unknown>,
): void {
  const { engine } = ctx;
  engine.assertOpen('retainAsync');
  if (isConversationInput(input)) parseConversation(engine, input, 'retainAsync');
  else {
    parseRetainInputs(input, engine.scope);
    parseInput(retainOptionsSchema, retainOptions ?? {}, 'retainAsync', 'options');
  }
  engine.background(
    'retain',
    async () => {
      await run();
    },
    input,
  );
}
