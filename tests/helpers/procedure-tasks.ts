import type { TaskTrace } from '../../src/core/procedures/procedure-inputs.js';
import { createMemory, type GenerateRequest, type MemoryClient, type MemoryOptions } from '../../src/index.js';
import { createFixedClock, createScriptedLanguageModel, type ScriptedLanguageModel } from '../../src/testing/index.js';
import { T0 } from './clients.js';

// What the procedure tests share: a deployment-investigation task like the seed's, the
// procedure a reflection model would write for it, and a scripted model that answers the
// reflection and merge prompts by looking at which one it was sent.

/** The seed's complex task: four tools, narration, a final answer. */
export const DEPLOY_TASK: TaskTrace = {
  request: 'why did the deploys fail this week?',
  toolCalls: [
    { name: 'slack_search', input: { channel: '#scout-releases', days: 7 }, output: '3 failure messages' },
    { name: 'jira_search', input: { project: 'SCOUT', status: 'Failed' }, output: '2 tickets' },
    { name: 'github_prs', input: { repo: 'scout-api', mergedSince: '7d' }, output: '14 PRs' },
    { name: 'summarize', input: { groupBy: 'root cause' } },
  ],
  narration: ['The deploy bot posts to #scout-releases first.', 'Searching all of GitHub was too noisy.'],
  response: '3 deployments failed in the last 7 days, 2 from the same migration.',
};

/** The procedure the scripted model writes for {@link DEPLOY_TASK}. */
export const DEPLOY_PROCEDURE = {
  title: 'Investigate deployment failures',
  triggerExamples: ['why did deploys fail', 'investigate deployment failures', 'what is wrong with the deploys'],
  steps: [
    'Check the #scout-releases Slack channel for recent deployment messages',
    'Search the Jira SCOUT project for failed deployment tickets',
    'Cross-reference with GitHub PR merge times',
    'Look for patterns: same service, same time, same author',
  ],
  whatWorks: ['Always check Slack first: the deployment bot posts there immediately'],
  whatDoesNotWork: ["Don't search all of GitHub: too noisy"],
  outputFormat:
    'Lead with "X deployments failed in the last Y days", group by root cause, end with recommended actions.',
};

/** True for the reflection prompt, false for the merge prompt. */
export const isReflection = (request: GenerateRequest): boolean =>
  request.system?.startsWith('You turn a finished agent task') === true;

/**
 * A model that answers every reflection with `reflection(request)` (default: the deploy
 * procedure) and every merge with the union the prompt shows plus `mergeTip`.
 */
export function procedureModel(
  reflection: (request: GenerateRequest) => object | string = () => DEPLOY_PROCEDURE,
): ScriptedLanguageModel {
  return createScriptedLanguageModel((request) => {
    if (isReflection(request)) {
      const answer = reflection(request);
      return typeof answer === 'string' ? answer : JSON.stringify(answer);
    }
    const content = request.messages.at(-1)?.content ?? '';
    const existing = JSON.parse(
      /<existing>\n([\s\S]*?)\n<\/existing>/
        .exec(content)![1]!
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
    return JSON.stringify({
      ...existing,
      whatWorks: [...existing.whatWorks, 'Merged: check the deploy dashboard too'],
    });
  });
}

/** A line a logger received. */
export interface LoggedLine {
  level: string;
  message: string;
}

/** A logger that keeps every line, for the seed's "check logs" steps. */
export function recordingLogger(): { log(level: string, message: string): void; lines: LoggedLine[] } {
  const lines: LoggedLine[] = [];
  return { lines, log: (level, message) => void lines.push({ level, message }) };
}

/** A client over the default SQLite store in `home`, with a fixed clock and the given model. */
export function clientIn(home: string, options: MemoryOptions = {}): MemoryClient {
  return createMemory({ home, clock: createFixedClock(T0), logger: { log() {} }, ...options });
}
