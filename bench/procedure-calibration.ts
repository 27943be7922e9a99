import { embeddedTexts } from '../src/core/procedures/procedure-index.js';
import { cosineSimilarity } from '../src/core/search/vector-math.js';
import type { Embedder } from '../src/index.js';

// Task families for calibrating the procedure thresholds (bench/procedures.ts). Each family
// has the title and trigger examples a reflection model would write for a first task, a second
// draft of the same kind of task worded differently (what a later reflection would write:
// the update case), and requests a user might send later, paraphrased so that some share
// almost no word with the procedure. Written for this bench; no benchmark data set is used.

/** One kind of task. */
export interface TaskFamily {
  /** What a first reflection writes. */
  procedure: { title: string; triggerExamples: string[] };
  /** What a reflection on a later task of the same kind writes. */
  redraft: { title: string; triggerExamples: string[] };
  /** Later requests of the same kind. */
  requests: string[];
}

export const TASK_FAMILIES: TaskFamily[] = [
  {
    procedure: {
      title: 'Investigate deployment failures',
      triggerExamples: ['why did deploys fail', 'investigate deployment issues', "what's wrong with CI/CD"],
    },
    redraft: {
      title: 'Find why deployments failed',
      triggerExamples: ['why did the deploy fail yesterday', 'check failed deployments', 'deploy pipeline broken'],
    },
    requests: [
      'why did the deploys fail this week?',
      'can you look into the failed deployments from last night',
      'the release pipeline keeps breaking, what happened?',
      'figure out what went wrong with CI today',
    ],
  },
  {
    procedure: {
      title: 'Reconcile unpaid invoices',
      triggerExamples: ['which invoices are unpaid', 'find overdue invoices', 'reconcile invoices with payments'],
    },
    redraft: {
      title: 'Match invoices against payments received',
      triggerExamples: ['which customers have not paid', 'list overdue invoices', 'reconcile the payments'],
    },
    requests: [
      'which invoices from October are still unpaid?',
      'who owes us money right now',
      'match last month payments to the open invoices',
      'list the overdue invoices for Acme',
    ],
  },
  {
    procedure: {
      title: 'Prepare the weekly team status report',
      triggerExamples: ['write the weekly status report', 'summarize what the team did this week', 'weekly update'],
    },
    redraft: {
      title: 'Write the team weekly summary',
      triggerExamples: ['weekly summary for the team', 'status report for this week', 'what did we ship this week'],
    },
    requests: [
      'draft this week status update for the team',
      'put together the weekly report',
      'what did everyone work on this week? write it up',
      'summarise the sprint progress for Friday',
    ],
  },
  {
    procedure: {
      title: 'Triage a production incident',
      triggerExamples: ['the site is down', 'triage the outage', 'production errors are spiking'],
    },
    redraft: {
      title: 'Handle a production outage',
      triggerExamples: ['prod is down what do we do', 'error rate spike in production', 'start incident response'],
    },
    requests: [
      'the website is returning 500 errors, help',
      'error rates in prod just spiked',
      'we have an outage on the checkout service',
      'investigate the alert from PagerDuty about the api',
    ],
  },
  {
    procedure: {
      title: 'Plan a business trip',
      triggerExamples: ['book a trip to Berlin', 'plan travel for the conference', 'find flights and a hotel'],
    },
    redraft: {
      title: 'Organise travel for a conference',
      triggerExamples: ['book flights for the summit', 'arrange hotel and flights', 'travel plans for next week'],
    },
    requests: [
      'I need to be in Lisbon on Tuesday for a meeting, sort out travel',
      'book me flights and a hotel for the London conference',
      'plan my trip to the offsite in Madrid',
      'find a hotel near the venue in Berlin',
    ],
  },
  {
    procedure: {
      title: 'Review a pull request',
      triggerExamples: ['review this PR', 'check the pull request for bugs', 'code review'],
    },
    redraft: {
      title: 'Do a code review of a pull request',
      triggerExamples: ['look over PR 142', 'review the changes in this branch', 'give feedback on the diff'],
    },
    requests: [
      'can you review PR 381 in the api repo',
      'look over my changes before I merge',
      'check this diff for problems',
      'give me feedback on the pull request from Sam',
    ],
  },
  {
    procedure: {
      title: 'Onboard a new employee',
      triggerExamples: ['set up accounts for the new hire', 'onboard a new team member', 'new starter checklist'],
    },
    redraft: {
      title: 'Set up a new hire',
      triggerExamples: ['new hire starting Monday', 'create accounts for a new employee', 'onboarding checklist'],
    },
    requests: [
      'Maria starts on Monday, get her set up',
      'create the accounts for our new engineer',
      'run the onboarding for the new designer',
      'what do we need to do before the new hire arrives',
    ],
  },
  {
    procedure: {
      title: 'Analyse churned customers',
      triggerExamples: ['why are customers churning', 'analyse churn', 'which customers cancelled'],
    },
    redraft: {
      title: 'Find the reasons customers cancel',
      triggerExamples: [
        'churn analysis for last quarter',
        'customers who cancelled subscriptions',
        'why do users leave',
      ],
    },
    requests: [
      'why did so many customers cancel last month?',
      'look into subscription cancellations in Q3',
      'which accounts left us and why',
      'analyse the churn numbers',
    ],
  },
];

/** Similarities of one kind of pair: same kind of task (should match) and other kinds (should not). */
export interface PairScores {
  /** Same kind of task. */
  positives: number[];
  /** Other kinds. */
  negatives: number[];
}

/** What {@link measureProcedureSimilarities} found. */
export interface ProcedureMeasurement {
  /** Request against stored procedure, scored as `findRelevant` scores it. */
  retrieval: PairScores & { top1: number; total: number };
  /** New draft against stored procedure, scored as `learn` decides between update and create. */
  update: PairScores;
}

/** Score every request and redraft of {@link TASK_FAMILIES} against every stored procedure. */
export async function measureProcedureSimilarities(embedder: Embedder): Promise<ProcedureMeasurement> {
  const embed = (texts: string[]) => embedder.embed(texts);
  const stored = await Promise.all(TASK_FAMILIES.map((family) => embed(embeddedTexts(family.procedure))));
  const retrieval = { positives: [] as number[], negatives: [] as number[], top1: 0, total: 0 };
  const update: PairScores = { positives: [], negatives: [] };
  for (const [index, family] of TASK_FAMILIES.entries()) {
    for (const request of await embed(family.requests)) {
      const scores = stored.map((vectors) => Math.max(...vectors.map((vector) => cosineSimilarity(request, vector))));
      retrieval.total += 1;
      if (scores.indexOf(Math.max(...scores)) === index) retrieval.top1 += 1;
      for (const [other, score] of scores.entries()) {
        (other === index ? retrieval.positives : retrieval.negatives).push(score);
      }
    }
    const [redraft] = await embed(embeddedTexts(family.redraft).slice(0, 1));
    for (const [other, vectors] of stored.entries()) {
      (other === index ? update.positives : update.negatives).push(cosineSimilarity(redraft!, vectors[0]!));
    }
  }
  return { retrieval, update };
}
