import { type BaseMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import {
  Annotation,
  type BaseStore,
  END,
  getStore,
  type LangGraphRunnableConfig,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
} from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { memoirStores, referenceStore, type StoreMaker } from './langgraph-stores.js';

// A real compiled StateGraph whose nodes read and write long-term memory through the store
// LangGraph hands them (`config.store` in one node, `getStore()` in another), with a fake chat
// model from @langchain/core standing in for the LLM. Two users, several threads each: a thread
// remembers nothing of another (the checkpointer keeps threads apart), so whatever crosses
// threads crossed through the store — and a user never gets another user's memories.

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** What the recall node found for this turn. */
  recalled: Annotation<string[]>({ reducer: (_previous, next) => next, default: () => [] }),
});

const lastHuman = (messages: BaseMessage[]) =>
  String([...messages].reverse().find((message) => message instanceof HumanMessage)?.content ?? '');

const userOf = (config: LangGraphRunnableConfig) => String(config.configurable?.userId);

/** The graph, with a record of the prompts the model was given. */
function buildGraph(store: BaseStore) {
  const prompts: string[][] = [];
  const model = new FakeListChatModel({ responses: ['Noted.', 'Here is what I know.'] });
  const graph = new StateGraph(State)
    .addNode('recall', async (state: typeof State.State, config: LangGraphRunnableConfig) => {
      const found = await config.store!.search(['users', userOf(config), 'memories'], {
        query: lastHuman(state.messages),
        limit: 3,
      });
      return { recalled: found.filter((item) => item.score !== undefined).map((item) => String(item.value.text)) };
    })
    .addNode('respond', async (state: typeof State.State) => {
      const system = new SystemMessage(
        `What you remember about the user:\n${state.recalled.join('\n') || '(nothing)'}`,
      );
      const reply = await model.invoke([system, ...state.messages], {
        callbacks: [
          {
            handleChatModelStart: (_model, batches) => {
              prompts.push(batches[0]!.map((message) => String(message.content)));
            },
          },
        ],
      });
      return { messages: [reply] };
    })
    .addNode('remember', async (state: typeof State.State, config: LangGraphRunnableConfig) => {
      const text = lastHuman(state.messages);
      if (!text.startsWith('Remember: ')) return {};
      await getStore()!.put(
        ['users', userOf(config), 'memories'],
        `${config.configurable?.thread_id}-${state.messages.length}`,
        { text: text.slice('Remember: '.length) },
      );
      return {};
    })
    .addEdge(START, 'recall')
    .addEdge('recall', 'respond')
    .addEdge('respond', 'remember')
    .addEdge('remember', END)
    .compile({ store, checkpointer: new MemorySaver() });
  const say = (userId: string, threadId: string, text: string) =>
    graph.invoke({ messages: [new HumanMessage(text)] }, { configurable: { userId, thread_id: threadId } });
  return { graph, prompts, say };
}

const STORES_UNDER_TEST: Array<[string, StoreMaker]> = [referenceStore, ...memoirStores()];

describe.each(STORES_UNDER_TEST)('a compiled StateGraph with %s', (name, make) => {
  it('remembers across threads for one user, and never shows a user another’s memories', async () => {
    const { store } = make();
    const { prompts, say } = buildGraph(store);

    await say('alice', 'alice-1', 'Remember: I am allergic to peanuts.');
    await say('bob', 'bob-1', 'Remember: I am allergic to shellfish.');
    const aliceLater = await say('alice', 'alice-2', 'Am I allergic to anything?');
    const bobLater = await say('bob', 'bob-2', 'Am I allergic to anything?');

    // Threads are separate: the second thread's state holds only its own turn.
    expect(aliceLater.messages.map((message: BaseMessage) => message.getType())).toEqual(['human', 'ai']);
    expect(String(aliceLater.messages[0]!.content)).toBe('Am I allergic to anything?');
    // What crossed threads came from the store, each user's own only.
    expect(aliceLater.recalled).toEqual(['I am allergic to peanuts.']);
    expect(bobLater.recalled).toEqual(['I am allergic to shellfish.']);
    const [, , alicePrompt, bobPrompt] = prompts;
    expect(alicePrompt![0]).toContain('allergic to peanuts');
    expect(alicePrompt![0]).not.toContain('shellfish');
    expect(bobPrompt![0]).toContain('allergic to shellfish');
    expect(bobPrompt![0]).not.toContain('peanuts');

    // The store holds what the nodes wrote, under each user's namespace.
    expect(await store.listNamespaces({ prefix: ['users'] })).toEqual([
      ['users', 'alice', 'memories'],
      ['users', 'bob', 'memories'],
    ]);
    expect((await store.search(['users', 'bob'])).map((item) => item.value.text)).toEqual([
      'I am allergic to shellfish.',
    ]);
    expect(name).toBeTruthy();
  });

  it('the same thread continues with its own history, and a new memory reaches the next thread', async () => {
    const { store } = make();
    const { say } = buildGraph(store);
    await say('alice', 'a', 'Remember: My sister is called Nora.');
    const same = await say('alice', 'a', 'Remember: Nora lives in Lisbon.');
    expect(same.messages).toHaveLength(4);
    const next = await say('alice', 'b', 'Where does Nora live?');
    expect(next.recalled[0]).toBe('Nora lives in Lisbon.');
  });
});
