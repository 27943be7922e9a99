/**
 * The public update set for `npm run bench:updates`: facts that change over time, with
 * questions about the current value and about the past. Written for this bench; each case
 * has distractors about other people or topics, several have the stale fact sharing more
 * words with the question than the new one, and some arrive out of order.
 */

import type { UpdateCase } from './case-types.js';

export type { UpdateCase, UpdateFact, UpdateQuestion } from './case-types.js';

export const UPDATE_CASES: UpdateCase[] = [
  // where someone lives
  {
    kind: 'residence',
    facts: [
      { id: 'a', text: 'I live in Berlin, in a small flat near Tempelhof field.', date: '2023-03-01' },
      { id: 'b', text: 'I moved to Lisbon in May for the new job.', date: '2024-05-20' },
      { id: 'x', text: 'My brother Tom lives in Hamburg with his two kids.', date: '2024-01-10', entities: ['Tom'] },
    ],
    questions: [
      { query: 'Which city do I live in?', answer: 'b', stale: 'a' },
      { query: 'Where did I live before moving to Lisbon?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'residence',
    facts: [
      { id: 'a', text: 'Peter: Lives in Vienna, works from home.', date: '2025-11-03', entities: ['Peter'] },
      {
        id: 'b',
        text: 'Peter: Now lives in Lisbon; reminders in Lisbon time.',
        date: '2025-12-04',
        entities: ['Peter'],
      },
      {
        id: 'x',
        text: 'Andy lives in Vienna and visits Peter every summer.',
        date: '2025-06-01',
        entities: ['Andy', 'Peter'],
      },
    ],
    questions: [
      { query: 'where does Peter live now', answer: 'b', stale: 'a' },
      { query: 'where did Peter live before Lisbon', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'residence',
    facts: [
      { id: 'a', text: 'Maria lives in Toronto, close to the lake.', date: '2022-08-01', entities: ['Maria'] },
      { id: 'b', text: 'Maria relocated to Vancouver last month.', date: '2024-02-15', entities: ['Maria'] },
      {
        id: 'x',
        text: 'Maria loves the Toronto lakefront trail for running.',
        date: '2023-05-01',
        entities: ['Maria'],
      },
    ],
    order: ['b', 'x', 'a'],
    questions: [{ query: 'Where does Maria live, Toronto?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'residence',
    facts: [
      { id: 'a', text: 'The user is based in Austin, Texas.', date: '2021-01-05' },
      { id: 'b', text: 'The user no longer lives in Austin; they moved to Denver.', date: '2023-09-09' },
    ],
    questions: [{ query: 'Is the user based in Austin?', answer: 'b', stale: 'a' }],
  },
  // employer and job title
  {
    kind: 'employer',
    facts: [
      { id: 'a', text: 'I work at Google on the Maps team.', date: '2022-02-01' },
      { id: 'b', text: 'I left Google and joined Stripe as a backend engineer.', date: '2024-04-01' },
      { id: 'x', text: 'My friend Dana works at Google Zurich.', date: '2024-06-01', entities: ['Dana'] },
    ],
    questions: [
      { query: 'Where do I work?', answer: 'b', stale: 'a' },
      { query: 'Where did I use to work before Stripe?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'employer',
    facts: [
      { id: 'a', text: 'Sam works for Acme Logistics in the Rotterdam office.', date: '2021-06-01', entities: ['Sam'] },
      { id: 'b', text: 'Sam started a new job at Nordwind Shipping.', date: '2023-11-20', entities: ['Sam'] },
    ],
    questions: [{ query: 'Which company does Sam work for at the Rotterdam office?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'job title',
    facts: [
      { id: 'a', text: 'I work as a junior developer on the payments team.', date: '2022-01-10' },
      { id: 'b', text: 'I was promoted to senior engineer this spring.', date: '2024-04-15' },
    ],
    questions: [{ query: 'What is my job title?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'job title',
    facts: [
      { id: 'a', text: 'Lena is a product designer at Figma.', date: '2022-03-01', entities: ['Lena'] },
      { id: 'b', text: 'Lena became a design director at Figma.', date: '2024-08-01', entities: ['Lena'] },
      { id: 'x', text: 'Lena wants to learn pottery.', date: '2024-09-01', entities: ['Lena'] },
    ],
    questions: [{ query: "What is Lena's role at Figma?", answer: 'b', stale: 'a' }],
  },
  // relationship status
  {
    kind: 'relationship',
    facts: [
      { id: 'a', text: "I'm single and not looking right now.", date: '2022-05-01' },
      { id: 'b', text: 'I got engaged to Priya last weekend!', date: '2024-03-10' },
    ],
    questions: [{ query: 'Am I single?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationship',
    facts: [
      { id: 'a', text: 'Jonas is dating Mira, they met at climbing.', date: '2023-01-01', entities: ['Jonas'] },
      { id: 'b', text: 'Jonas broke up with Mira in October.', date: '2023-10-20', entities: ['Jonas'] },
    ],
    questions: [
      { query: 'Is Jonas dating Mira?', answer: 'b', stale: 'a' },
      { query: 'Who was Jonas dating before the break-up?', answer: 'a', stale: 'b', past: true },
    ],
  },
  // likes and dislikes
  {
    kind: 'preference',
    facts: [
      { id: 'a', text: 'I love spicy food, the hotter the better.', date: '2022-07-01' },
      { id: 'b', text: "I don't like spicy food anymore since the stomach trouble.", date: '2024-07-01' },
      { id: 'x', text: 'I like Thai basil in almost everything.', date: '2024-01-01' },
    ],
    questions: [{ query: 'Do I like spicy food?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'preference',
    facts: [
      { id: 'a', text: 'Kim hates running and prefers swimming.', date: '2021-04-01', entities: ['Kim'] },
      { id: 'b', text: 'Kim loves running now and trains for a half marathon.', date: '2023-04-01', entities: ['Kim'] },
    ],
    questions: [{ query: 'Does Kim hate running?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'preference',
    facts: [
      { id: 'a', text: 'My favourite band is Radiohead.', date: '2020-01-01' },
      { id: 'b', text: 'My favourite band is now Fontaines D.C.', date: '2024-02-01' },
    ],
    questions: [
      { query: 'What is my favourite band?', answer: 'b', stale: 'a' },
      { query: 'What was my favourite band in 2021?', answer: 'a', stale: 'b', past: true },
    ],
  },
  // diet
  {
    kind: 'diet',
    facts: [
      { id: 'a', text: "I'm vegetarian, no meat or fish please.", date: '2021-03-01' },
      { id: 'b', text: 'I started eating meat again after the doctor visit.', date: '2024-01-15' },
    ],
    questions: [{ query: 'Am I vegetarian? Can I have meat?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', text: 'Omar eats everything, no restrictions.', date: '2022-01-01', entities: ['Omar'] },
      { id: 'b', text: 'Omar went vegan in January.', date: '2024-01-05', entities: ['Omar'] },
      { id: 'x', text: 'Omar is allergic to peanuts.', date: '2020-01-05', entities: ['Omar'] },
    ],
    questions: [{ query: "What is Omar's diet?", answer: 'b', stale: 'a' }],
  },
  // owned things
  {
    kind: 'ownership',
    facts: [
      { id: 'a', text: 'I drive a Honda Civic, a red 2015 model.', date: '2019-06-01' },
      { id: 'b', text: 'I bought a Tesla Model 3 and sold the old car.', date: '2024-03-01' },
    ],
    questions: [
      { query: 'What car do I drive?', answer: 'b', stale: 'a' },
      { query: 'What car did I drive before the Tesla?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'ownership',
    facts: [
      { id: 'a', text: 'My phone is an iPhone 12 with a cracked screen.', date: '2021-10-01' },
      { id: 'b', text: 'I got a Pixel 8 last week.', date: '2024-06-01' },
      { id: 'x', text: 'My laptop is a ThinkPad X1.', date: '2023-01-01' },
    ],
    questions: [{ query: 'Which phone do I have, the iPhone?', answer: 'b', stale: 'a' }],
  },
  // amounts
  {
    kind: 'amount',
    facts: [
      { id: 'a', text: 'My monthly rent is 1,800 euros.', date: '2023-01-01' },
      { id: 'b', text: 'Rent update: my rent went up to 1,950 euros from March.', date: '2024-03-01' },
      { id: 'x', text: 'My electricity bill is about 90 euros a month.', date: '2024-02-01' },
    ],
    questions: [
      { query: 'How much is my monthly rent?', answer: 'b', stale: 'a' },
      { query: 'What was my rent in 2023?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'amount',
    facts: [
      { id: 'a', text: "Rita's salary is 62k a year.", date: '2022-01-01', entities: ['Rita'] },
      { id: 'b', text: "Rita's salary was raised to 70k.", date: '2023-07-01', entities: ['Rita'] },
    ],
    questions: [{ query: "What is Rita's yearly salary?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amount',
    facts: [
      { id: 'a', text: 'The Pro plan costs $20 a month.', date: '2023-01-01' },
      { id: 'b', text: 'The Pro plan now costs $25 per month.', date: '2024-09-01' },
      { id: 'x', text: 'The Team plan costs $15 per seat.', date: '2024-09-01' },
    ],
    questions: [{ query: 'How much is the Pro plan a month?', answer: 'b', stale: 'a' }],
  },
  // versions
  {
    kind: 'version',
    facts: [
      { id: 'a', text: 'We are on Postgres 14 in production.', date: '2022-05-01' },
      { id: 'b', text: 'We upgraded Postgres to 16 over the weekend.', date: '2024-05-01' },
    ],
    questions: [{ query: 'Which Postgres version is in production?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'version',
    facts: [
      { id: 'a', text: 'The service runs on Node 18.', date: '2023-01-01' },
      { id: 'b', text: 'We bumped Node to 22 in the Dockerfile.', date: '2024-10-01' },
    ],
    questions: [{ query: 'Which Node version does the service run on?', answer: 'b', stale: 'a' }],
  },
  // schedules
  {
    kind: 'schedule',
    facts: [
      { id: 'a', text: 'The weekly sync is on Tuesdays at 10am.', date: '2024-01-08' },
      { id: 'b', text: 'The weekly sync moved to Wednesdays at 11am.', date: '2024-06-03' },
      { id: 'x', text: 'The design review is on Thursdays at 2pm.', date: '2024-02-01' },
    ],
    questions: [
      { query: 'When is the weekly sync?', answer: 'b', stale: 'a' },
      { query: 'When was the weekly sync before it moved?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'schedule',
    facts: [
      { id: 'a', text: 'Our trip to Japan is from March 3 to March 17.', date: '2024-11-01' },
      { id: 'b', text: 'The trip to Japan is cancelled because of the surgery.', date: '2025-01-20' },
    ],
    questions: [{ query: 'When is our trip to Japan?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'schedule',
    facts: [
      { id: 'a', text: 'My dentist appointment is on May 14 at 9:30.', date: '2024-04-01' },
      { id: 'b', text: 'The dentist appointment was rescheduled to May 21.', date: '2024-05-02' },
    ],
    order: ['b', 'a'],
    questions: [{ query: 'When is my dentist appointment?', answer: 'b', stale: 'a' }],
  },
  // project tools and settings
  {
    kind: 'project tools',
    facts: [
      { id: 'a', text: 'We use jest for the unit tests in the web repo.', date: '2023-02-01' },
      { id: 'b', text: 'We switched from jest to vitest last sprint.', date: '2024-09-15' },
      { id: 'x', text: 'We use Playwright for end-to-end tests.', date: '2024-01-01' },
    ],
    questions: [
      { query: 'Which test runner do we use for unit tests?', answer: 'b', stale: 'a' },
      { query: 'What did we use for unit tests before vitest?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'project tools',
    facts: [
      { id: 'a', text: 'The frontend is bundled with webpack.', date: '2022-01-01' },
      { id: 'b', text: 'We replaced webpack with Vite in the frontend.', date: '2024-03-01' },
    ],
    questions: [{ query: 'What bundles the frontend?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project tools',
    facts: [
      { id: 'a', text: 'Our package manager is yarn.', date: '2021-01-01' },
      { id: 'b', text: 'We migrated from yarn to pnpm.', date: '2024-02-01' },
    ],
    questions: [{ query: 'Which package manager do we use, yarn?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'setting',
    facts: [
      { id: 'a', text: 'The API base URL is https://api.example.com/v1.', date: '2023-01-01' },
      { id: 'b', text: 'The API base URL is now https://api.example.com/v2.', date: '2024-08-01' },
      { id: 'x', text: 'The staging URL is https://staging.example.com.', date: '2024-01-01' },
    ],
    questions: [{ query: 'What is the API base URL?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'setting',
    facts: [
      { id: 'a', text: 'My email is sam.old@example.org for all invoices.', date: '2022-01-01' },
      { id: 'b', text: 'My email is now sam@newmail.example.', date: '2024-01-01' },
    ],
    questions: [{ query: 'What is my email for invoices?', answer: 'b', stale: 'a' }],
  },
  // explicit corrections
  {
    kind: 'correction',
    facts: [
      { id: 'a', text: 'The launch is on May 3.', date: '2024-04-01' },
      { id: 'b', text: 'I misspoke: the launch is on May 5, not May 3.', date: '2024-04-02' },
    ],
    questions: [{ query: 'When is the launch, May 3?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'correction',
    facts: [
      { id: 'a', text: 'My rent is 1,500 euros.', date: '2024-02-01' },
      { id: 'b', text: 'Actually, my rent is 1,550 euros, not 1,500.', date: '2024-02-01' },
    ],
    questions: [{ query: 'How much rent do I pay, 1,500 euros?', answer: 'b', stale: 'a' }],
  },
];

/** Facts about other people and topics, retained beside every case. */
export const DISTRACTORS: string[] = [
  'Alex lives in Madrid and works at a bakery.',
  'Jamie moved to Oslo for a research position.',
  'The office coffee machine is broken again.',
  'Chris prefers tea over coffee in the morning.',
  'The quarterly report is due on Friday.',
  'Nina drives a Volvo XC60.',
  'The Berlin team uses pnpm and Vite.',
  'Marco is married to Giulia.',
  'Our old office was in Kreuzberg.',
  'The cat needs her vaccination in June.',
  'Tim earns about 55k a year as a teacher.',
  'The release train leaves every second Monday.',
  'Ana is vegetarian and loves cooking lentils.',
  'The mobile app uses React Native.',
  'Grandma lives in Porto and likes gardening.',
  'The budget for the offsite is 5,000 euros.',
  'Lisbon has great pastries, especially pastel de nata.',
  'Vienna is known for its coffee houses.',
  'The gym membership costs 40 euros a month.',
  'Rent prices in Berlin rose sharply last year.',
];
