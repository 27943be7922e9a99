// A LangGraph.js graph whose long-term memory is memoir: MemoirStore is the graph's store, so
// what a node puts under ["users", id, "memories"] is a memoir memory of that user — ranked by
// memoir's recall, kept in a SQLite file, and never shown to another user.
//
//   npm run example:langgraph        # offline: a fake chat model from @langchain/core
//
// It needs the optional peers (npm install @langchain/langgraph @langchain/core). In your
// project, import from 'memoir' and 'memoir/langgraph' instead of '../src/…'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import {
  getStore,
  type LangGraphRunnableConfig,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { createMemory, formatContext } from '../src/index.js';
import { MemoirStore } from '../src/integrations/langgraph/index.js';

const home = mkdtempSync(join(tmpdir(), 'memoir-langgraph-')); // a throwaway home for this demo
const memory = createMemory({ home });
const store = new MemoirStore({ memory });
// Offline stand-in for a chat model: it replies with these, in turn (the prompts it gets are printed).
const model = new FakeListChatModel({
  responses: [
    'Noted.',
    'Noted.',
    'You told me you are allergic to peanuts.',
    'You told me you are allergic to shellfish.',
  ],
});

const lastHuman = (messages: BaseMessage[]) =>
  String([...messages].reverse().find((message) => message instanceof HumanMessage)?.content ?? '');

const graph = new StateGraph(MessagesAnnotation)
  // Recall: search this user's memories for the message, and answer with them in the prompt.
  .addNode('respond', async (state, config: LangGraphRunnableConfig) => {
    const userId = String(config.configurable?.userId);
    const found = await config.store!.search(['users', userId, 'memories'], { query: lastHuman(state.messages) });
    const known = found.filter((item) => item.score !== undefined).map((item) => `- ${String(item.value.text)}`);
    const system = new SystemMessage(`What you remember about this user:\n${known.join('\n') || '(nothing yet)'}`);
    console.log(`  [${userId}] prompt: ${system.content.toString().replaceAll('\n', ' ')}`);
    return { messages: [await model.invoke([system, ...state.messages])] };
  })
  // Capture: keep what the user asked to be remembered (getStore() is the same store).
  .addNode('remember', async (state, config: LangGraphRunnableConfig) => {
    const text = lastHuman(state.messages);
    if (text.startsWith('Remember: ')) {
      const userId = String(config.configurable?.userId);
      await getStore()!.put(['users', userId, 'memories'], `note-${Date.now()}`, { text: text.slice(10) });
    }
    return {};
  })
  .addEdge(START, 'respond')
  .addEdge('respond', 'remember')
  .compile({ store, checkpointer: new MemorySaver() });

async function say(userId: string, threadId: string, text: string): Promise<void> {
  console.log(`${userId} (thread ${threadId}): ${text}`);
  const { messages } = await graph.invoke(
    { messages: [new HumanMessage(text)] },
    { configurable: { userId, thread_id: threadId } },
  );
  console.log(`  assistant: ${String(messages.at(-1)?.content)}`);
}

await say('alice', 'monday', 'Remember: I am allergic to peanuts.');
await say('bob', 'monday', 'Remember: I am allergic to shellfish.');
// New threads: nothing of Monday's conversation is in them, only what the store kept.
await say('alice', 'friday', 'Am I allergic to anything?');
await say('bob', 'friday', 'Am I allergic to anything?');

// The same items, as memoir sees them: alice's client recalls her memory, with a citation.
const alice = createMemory({ home, scope: { userId: 'alice' } });
console.log(`\nmemoir recall for alice:\n${formatContext(await alice.recall('what am I allergic to?', { k: 3 }))}`);
console.log(`namespaces: ${JSON.stringify(await store.listNamespaces())}`);

await alice.close();
await memory.close();
rmSync(home, { recursive: true, force: true });
