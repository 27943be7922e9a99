// An agent loop with long-term memory: recall what is relevant to the user's message, put it
// into the system prompt with formatContext, call the model, and retain the conversation.
// The second session remembers what the first one was told.
//
//   npx tsx examples/agent-loop.ts                                   # offline, scripted model
//   OPENAI_API_KEY=sk-… npx tsx examples/agent-loop.ts               # OpenAI (npm install openai)
//   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 MEMOIR_CHAT_MODEL=llama3.1 npx tsx examples/agent-loop.ts
//
// Without OPENAI_API_KEY or OPENAI_BASE_URL a scripted model from memoir/testing answers,
// so it runs anywhere with no network. With a real model, memoir also uses it to extract
// facts from each conversation. In your project, import from 'memoir', 'memoir/openai' and
// 'memoir/testing' instead of '../src/…'.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIChatModel } from '../src/adapters/openai/index.js';
import { createMemory, type LanguageModel, type ModelMessage } from '../src/index.js';
import { createScriptedLanguageModel } from '../src/testing/index.js';

const online = Boolean(process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL);

// Offline stand-in: it answers from the memories it finds in the system prompt.
const offlineModel = createScriptedLanguageModel(({ system }) => {
  const recalled = [...(system ?? '').matchAll(/<memory [^>]*>\n([^\n]*)/g)].map((match) => match[1]);
  return recalled.length > 0 ? `From memory: ${recalled.join(' | ')}` : 'Noted.';
});
const model: LanguageModel = online ? createOpenAIChatModel({ model: process.env.MEMOIR_CHAT_MODEL }) : offlineModel;

const memory = createMemory({
  home: mkdtempSync(join(tmpdir(), 'memoir-agent-loop-')), // a throwaway store for this demo
  scope: { userId: 'sam' }, // one client per user: the scope is a tenant boundary
  ...(online ? { languageModel: model } : {}),
});

// One session of the agent: each user message gets the memories relevant to it.
async function chat(sessionId: string, userMessages: string[]): Promise<void> {
  const messages: ModelMessage[] = [];
  for (const content of userMessages) {
    // ── the loop ──────────────────────────────────────────────────────────────────────────
    const recalled = await memory.recall(content, { k: 5, tokenBudget: 800 });
    const system = `You are a concise assistant.\n\n${memory.formatContext(recalled)}`;
    messages.push({ role: 'user', content });
    const { text } = await model.generate({ system, messages });
    messages.push({ role: 'assistant', content: text });
    // ──────────────────────────────────────────────────────────────────────────────────────
    console.log(`user: ${content}\nagent: ${text}\n`);
  }
  // Learn from the finished session: facts with a model, the transcript as an episode always.
  await memory.retain({ messages, sessionId });
}

try {
  await chat('session_1', ['Hi! My name is Sam and I live in Porto.', 'I like short answers with bullet points.']);
  await chat('session_2', ['Where do I live?']);
} finally {
  await memory.close();
}
