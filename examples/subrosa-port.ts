// Subrosa v3 on memoir: procedural memory. After a task that used several tools, the agent
// reflects in the background and saves a reusable procedure as a Markdown file; on a similar
// request the best-matching procedure goes into the prompt; a simple request is not reflected on.
//
//   npm run example:subrosa                                                # offline, scripted model
//   OPENAI_API_KEY=sk-… npm run example:subrosa                            # OpenAI (npm install openai)
//   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 MEMOIR_CHAT_MODEL=llama3.1 npm run example:subrosa
//
// The tools are stand-ins that return canned data; the model (scripted offline, real online)
// writes the agent's answers, the reflection and the merge. MEMOIR_PROCEDURES_REFLECTION_MODEL
// names a separate (cheaper) model for reflections, as Subrosa uses Haiku. In your project,
// import from 'memoir', 'memoir/openai' and 'memoir/testing' instead of '../src/…'.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAIChatModel } from '../src/adapters/openai/index.js';
import { createMemory, type LanguageModel, loadConfig } from '../src/index.js';
import { createScriptedLanguageModel } from '../src/testing/index.js';

type Tool = (input: Record<string, unknown>) => string;
const TOOLS: Record<string, Tool> = {
  slack_search: ({ channel }) => `${channel}: deploybot reported 3 failed deploys (scout-api ×2, billing ×1)`,
  jira_search: ({ project }) =>
    `${project}-412 "migration 0042 fails on deploy", ${project}-415 "billing healthcheck timeout"`,
  github_prs: ({ repo }) => `${repo}: 14 PRs merged in 7 days; #881 added migration 0042`,
  summarize: () => 'grouped by root cause: migration order (2), healthcheck timeout (1)',
  clock: ({ city }) => `${city}: 14:05`,
};

// A task is a request and the tools the agent ends up calling (a real agent's model picks them).
interface Task {
  request: string;
  plan: Array<{ name: string; input: Record<string, unknown> }>;
}

const online = Boolean(process.env.OPENAI_API_KEY || process.env.OPENAI_BASE_URL);
const { config } = loadConfig();

// Offline stand-in for every model call: the agent's answer, the reflection and the merge.
const offline = createScriptedLanguageModel(({ system, messages }) => {
  const last = messages.at(-1)?.content ?? '';
  if (system?.startsWith('You turn a finished agent task')) {
    return JSON.stringify({
      title: 'Investigate deployment failures',
      triggerExamples: ['why did deploys fail', 'investigate deployment issues', "what's wrong with CI/CD"],
      steps: [
        'Check the #scout-releases Slack channel for recent deployment messages',
        'Search the Jira SCOUT project for failed deployment tickets',
        'Cross-reference with GitHub PR merge times',
        'Group the failures by root cause',
      ],
      whatWorks: ['Always check Slack first: the deployment bot posts there immediately'],
      whatDoesNotWork: ["Don't search all of GitHub: too noisy. Start with the service mentioned."],
      outputFormat:
        'Lead with "X deployments failed in the last Y days", group by root cause, end with recommended actions.',
    });
  }
  if (system?.startsWith('You maintain a library of procedures')) {
    const existing = /<existing>\n([\s\S]*?)\n<\/existing>/.exec(last)?.[1] ?? '{}';
    return existing.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  }
  const followed = /<procedure [^>]*title="([^"]+)"/.exec(system ?? '')?.[1];
  return followed
    ? `Following the procedure "${followed}": 3 deployments failed in the last 7 days, 2 from migration 0042.`
    : 'Done.';
});

function onlineModel(name: string | undefined): LanguageModel {
  return createOpenAIChatModel(name ? { model: name } : {});
}
const agentModel: LanguageModel = online ? onlineModel(process.env.MEMOIR_CHAT_MODEL) : offline;
const reflectionName = config.proceduresReflectionModel ?? undefined;

const memory = createMemory({
  home: mkdtempSync(join(tmpdir(), 'memoir-subrosa-')), // a throwaway home for this demo
  languageModel: agentModel,
  procedures: online && reflectionName ? { reflectionModel: onlineModel(reflectionName) } : {},
  // Show what Subrosa's logs show: created, updated and injected procedures.
  logger: {
    log: (level, message) => level !== 'debug' && /procedure/i.test(message) && console.log(`  [log] ${message}`),
  },
});

async function runTask(task: Task): Promise<void> {
  console.log(`\nuser: ${task.request}`);
  // 1. Similar procedures go into the prompt (the seed's "Relevant Procedures" section).
  const found = await memory.procedures.findRelevant(task.request);
  const system = [
    'You are Subrosa, an assistant with tools. When procedures are given, follow them (or adapt them).',
    found.length > 0 ? memory.procedures.formatProcedures(found) : '',
  ].join('\n\n');
  // 2. The agent works: tool calls, narration, a final answer.
  const toolCalls = task.plan.map(({ name, input }) => ({ name, input, output: TOOLS[name]!(input) }));
  const narration = toolCalls.map((call) => `Called ${call.name}: ${call.output}`);
  const { text: response } = await agentModel.generate({
    system,
    messages: [{ role: 'user', content: `${task.request}\n\nTool results:\n${narration.join('\n')}` }],
  });
  console.log(`subrosa: ${response}`);
  // 3. Usage tracking for the procedures it was given, then reflection (in the background).
  for (const { procedure } of found) await memory.procedures.recordUse(procedure.id, { success: true });
  const learned = await memory.procedures.learn({ request: task.request, toolCalls, narration, response });
  console.log(learned.scheduled ? '  (reflecting in the background)' : `  (no reflection: ${learned.reason})`);
  await memory.flush();
}

const deployPlan: Task['plan'] = [
  { name: 'slack_search', input: { channel: '#scout-releases', days: 7 } },
  { name: 'jira_search', input: { project: 'SCOUT', status: 'Failed' } },
  { name: 'github_prs', input: { repo: 'scout-api', mergedSince: '7d' } },
  { name: 'summarize', input: { groupBy: 'root cause' } },
];

await runTask({ request: 'why did the deploys fail this week?', plan: deployPlan });
const [procedure] = await memory.procedures.list();
if (procedure) {
  console.log(`\n${join(memory.procedures.directory(), `${procedure.id}.md`)}:\n`);
  console.log(readFileSync(join(memory.procedures.directory(), `${procedure.id}.md`), 'utf8'));
}
await runTask({ request: 'investigate the deployment failures from last night', plan: deployPlan });
await runTask({ request: 'what time is it in Lisbon?', plan: [{ name: 'clock', input: { city: 'Lisbon' } }] });

console.log(
  `\nprocedures: ${(await memory.procedures.list()).map((p) => `${p.id} (used ${p.successCount}×)`).join(', ')}`,
);
await memory.close();
