import type { UpdateCase } from './case-types.js';

/**
 * DEV half of the `bench:updates` set: facts that change over time, written by hand without
 * reference to the library's rules. Twelve kinds, about fourteen cases each.
 */
export const CASES: UpdateCase[] = [
  // ───────────────────────────── moves ─────────────────────────────
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2021-03-10',
        slot: 'priya/residence',
        entities: ['Priya'],
        text: 'Priya moved from Leeds to Manchester, into a flat above a bike shop in the Northern Quarter.',
      },
      {
        id: 'b',
        date: '2023-08-02',
        slot: 'priya/residence',
        entities: ['Priya'],
        text: "Priya packed up again — she's in Glasgow now, sharing a tenement flat with two friends from uni.",
      },
    ],
    questions: [
      { query: 'Where does Priya live?', answer: 'b', stale: 'a' },
      { query: 'Which city was Priya living in before Glasgow?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2020-06-15',
        slot: 'me/residence',
        text: 'I live in a small apartment in Lisbon, up in the Alfama district.',
      },
      {
        id: 'x',
        date: '2023-05-05',
        slot: 'rui/residence',
        entities: ['Rui'],
        text: 'My brother Rui lives in Lisbon too, near the river in Belém.',
      },
      {
        id: 'b',
        date: '2024-01-20',
        slot: 'me/residence',
        text: 'We finally moved out of Lisbon. Home is Porto these days, five minutes from the Bolhão market.',
      },
    ],
    questions: [
      { query: 'where do i live', answer: 'b', stale: 'a' },
      { query: 'Where do I live?', answer: 'a', stale: 'b', past: true, asOf: '2022-03-01' },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2019-09-01',
        slot: 'marcus/residence',
        entities: ['Marcus Chen'],
        text: 'Marcus Chen rents a house in Austin, Texas with a huge backyard.',
      },
      {
        id: 'b',
        date: '2022-04-11',
        slot: 'marcus/residence',
        text: 'Marcus moved again, to Denver — he says the mountains won him over.',
      },
    ],
    questions: [{ query: 'What city is Marcus Chen based in?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'moves',
    facts: [
      { id: 'a', date: '2020-02-01', slot: 'sister/residence', text: 'My sister lives in Toronto with her two cats.' },
      {
        id: 'x',
        date: '2021-07-19',
        slot: 'cousin/residence',
        entities: ['Dev'],
        text: 'My cousin Dev has lived in Vancouver for years and keeps telling everyone to move there.',
      },
      {
        id: 'b',
        date: '2023-11-30',
        slot: 'sister/residence',
        text: 'My sister relocated to Vancouver once the hospital job offer came through; the cats came too.',
      },
    ],
    questions: [{ query: 'Where does my sister live?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'moves',
    facts: [
      { id: 'a', date: '2021-05-10', slot: 'user/residence', text: 'The user is based in Berlin, in Kreuzberg.' },
      {
        id: 'b',
        date: '2024-02-14',
        slot: 'user/residence',
        text: "The user mentioned they're in Munich now, working remotely from a flat near the Englischer Garten.",
      },
    ],
    questions: [{ query: 'Which city is the user based in?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2019-07-01',
        slot: 'tom/residence',
        entities: ['Tom'],
        text: 'Tom lived in Dublin when he started his PhD.',
      },
      {
        id: 'b',
        date: '2022-10-03',
        slot: 'tom/residence',
        entities: ['Tom'],
        text: 'Tom is in Cork now; he bought a place ten minutes from the university.',
      },
    ],
    order: ['b', 'a'],
    questions: [
      { query: 'Where does Tom live?', answer: 'b', stale: 'a' },
      { query: 'where did Tom live when he started his PhD', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2020-01-12',
        slot: 'hannah/residence',
        entities: ['Hannah'],
        text: 'Hannah lives in Amsterdam, in a narrow canal house on the Prinsengracht.',
      },
      {
        id: 'b',
        date: '2023-06-18',
        slot: 'hannah/residence',
        text: "Hannah's in Utrecht these days; she got tired of the tourists.",
      },
    ],
    questions: [{ query: 'Where does Hannah live?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2019-04-20',
        slot: 'parents/residence',
        text: 'My parents live in an old farmhouse outside Lyon.',
      },
      {
        id: 'b',
        date: '2025-03-01',
        slot: 'parents/residence',
        text: 'Mum and Dad sold the farmhouse and bought an apartment by the lake in Annecy.',
      },
    ],
    questions: [{ query: 'where are my parents living these days', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2021-09-09',
        slot: 'kenji/residence',
        entities: ['Kenji'],
        text: 'Kenji lives in Osaka, near Namba station.',
      },
      {
        id: 'x',
        date: '2022-01-15',
        slot: 'aiko/residence',
        entities: ['Aiko', 'Kenji'],
        text: "Kenji's girlfriend Aiko lives in Kyoto and teaches calligraphy.",
      },
      {
        id: 'b',
        date: '2024-05-22',
        slot: 'kenji/residence',
        entities: ['Kenji', 'Aiko'],
        text: "Kenji moved in with Aiko, so he's in Kyoto now as well and commutes to Osaka twice a week.",
      },
    ],
    questions: [
      { query: 'Where does Kenji live?', answer: 'b', stale: 'a' },
      { query: 'Where was Kenji living before he moved in with Aiko?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2020-08-08',
        slot: 'me/residence',
        text: 'Our family home is in Bristol, a terraced house in Bedminster.',
      },
      {
        id: 'b',
        date: '2022-12-12',
        slot: 'me/residence',
        text: 'We moved to Bath in December — the kids started at a new school there in January.',
      },
    ],
    questions: [
      { query: 'what city is our family home in', answer: 'b', stale: 'a' },
      { query: 'Which city did we live in?', answer: 'a', stale: 'b', past: true, asOf: '2021-06-01' },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2019-11-11',
        slot: 'sofia/residence',
        entities: ['Sofia'],
        text: "Sofia's address is 14 Rue Oberkampf, Paris, fourth floor, no lift.",
      },
      {
        id: 'b',
        date: '2023-03-03',
        slot: 'sofia/residence',
        entities: ['Sofia'],
        text: 'Sofia gave up the Paris flat and is renting a stone cottage in Brittany, near Quimper.',
      },
    ],
    questions: [{ query: "What's Sofia's address in Paris — is she still there?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2020-03-03',
        slot: 'ahmed/residence',
        entities: ['Ahmed'],
        text: 'Ahmed lives in Dubai Marina, on the 30th floor of a tower.',
      },
      {
        id: 'b',
        date: '2024-09-09',
        slot: 'ahmed/residence',
        entities: ['Ahmed'],
        text: 'Ahmed is no longer in Dubai; he went back home to Cairo to be near his mother.',
      },
    ],
    questions: [
      { query: 'Which city does Ahmed live in?', answer: 'b', stale: 'a' },
      { query: 'Where was Ahmed living before he went back to Cairo?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2021-02-02',
        slot: 'lucy/residence',
        entities: ['Lucy'],
        text: 'My best friend Lucy lives in Edinburgh, in Marchmont.',
      },
      {
        id: 'x',
        date: '2022-02-02',
        slot: 'lucia/residence',
        entities: ['Lucia'],
        text: 'My colleague Lucia lives in Edinburgh too, down in Leith.',
      },
      {
        id: 'b',
        date: '2024-07-07',
        slot: 'lucy/residence',
        entities: ['Lucy'],
        text: "Lucy has moved down to London for the new job; she's renting a room in Hackney.",
      },
    ],
    questions: [{ query: 'where does lucy live', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'a',
        date: '2022-01-01',
        slot: 'me/residence',
        text: "I'm based in Singapore for work, in a condo in Tiong Bahru.",
      },
      {
        id: 'b',
        date: '2025-02-10',
        slot: 'me/residence',
        text: "Just landed in Sydney for good — the relocation is done and I've signed a lease in Surry Hills.",
      },
    ],
    questions: [{ query: 'Where am I based?', answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── jobs ─────────────────────────────
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2020-05-01',
        slot: 'diego/title',
        entities: ['Diego', 'Adyen'],
        text: 'Diego is a senior backend engineer at Adyen, on the payments team.',
      },
      {
        id: 'b',
        date: '2023-04-15',
        slot: 'diego/title',
        entities: ['Diego', 'Adyen'],
        text: "Diego got promoted — he's Head of Engineering for payments at Adyen now.",
      },
    ],
    questions: [
      { query: "What's Diego's title?", answer: 'b', stale: 'a' },
      { query: 'What was Diego doing at Adyen before his promotion?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      { id: 'a', date: '2019-10-01', slot: 'me/employer', text: 'I work at Shopify as a product designer.' },
      {
        id: 'b',
        date: '2022-06-20',
        slot: 'me/employer',
        text: 'I left Shopify and joined Figma, still doing product design but on the FigJam side.',
      },
    ],
    questions: [{ query: 'who do i work for', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2020-09-14',
        slot: 'nadia/job',
        entities: ['Nadia', 'Ogilvy'],
        text: 'Nadia works as a copywriter at Ogilvy in London.',
      },
      {
        id: 'b',
        date: '2024-01-08',
        slot: 'nadia/job',
        entities: ['Nadia'],
        text: 'Nadia went freelance in January — she writes for a handful of startups from her kitchen table.',
      },
    ],
    questions: [{ query: 'Where does Nadia work?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2019-03-01',
        slot: 'dad/job',
        text: 'My dad is a train driver for Deutsche Bahn, mostly the Hamburg–Berlin line.',
      },
      {
        id: 'b',
        date: '2025-06-30',
        slot: 'dad/job',
        text: 'Dad retired at the end of June after 38 years on the railways. Party was at the depot.',
      },
    ],
    questions: [
      { query: 'What does my dad do for a living?', answer: 'b', stale: 'a' },
      { query: "What was my father's job?", answer: 'a', stale: 'b', past: true, asOf: '2024-01-01' },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2021-01-10',
        slot: 'sam/job',
        entities: ['Sam', 'Monzo'],
        text: 'Sam is a data analyst at Monzo.',
      },
      {
        id: 'x',
        date: '2022-03-03',
        slot: 'grace/job',
        entities: ['Grace', 'Sam', 'Revolut'],
        text: "Sam's wife Grace is a data analyst at Revolut.",
      },
      {
        id: 'b',
        date: '2023-10-10',
        slot: 'sam/job',
        entities: ['Sam', 'Monzo'],
        text: 'Sam moved into a data science lead role at Monzo, managing four people.',
      },
    ],
    questions: [{ query: "What is Sam's job?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2020-02-20',
        slot: 'wei/employer',
        entities: ['Wei', 'Google'],
        text: "Wei's employer is Google; he's on the Maps team in Zurich.",
      },
      {
        id: 'b',
        date: '2024-03-25',
        slot: 'wei/employer',
        entities: ['Wei'],
        text: 'Wei jumped ship to Anthropic in March and is working on evals.',
      },
    ],
    questions: [
      { query: 'Which company does Wei work for?', answer: 'b', stale: 'a' },
      { query: "Who is Wei's employer?", answer: 'a', stale: 'b', past: true, asOf: '2022-01-01' },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2021-07-01',
        slot: 'user/role',
        text: 'The user is an engineering manager at Spotify with a team of eight.',
      },
      {
        id: 'b',
        date: '2024-11-01',
        slot: 'user/role',
        text: 'The user is no longer managing people — they went back to an IC track as a staff engineer at Spotify.',
      },
    ],
    questions: [{ query: "what's the user's role at spotify", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2019-06-01',
        slot: 'olga/title',
        entities: ['Olga', 'KPMG'],
        text: 'Olga started as a junior accountant at KPMG.',
      },
      {
        id: 'b',
        date: '2022-09-01',
        slot: 'olga/title',
        entities: ['Olga'],
        text: "Olga runs audits for retail clients these days — she's an audit manager now.",
      },
    ],
    order: ['b', 'a'],
    questions: [
      { query: "What is Olga's position at KPMG?", answer: 'b', stale: 'a' },
      { query: 'What was Olga hired as at KPMG?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2020-04-04',
        slot: 'husband/job',
        text: 'My husband teaches maths at a secondary school in Leeds.',
      },
      {
        id: 'b',
        date: '2023-08-28',
        slot: 'husband/job',
        text: 'My husband quit teaching and is retraining as an electrician — apprenticeship starts Monday.',
      },
    ],
    questions: [{ query: 'What does my husband do for work?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2021-03-15',
        slot: 'raj/job',
        entities: ['Raj', 'Stripe'],
        text: 'Raj is a product manager at Stripe.',
      },
      {
        id: 'b',
        date: '2024-02-02',
        slot: 'raj/job',
        entities: ['Raj', 'Ledgerly'],
        text: "Raj left Stripe to start his own payroll company, Ledgerly, and he's the CEO.",
      },
    ],
    questions: [{ query: 'where is raj working', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2022-01-03',
        slot: 'me/job',
        text: "I'm a backend developer at Zalando, on the checkout team.",
      },
      {
        id: 'x',
        date: '2022-05-05',
        slot: 'jonas/job',
        entities: ['Jonas'],
        text: 'My teammate Jonas is a frontend developer at Zalando.',
      },
      { id: 'b', date: '2025-01-15', slot: 'me/job', text: "New job: I've joined N26 as a platform engineer." },
    ],
    questions: [
      { query: "What's my current job?", answer: 'b', stale: 'a' },
      { query: 'Where did I work before N26?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2019-12-01',
        slot: 'maria/job',
        entities: ['Aunt Maria'],
        text: "Aunt Maria works night shifts as a staff nurse at St Thomas' Hospital.",
      },
      {
        id: 'b',
        date: '2023-02-14',
        slot: 'maria/job',
        entities: ['Aunt Maria'],
        text: "Aunt Maria was made ward sister on cardiology at St Thomas' — no more nights.",
      },
    ],
    questions: [{ query: "What's Aunt Maria's job at the hospital?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2020-10-10',
        slot: 'chloe/job',
        entities: ['Chloe'],
        text: "Chloe is head chef at a bistro in Montreal's Plateau.",
      },
      {
        id: 'b',
        date: '2024-04-04',
        slot: 'chloe/job',
        entities: ['Chloe', 'Maison Verte'],
        text: "Chloe opened her own place, Maison Verte; she's chef-owner now rather than working for someone else.",
      },
    ],
    questions: [{ query: 'Where does Chloe cook?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'a',
        date: '2021-08-08',
        slot: 'lars/title',
        entities: ['Lars Eriksson', 'Volvo'],
        text: 'Lars Eriksson joined Volvo as a mechanical engineer in Gothenburg.',
      },
      {
        id: 'b',
        date: '2024-10-10',
        slot: 'lars/title',
        entities: ['Lars Eriksson'],
        text: 'He got promoted to principal engineer and leads the EV chassis group now.',
      },
    ],
    questions: [{ query: "What is Lars's title at Volvo?", answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── relationships ─────────────────────────────
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2020-02-14',
        slot: 'ben/relationship',
        entities: ['Ben', 'Clara'],
        text: 'Ben is dating a vet named Clara; they met at the dog park.',
      },
      {
        id: 'b',
        date: '2022-09-17',
        slot: 'ben/relationship',
        entities: ['Ben', 'Clara'],
        text: 'Ben and Clara tied the knot in a tiny ceremony in Cornwall.',
      },
    ],
    questions: [
      { query: "What's Ben's relationship status?", answer: 'b', stale: 'a' },
      { query: 'Is Ben seeing anyone?', answer: 'a', stale: 'b', past: true, asOf: '2021-05-01' },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2021-06-01',
        slot: 'me/relationship',
        entities: ['Mateo'],
        text: "I'm engaged to Mateo!! He asked on the beach in Tarifa.",
      },
      {
        id: 'b',
        date: '2022-07-23',
        slot: 'me/relationship',
        entities: ['Mateo'],
        text: 'Mateo and I got married on the 23rd — best day ever.',
      },
    ],
    questions: [{ query: 'am I engaged or married', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2019-05-05',
        slot: 'brother/relationship',
        entities: ['Jess'],
        text: 'My brother is married to Jess; they have a little boy.',
      },
      {
        id: 'b',
        date: '2024-03-03',
        slot: 'brother/relationship',
        entities: ['Jess'],
        text: 'My brother and Jess divorced this spring. It was amicable, they share custody.',
      },
    ],
    questions: [{ query: 'Is my brother still married to Jess?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2022-02-02',
        slot: 'zoe/relationship',
        entities: ['Zoe', 'Liam'],
        text: "Zoe has a boyfriend called Liam; they've been together about a year.",
      },
      {
        id: 'b',
        date: '2023-12-01',
        slot: 'zoe/relationship',
        entities: ['Zoe', 'Liam'],
        text: "Zoe broke up with Liam before Christmas and says she's happily single.",
      },
    ],
    questions: [{ query: "Who is Zoe's boyfriend?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2020-11-11',
        slot: 'anika/relationship',
        entities: ['Anika', 'Paul'],
        text: 'Anika is seeing someone, a guy named Paul from her climbing club.',
      },
      {
        id: 'x',
        date: '2021-04-04',
        slot: 'mira/relationship',
        entities: ['Mira', 'Anika'],
        text: "Anika's sister Mira is engaged to a chef in Hamburg.",
      },
      {
        id: 'b',
        date: '2023-05-20',
        slot: 'anika/relationship',
        entities: ['Anika', 'Paul'],
        text: 'Paul proposed to Anika in Lisbon and she said yes.',
      },
    ],
    questions: [{ query: 'Is Anika engaged?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2019-08-08',
        slot: 'user/relationship',
        entities: ['Hana'],
        text: 'The user has a girlfriend named Hana.',
      },
      {
        id: 'b',
        date: '2021-10-10',
        slot: 'user/relationship',
        entities: ['Hana'],
        text: "The user proposed to Hana over the weekend — she's his fiancée now.",
      },
    ],
    questions: [{ query: 'Does the user have a girlfriend?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2019-02-02',
        slot: 'felix/relationship',
        entities: ['Felix', 'Nora'],
        text: 'Felix and Nora started dating in February.',
      },
      {
        id: 'b',
        date: '2024-06-15',
        slot: 'felix/relationship',
        entities: ['Felix', 'Nora'],
        text: 'Felix and Nora are no longer together; they split in June after five years.',
      },
    ],
    order: ['b', 'a'],
    questions: [
      { query: 'Are Felix and Nora still a couple?', answer: 'b', stale: 'a' },
      { query: 'are felix and nora dating', answer: 'a', stale: 'b', past: true, asOf: '2022-01-01' },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2020-07-07',
        slot: 'carmen/relationship',
        entities: ['Carmen Ruiz', 'Andrés'],
        text: 'Carmen Ruiz is married to a pilot, Andrés.',
      },
      {
        id: 'b',
        date: '2025-01-20',
        slot: 'carmen/relationship',
        entities: ['Carmen Ruiz'],
        text: 'She and Andrés separated last year and the divorce came through in January.',
      },
    ],
    questions: [{ query: 'Who is Carmen married to?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2021-03-03',
        slot: 'me/relationship',
        entities: ['Alex'],
        text: 'My partner Alex and I have been living together for two years.',
      },
      {
        id: 'b',
        date: '2023-09-09',
        slot: 'me/relationship',
        entities: ['Alex'],
        text: 'Alex and I tied the knot at the town hall on Saturday!',
      },
    ],
    questions: [
      { query: 'am i married', answer: 'b', stale: 'a' },
      { query: 'What was my relationship with Alex before the wedding?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2022-04-04',
        slot: 'omar/relationship',
        entities: ['Omar'],
        text: "My friend Omar is single and swears he's done with dating apps.",
      },
      {
        id: 'x',
        date: '2023-01-01',
        slot: 'omar-haddad/relationship',
        entities: ['Omar Haddad'],
        text: 'My coworker Omar Haddad is married with three kids.',
      },
      {
        id: 'b',
        date: '2024-08-08',
        slot: 'omar/relationship',
        entities: ['Omar', 'Leila'],
        text: 'Omar has a girlfriend now — Leila, they met at the bouldering gym.',
      },
    ],
    questions: [{ query: 'Is my friend Omar single?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2020-01-01',
        slot: 'grandma/relationship',
        text: 'Grandma has been widowed since 2015 and lives on her own.',
      },
      {
        id: 'b',
        date: '2023-04-04',
        slot: 'grandma/relationship',
        entities: ['Harold'],
        text: 'Grandma has a new partner! Harold, from her bridge club.',
      },
    ],
    questions: [{ query: 'is grandma with anyone', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2019-09-19',
        slot: 'ivy/relationship',
        entities: ['Ivy', 'Marco'],
        text: 'Ivy and Marco got engaged.',
      },
      {
        id: 'b',
        date: '2020-12-01',
        slot: 'ivy/relationship',
        entities: ['Ivy', 'Marco'],
        text: "Ivy called off the engagement; she and Marco aren't together any more.",
      },
    ],
    questions: [
      { query: 'Is Ivy engaged to Marco?', answer: 'b', stale: 'a' },
      { query: 'Is Ivy engaged?', answer: 'a', stale: 'b', past: true, asOf: '2020-06-01' },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2021-05-15',
        slot: 'jake/spouse',
        entities: ['Jake', 'David'],
        text: "Jake's husband is David; they married in 2018.",
      },
      {
        id: 'b',
        date: '2025-04-01',
        slot: 'jake/spouse',
        entities: ['Jake', 'Ethan'],
        text: 'Jake remarried in April — Ethan, a landscape architect. Things with David ended a while ago.',
      },
    ],
    questions: [
      { query: "Who is Jake's husband?", answer: 'b', stale: 'a' },
      { query: 'Who was Jake married to before Ethan?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'a',
        date: '2022-06-06',
        slot: 'me/relationship',
        entities: ['Sara'],
        text: "Sara and I are dating, it's still early days.",
      },
      {
        id: 'b',
        date: '2024-02-29',
        slot: 'me/relationship',
        entities: ['Sara'],
        text: "Sara moved in with me, and as of leap day we're engaged.",
      },
    ],
    questions: [{ query: "What's the status between Sara and me?", answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── likes ─────────────────────────────
  {
    kind: 'likes',
    facts: [
      { id: 'a', date: '2020-03-03', slot: 'me/favourite-band', text: 'My favourite band is Radiohead, no contest.' },
      {
        id: 'b',
        date: '2024-05-05',
        slot: 'me/favourite-band',
        text: "These days it's Fontaines D.C. on repeat — I think they've overtaken Radiohead for me.",
      },
    ],
    questions: [{ query: "what's my favourite band", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'a',
        date: '2021-01-01',
        slot: 'leo/favourite-food',
        entities: ['Leo'],
        text: "Leo's favourite food is sushi.",
      },
      {
        id: 'b',
        date: '2023-07-07',
        slot: 'leo/favourite-food',
        entities: ['Leo'],
        text: "Leo says nothing beats a bowl of tonkotsu ramen now; he's gone off raw fish.",
      },
    ],
    questions: [{ query: "What is Leo's favourite food?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'a', date: '2019-10-10', slot: 'me/coffee-order', text: 'I take my coffee black, no sugar.' },
      {
        id: 'b',
        date: '2022-02-02',
        slot: 'me/coffee-order',
        text: "I've switched to oat flat whites in the mornings.",
      },
    ],
    questions: [
      { query: 'How do I take my coffee?', answer: 'b', stale: 'a' },
      { query: 'how did I drink my coffee before oat flat whites', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'a',
        date: '2020-06-06',
        slot: 'emma/favourite-colour',
        entities: ['Emma'],
        text: "Emma's favourite colour is green.",
      },
      {
        id: 'x',
        date: '2021-06-06',
        slot: 'lily/favourite-colour',
        entities: ['Lily', 'Emma'],
        text: "Emma's daughter Lily's favourite colour is purple, everything has to be purple.",
      },
      {
        id: 'b',
        date: '2024-01-01',
        slot: 'emma/favourite-colour',
        entities: ['Emma'],
        text: "Emma has gone off green; she's all about mustard yellow now.",
      },
    ],
    questions: [{ query: "Emma's favourite colour?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'a', date: '2021-09-09', slot: 'user/seat-preference', text: 'The user prefers a window seat on flights.' },
      {
        id: 'b',
        date: '2024-03-03',
        slot: 'user/seat-preference',
        text: 'The user asked for aisle seats from now on — easier to get up on long-hauls.',
      },
    ],
    questions: [
      { query: 'Which seat should I book for the user?', answer: 'b', stale: 'a' },
      { query: 'What seat does the user prefer on planes?', answer: 'a', stale: 'b', past: true, asOf: '2022-06-01' },
    ],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'a',
        date: '2019-05-05',
        slot: 'ana/favourite-book',
        entities: ['Ana'],
        text: "Ana's favourite book is One Hundred Years of Solitude.",
      },
      {
        id: 'b',
        date: '2025-02-02',
        slot: 'ana/favourite-book',
        entities: ['Ana'],
        text: 'Ana told me Piranesi has replaced García Márquez as her all-time favourite.',
      },
    ],
    questions: [{ query: "What's Ana's favourite novel?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'a',
        date: '2020-08-08',
        slot: 'noah/music',
        entities: ['Noah Becker'],
        text: 'Noah Becker listens to nothing but metal.',
      },
      {
        id: 'b',
        date: '2023-03-03',
        slot: 'noah/music',
        text: "He's deep into jazz now — bought a turntable and a stack of Blue Note records.",
      },
    ],
    questions: [{ query: 'what kind of music does Noah listen to', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'a', date: '2020-01-01', slot: 'mum/tea', text: 'Mum loves Earl Grey tea.' },
      { id: 'x', date: '2021-03-03', slot: 'dad/tea', text: "Dad only drinks builder's tea, strong with two sugars." },
      {
        id: 'b',
        date: '2024-12-25',
        slot: 'mum/tea',
        text: 'Mum went off Earl Grey and drinks rooibos instead, says the caffeine kept her up.',
      },
    ],
    questions: [{ query: 'What tea should I buy for Mum?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'a', date: '2021-04-04', slot: 'me/run-time', text: 'I like running in the evenings after work.' },
      {
        id: 'b',
        date: '2023-05-05',
        slot: 'me/run-time',
        text: 'I do my runs at 6am now, before anyone else in the house is up.',
      },
    ],
    questions: [{ query: 'when do I prefer to go running?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'a',
        date: '2022-01-01',
        slot: 'user/response-style',
        text: 'The user prefers detailed, long explanations with worked examples.',
      },
      {
        id: 'b',
        date: '2024-06-06',
        slot: 'user/response-style',
        text: 'The user wants short answers now: bullet points, no preamble.',
      },
    ],
    questions: [
      { query: 'How does the user like responses written?', answer: 'b', stale: 'a' },
      { query: 'What kind of explanations did the user originally prefer?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'a',
        date: '2019-07-07',
        slot: 'rosa/favourite-destination',
        entities: ['Rosa'],
        text: "Rosa's favourite holiday spot is Crete; she goes every summer.",
      },
      {
        id: 'b',
        date: '2023-09-09',
        slot: 'rosa/favourite-destination',
        entities: ['Rosa'],
        text: "Since her trip to Japan, Rosa won't stop saying Hokkaido is the best place she's ever been.",
      },
    ],
    questions: [{ query: 'Where does Rosa like to go on holiday?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'a', date: '2020-02-02', slot: 'me/favourite-podcast', text: 'My favourite podcast is The Daily.' },
      {
        id: 'b',
        date: '2023-04-04',
        slot: 'me/favourite-podcast',
        text: 'I stopped listening to The Daily; Hard Fork is my go-to on the commute.',
      },
    ],
    order: ['b', 'a'],
    questions: [
      { query: "what's my favourite podcast", answer: 'b', stale: 'a' },
      { query: 'Which podcast do I like best?', answer: 'a', stale: 'b', past: true, asOf: '2021-01-01' },
    ],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'a',
        date: '2021-03-03',
        slot: 'kai/favourite-film',
        entities: ['Kai'],
        text: "Kai's favourite film is Spirited Away.",
      },
      {
        id: 'x',
        date: '2022-03-03',
        slot: 'kai/favourite-series',
        entities: ['Kai'],
        text: "Kai's favourite TV series is The Wire.",
      },
      {
        id: 'b',
        date: '2024-03-03',
        slot: 'kai/favourite-film',
        entities: ['Kai'],
        text: "Kai has watched Past Lives three times now and says it's the best movie he's ever seen.",
      },
    ],
    questions: [{ query: 'Which film does Kai like most?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'a',
        date: '2020-10-10',
        slot: 'lena/pet-preference',
        entities: ['Lena'],
        text: "Lena says she's a dog person, always has been.",
      },
      {
        id: 'b',
        date: '2023-10-10',
        slot: 'lena/pet-preference',
        entities: ['Lena'],
        text: 'After fostering a litter of kittens, Lena is a cat person through and through.',
      },
    ],
    questions: [{ query: 'does Lena prefer cats or dogs', answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── diet ─────────────────────────────
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2020-01-05', slot: 'me/diet', text: 'I went vegetarian in January.' },
      { id: 'b', date: '2022-08-01', slot: 'me/diet', text: "I'm fully vegan now — no dairy, no eggs, no honey." },
    ],
    questions: [
      { query: 'what diet do I follow', answer: 'b', stale: 'a' },
      { query: 'What was my diet?', answer: 'a', stale: 'b', past: true, asOf: '2021-06-01' },
    ],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'a',
        date: '2021-02-02',
        slot: 'hugo/alcohol',
        entities: ['Hugo'],
        text: 'Hugo drinks two or three beers most evenings.',
      },
      {
        id: 'b',
        date: '2023-01-01',
        slot: 'hugo/alcohol',
        entities: ['Hugo'],
        text: 'Hugo gave up alcohol completely at New Year and has stuck with it.',
      },
    ],
    questions: [{ query: 'Does Hugo drink beer?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2019-06-06', slot: 'sister/diet', text: 'My sister stopped eating meat and fish.' },
      {
        id: 'b',
        date: '2024-04-04',
        slot: 'sister/diet',
        text: "My sister started eating fish again on her doctor's advice — pescatarian now.",
      },
    ],
    questions: [{ query: 'Does my sister eat fish?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2020-09-09', slot: 'priyanka/diet', entities: ['Priyanka'], text: 'Priyanka is vegetarian.' },
      {
        id: 'x',
        date: '2021-09-09',
        slot: 'arjun/diet',
        entities: ['Arjun', 'Priyanka'],
        text: "Priyanka's husband Arjun eats everything, especially lamb.",
      },
      {
        id: 'b',
        date: '2024-09-09',
        slot: 'priyanka/diet',
        entities: ['Priyanka'],
        text: "Priyanka cut out dairy and eggs after a documentary about dairy farms, so she's vegan now.",
      },
    ],
    questions: [{ query: 'Is Priyanka vegetarian?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2021-11-11', slot: 'user/gluten', text: 'The user eats bread and pasta without any issues.' },
      {
        id: 'b',
        date: '2023-03-15',
        slot: 'user/gluten',
        text: 'The user was diagnosed with coeliac disease and has to avoid gluten entirely.',
      },
    ],
    questions: [{ query: 'Can the user eat pasta?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2022-05-05', slot: 'me/sugar', text: 'I take two sugars in my tea.' },
      {
        id: 'b',
        date: '2024-01-10',
        slot: 'me/sugar',
        text: "I've cut out sugar completely, including in hot drinks.",
      },
    ],
    questions: [{ query: 'how many sugars do I take in tea', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2020-03-03', slot: 'dad/diet', text: 'Dad is on a strict keto diet, no carbs at all.' },
      {
        id: 'b',
        date: '2022-10-10',
        slot: 'dad/diet',
        text: 'Dad dropped keto; he eats normally again, just less red meat.',
      },
    ],
    questions: [
      { query: 'Is Dad still doing keto?', answer: 'b', stale: 'a' },
      { query: 'What diet was Dad on before he started eating normally again?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'a',
        date: '2021-07-07',
        slot: 'yusuf/dairy',
        entities: ['Yusuf Demir'],
        text: "Yusuf Demir doesn't eat dairy — he's lactose intolerant.",
      },
      {
        id: 'b',
        date: '2024-07-07',
        slot: 'yusuf/dairy',
        text: 'He takes lactase tablets now and happily eats cheese again.',
      },
    ],
    questions: [{ query: 'Can Yusuf have cheese?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2019-09-09', slot: 'me/caffeine', text: 'I drink four espressos a day, minimum.' },
      {
        id: 'b',
        date: '2023-02-02',
        slot: 'me/caffeine',
        text: "I'm off caffeine entirely — decaf only since February.",
      },
    ],
    questions: [{ query: 'how much coffee do I drink', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2020-04-04', slot: 'partner/diet', text: 'My partner is vegan.' },
      {
        id: 'b',
        date: '2023-06-06',
        slot: 'partner/diet',
        text: 'My partner started eating eggs and dairy again, so vegetarian rather than vegan now.',
      },
    ],
    order: ['b', 'a'],
    questions: [
      { query: 'What diet does my partner follow?', answer: 'b', stale: 'a' },
      { query: 'What did my partner eat before going back to eggs and dairy?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'a',
        date: '2021-01-20',
        slot: 'max/allergy',
        entities: ['Max'],
        text: 'Our son Max is allergic to peanuts; we carry an EpiPen.',
      },
      {
        id: 'b',
        date: '2025-03-03',
        slot: 'max/allergy',
        entities: ['Max'],
        text: 'Max outgrew it — the allergist cleared him for peanuts after the food challenge.',
      },
    ],
    questions: [{ query: 'Is Max allergic to anything?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'a',
        date: '2022-08-08',
        slot: 'clara/diet',
        entities: ['Clara'],
        text: "Clara eats pretty much anything, she's not fussy.",
      },
      {
        id: 'b',
        date: '2024-11-11',
        slot: 'clara/diet',
        entities: ['Clara'],
        text: 'Clara is doing a plant-based diet these days for her cholesterol.',
      },
    ],
    questions: [{ query: 'What should I cook for Clara?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'a', date: '2020-12-12', slot: 'me/diet', text: "I'm pescatarian." },
      {
        id: 'x',
        date: '2021-12-12',
        slot: 'sven/diet',
        entities: ['Sven'],
        text: 'My roommate Sven is vegetarian and does most of the cooking.',
      },
      {
        id: 'b',
        date: '2024-02-02',
        slot: 'me/diet',
        text: 'I started eating chicken again, so no longer just fish for me.',
      },
    ],
    questions: [{ query: 'am I pescatarian', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'a',
        date: '2021-05-05',
        slot: 'marta/eating-schedule',
        entities: ['Marta'],
        text: 'Marta skips breakfast; she does 16:8 intermittent fasting.',
      },
      {
        id: 'b',
        date: '2023-05-05',
        slot: 'marta/eating-schedule',
        entities: ['Marta'],
        text: 'Marta stopped fasting and has porridge every morning now.',
      },
    ],
    questions: [{ query: 'Does Marta eat breakfast?', answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── corrections ─────────────────────────────
  {
    kind: 'corrections',
    facts: [
      {
        id: 'a',
        date: '2023-05-10',
        slot: 'rachel/birthday',
        entities: ['Rachel'],
        text: "Rachel's birthday is on March 12.",
      },
      {
        id: 'b',
        date: '2023-05-12',
        slot: 'rachel/birthday',
        entities: ['Rachel'],
        text: "Correction: Rachel's birthday is March 21, not the 12th — I flipped the digits.",
      },
    ],
    order: ['b', 'a'],
    questions: [{ query: 'When is Rachel’s birthday?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2024-01-15', slot: 'office/floor', text: 'Our office is on the 5th floor.' },
      {
        id: 'b',
        date: '2024-01-16',
        slot: 'office/floor',
        text: "Actually it's the 6th, not the 5th — the 5th is the gym.",
      },
    ],
    questions: [{ query: 'Which floor is our office on?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2022-09-09', slot: 'me/manager', entities: ['Stefan'], text: "My manager's name is Stefan." },
      {
        id: 'b',
        date: '2022-09-20',
        slot: 'me/manager',
        entities: ['Stephanie', 'Stefan'],
        text: 'I got that wrong — I report to Stephanie; Stefan is her deputy.',
      },
    ],
    order: ['b', 'a'],
    questions: [{ query: "who's my manager", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      {
        id: 'a',
        date: '2023-11-11',
        slot: 'cabin/wifi-password',
        text: 'The wifi password at the cabin is pinecone42.',
      },
      {
        id: 'b',
        date: '2023-11-12',
        slot: 'cabin/wifi-password',
        text: "Sorry, it's pinecone24 for the cabin network, I swapped the numbers.",
      },
    ],
    questions: [{ query: "what's the wifi password at the cabin", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2024-04-04', slot: 'user-daughter/age', text: "The user's daughter is 7 years old." },
      {
        id: 'b',
        date: '2024-04-05',
        slot: 'user-daughter/age',
        text: 'The user corrected me: their daughter is 9, not 7 — 7 is her cousin.',
      },
    ],
    order: ['b', 'a'],
    questions: [{ query: "How old is the user's daughter?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2021-06-06', slot: 'gabriel/origin', entities: ['Gabriel'], text: 'Gabriel is from Brazil.' },
      {
        id: 'b',
        date: '2021-06-20',
        slot: 'gabriel/origin',
        entities: ['Gabriel'],
        text: 'Gabriel is Portuguese, not Brazilian. He grew up in Porto; people just assume from the accent.',
      },
    ],
    questions: [{ query: 'where is gabriel from', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2025-02-02', slot: 'me/dentist-time', text: 'The dentist appointment is at 3pm on Thursday.' },
      {
        id: 'b',
        date: '2025-02-03',
        slot: 'me/dentist-time',
        text: 'I misread the reminder card — the dentist is at 2pm Thursday, not 3.',
      },
    ],
    order: ['b', 'a'],
    questions: [{ query: 'What time is the dentist on Thursday?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2023-03-03', slot: 'designer/name', text: 'The new designer on the team is called Katherine.' },
      {
        id: 'b',
        date: '2023-03-04',
        slot: 'designer/name',
        entities: ['Kathryn'],
        text: 'Her name is spelled Kathryn, not Katherine — she pointed it out in Slack.',
      },
    ],
    questions: [{ query: "How do you spell the new designer's name?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2022-10-10', slot: 'me/blood-type', text: 'My blood type is A positive.' },
      {
        id: 'x',
        date: '2022-10-11',
        slot: 'husband/blood-type',
        text: "My husband's blood type is O negative, he's a universal donor.",
      },
      {
        id: 'b',
        date: '2022-11-01',
        slot: 'me/blood-type',
        text: "Checked my donor card and I was wrong: I'm B positive, not A.",
      },
    ],
    order: ['b', 'x', 'a'],
    questions: [{ query: 'what blood type am I', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      {
        id: 'a',
        date: '2024-06-01',
        slot: 'kickoff/location',
        entities: ['Ines'],
        text: 'Ines said the project kickoff is in Hall B.',
      },
      {
        id: 'b',
        date: '2024-06-02',
        slot: 'kickoff/location',
        entities: ['Ines'],
        text: "Ines corrected herself: kickoff's in Hall D; B is being renovated.",
      },
    ],
    questions: [{ query: 'Which hall is the kickoff in?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2023-08-08', slot: 'noah/shoe-size', entities: ['Noah'], text: 'Noah wears a size 42 shoe.' },
      {
        id: 'b',
        date: '2023-08-09',
        slot: 'noah/shoe-size',
        entities: ['Noah'],
        text: 'Noah is actually a 44 — 42 was his brother, I mixed them up.',
      },
    ],
    order: ['b', 'a'],
    questions: [{ query: 'What shoe size does Noah wear?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      {
        id: 'a',
        date: '2022-02-02',
        slot: 'lukas/employer',
        entities: ['Lukas', 'Siemens'],
        text: 'Lukas works at Siemens.',
      },
      {
        id: 'b',
        date: '2022-02-10',
        slot: 'lukas/employer',
        entities: ['Lukas', 'Bosch'],
        text: 'Actually Lukas is at Bosch, not Siemens — I confused him with his dad.',
      },
    ],
    questions: [{ query: 'Where does Lukas work?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2024-09-09', slot: 'me/number-plate', text: "My car's number plate is KM19 XTR." },
      { id: 'b', date: '2024-09-10', slot: 'me/number-plate', text: 'My mistake, the registration is KM19 XRT.' },
    ],
    order: ['b', 'a'],
    questions: [{ query: "what's my car's number plate", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'a', date: '2021-01-01', slot: 'us/anniversary', text: 'Our wedding anniversary is June 4th.' },
      {
        id: 'b',
        date: '2021-01-03',
        slot: 'us/anniversary',
        text: 'Oops, I had it wrong earlier — we got married on the 14th of June, not the 4th.',
      },
    ],
    questions: [{ query: 'When is our wedding anniversary?', answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── amounts ─────────────────────────────
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2022-01-01', slot: 'me/rent', text: 'Our rent is €1,450 a month for the two-bed.' },
      { id: 'b', date: '2024-01-01', slot: 'me/rent', text: 'The landlord put it up to 1,600 euros from January.' },
    ],
    questions: [
      { query: 'How much is our rent?', answer: 'b', stale: 'a' },
      { query: 'how much rent were we paying', answer: 'a', stale: 'b', past: true, asOf: '2023-01-01' },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2021-04-01', slot: 'me/salary', text: 'My salary is $95,000 a year.' },
      {
        id: 'x',
        date: '2021-05-01',
        slot: 'jenna/salary',
        entities: ['Jenna'],
        text: "My colleague Jenna's salary is $110k, same level as me.",
      },
      { id: 'b', date: '2023-04-01', slot: 'me/salary', text: "After the review I'm on $118k base." },
    ],
    questions: [{ query: "What's my salary?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2022-03-03', slot: 'me/weight', text: 'I weigh 92 kg.' },
      { id: 'b', date: '2024-03-03', slot: 'me/weight', text: 'Down to 81 kilos after a year of cycling to work!' },
    ],
    questions: [{ query: 'how much do I weigh', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2023-01-01', slot: 'pro-plan/price', text: 'The Pro plan costs $20 per seat per month.' },
      { id: 'b', date: '2024-07-01', slot: 'pro-plan/price', text: 'We raised Pro to $24/seat monthly starting July.' },
    ],
    questions: [
      { query: 'What is the price of the Pro plan?', answer: 'b', stale: 'a' },
      { query: 'What did the Pro plan cost before the price increase?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2021-02-02', slot: 'me/commute-distance', text: 'My commute is 35 km each way.' },
      {
        id: 'b',
        date: '2023-09-09',
        slot: 'me/commute-distance',
        text: 'Since the move, the drive to work is just 8 km.',
      },
    ],
    questions: [{ query: 'How long is my commute?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2024-02-01', slot: 'marketing/q2-budget', text: 'The marketing budget for Q2 is £50,000.' },
      { id: 'x', date: '2024-02-01', slot: 'sales/q2-budget', text: "The sales team's Q2 budget is £80,000." },
      { id: 'b', date: '2024-03-15', slot: 'marketing/q2-budget', text: 'Finance cut the Q2 marketing spend to £35k.' },
    ],
    questions: [{ query: "what's the marketing budget for Q2", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2022-06-06', slot: 'us/deposit-goal', text: "We're saving $30,000 for a house deposit." },
      {
        id: 'b',
        date: '2023-06-06',
        slot: 'us/deposit-goal',
        text: 'Our target went up to $45k because prices jumped in the area.',
      },
    ],
    questions: [{ query: 'How much are we saving for the house deposit?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      {
        id: 'a',
        date: '2021-03-03',
        slot: 'mila/rate',
        entities: ['Mila'],
        text: 'Mila charges 60 euros an hour for translation work.',
      },
      {
        id: 'b',
        date: '2024-03-03',
        slot: 'mila/rate',
        entities: ['Mila'],
        text: "She's at €85/h these days, Mila told me; demand has been crazy.",
      },
    ],
    questions: [{ query: "What's Mila's hourly rate?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      {
        id: 'a',
        date: '2021-08-08',
        slot: 'us/mortgage-rate',
        text: 'Our mortgage rate is 1.9% fixed for three years.',
      },
      {
        id: 'b',
        date: '2024-08-08',
        slot: 'us/mortgage-rate',
        text: 'We remortgaged at 4.6% when the fix ended. Ouch.',
      },
    ],
    questions: [
      { query: 'What interest rate is our mortgage on?', answer: 'b', stale: 'a' },
      { query: 'What was our mortgage rate?', answer: 'a', stale: 'b', past: true, asOf: '2023-01-01' },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2022-04-04', slot: 'me/longest-run', text: 'My longest run so far is 10 km.' },
      { id: 'b', date: '2023-10-10', slot: 'me/longest-run', text: 'Finished my first half marathon — 21.1 km!' },
    ],
    order: ['b', 'a'],
    questions: [{ query: "what's the longest distance I've run", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      {
        id: 'a',
        date: '2023-01-01',
        slot: 'ella/pocket-money',
        entities: ['Ella'],
        text: 'Ella gets £5 a week pocket money.',
      },
      {
        id: 'b',
        date: '2024-09-01',
        slot: 'ella/pocket-money',
        entities: ['Ella'],
        text: 'We bumped Ella up to £8 weekly when she started secondary school.',
      },
    ],
    questions: [
      { query: 'How much pocket money does Ella get?', answer: 'b', stale: 'a' },
      { query: 'how much pocket money did Ella get', answer: 'a', stale: 'b', past: true, asOf: '2023-06-01' },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2023-02-02', slot: 'aws/monthly-bill', text: 'Our AWS bill is about $3,200 a month.' },
      {
        id: 'b',
        date: '2024-05-05',
        slot: 'aws/monthly-bill',
        text: "With the reserved instances in place we're paying roughly $2,100/month on AWS.",
      },
    ],
    questions: [{ query: 'How much do we spend on AWS each month?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2024-04-04', slot: 'flat/asking-price', text: 'We listed the flat at £425,000.' },
      {
        id: 'b',
        date: '2024-06-06',
        slot: 'flat/asking-price',
        text: 'No offers, so the estate agent dropped it to £399k.',
      },
    ],
    questions: [{ query: "What's the asking price on our flat?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'a', date: '2022-01-01', slot: 'user/step-goal', text: "The user's daily step goal is 8,000 steps." },
      {
        id: 'x',
        date: '2022-02-02',
        slot: 'user-partner/step-goal',
        text: "The user's partner aims for 12,000 steps a day.",
      },
      {
        id: 'b',
        date: '2024-01-01',
        slot: 'user/step-goal',
        text: 'The user raised their target to 10k a day for the new year.',
      },
    ],
    questions: [{ query: "What is the user's daily step goal?", answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── plans ─────────────────────────────
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2025-03-01', slot: 'design-sync/schedule', text: 'Design sync is on Tuesdays at 10am.' },
      {
        id: 'b',
        date: '2025-04-10',
        slot: 'design-sync/schedule',
        text: 'We moved the design review meeting to Thursday afternoons at 2.',
      },
    ],
    questions: [
      { query: 'When is design sync?', answer: 'b', stale: 'a' },
      { query: 'When was design sync held?', answer: 'a', stale: 'b', past: true, asOf: '2025-03-20' },
    ],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2024-05-05', slot: 'me/october-trip', text: "I'm going to Japan in October for two weeks." },
      {
        id: 'b',
        date: '2024-07-07',
        slot: 'me/october-trip',
        text: "Japan is cancelled — flights were too expensive, we're doing Portugal in October instead.",
      },
    ],
    questions: [{ query: 'Where am I travelling in October?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2025-01-10', slot: 'q1-report/deadline', text: 'The Q1 report is due on March 15.' },
      {
        id: 'b',
        date: '2025-02-20',
        slot: 'q1-report/deadline',
        text: 'Good news, the deadline for the quarterly report got pushed to March 29.',
      },
    ],
    questions: [
      { query: 'When is the Q1 report due?', answer: 'b', stale: 'a' },
      { query: 'What was the original Q1 report deadline?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'a',
        date: '2024-02-02',
        slot: 'greta/marathon',
        entities: ['Greta'],
        text: 'Greta signed up for the Berlin marathon in September.',
      },
      {
        id: 'b',
        date: '2024-06-06',
        slot: 'greta/marathon',
        entities: ['Greta'],
        text: "Greta pulled out of Berlin with a knee injury; she'll try again next year.",
      },
    ],
    questions: [{ query: 'Is Greta running the Berlin marathon?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'a',
        date: '2023-09-01',
        slot: 'me-priya/1on1',
        entities: ['Priya'],
        text: 'My 1:1 with Priya is on Mondays at 11.',
      },
      {
        id: 'x',
        date: '2023-09-01',
        slot: 'priya-manager/1on1',
        entities: ['Priya'],
        text: "Priya's own 1:1 with her manager is Mondays at 3.",
      },
      {
        id: 'b',
        date: '2023-11-01',
        slot: 'me-priya/1on1',
        entities: ['Priya'],
        text: 'I moved my weekly catch-up with Priya to Wednesday mornings, 9:30.',
      },
    ],
    questions: [{ query: 'When is my 1:1 with Priya?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2024-01-01', slot: 'wedding/date', text: 'Our wedding is set for 14 September 2025.' },
      {
        id: 'b',
        date: '2024-08-08',
        slot: 'wedding/date',
        text: 'We moved the wedding up to 21 June 2025 because the venue had a cancellation.',
      },
    ],
    questions: [{ query: 'when is the wedding', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2025-05-05', slot: 'offsite/location', text: 'The team offsite is in Lisbon, June 10–12.' },
      { id: 'b', date: '2025-05-20', slot: 'offsite/location', text: "Offsite's been moved to Porto, same dates." },
    ],
    order: ['b', 'a'],
    questions: [{ query: 'Where is the team offsite?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2024-08-01', slot: 'v2/launch-date', text: "We're launching v2 on October 1." },
      {
        id: 'b',
        date: '2024-09-15',
        slot: 'v2/launch-date',
        text: 'v2 slipped to November 5 because of the payments bug.',
      },
    ],
    questions: [
      { query: 'when does v2 launch', answer: 'b', stale: 'a' },
      { query: 'When is the v2 launch?', answer: 'a', stale: 'b', past: true, asOf: '2024-08-20' },
    ],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'a',
        date: '2025-02-10',
        slot: 'hendersons/dinner',
        entities: ['Hendersons'],
        text: 'Dinner with the Hendersons is Friday at 7.',
      },
      {
        id: 'b',
        date: '2025-02-13',
        slot: 'hendersons/dinner',
        entities: ['Hendersons'],
        text: "The Hendersons can't do Friday, so we're eating with them Saturday at 8 instead.",
      },
    ],
    questions: [{ query: 'When are we having dinner with the Hendersons?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2022-03-03', slot: 'standup/time', text: 'Daily standup is at 9:30.' },
      {
        id: 'b',
        date: '2023-01-09',
        slot: 'standup/time',
        text: 'Standup moved to 10:15 so the Lisbon folks can join.',
      },
    ],
    questions: [{ query: 'What time is daily standup?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'a',
        date: '2024-10-10',
        slot: 'mina/flight',
        entities: ['Mina'],
        text: 'Mina is flying to Seoul on December 18 for the holidays.',
      },
      { id: 'b', date: '2024-11-25', slot: 'mina/flight', text: 'She changed her flight and now leaves on the 21st.' },
    ],
    questions: [{ query: 'What day does Mina fly to Seoul?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2023-04-04', slot: 'me/kubecon-talk', text: "I'm speaking at KubeCon in Paris next March." },
      {
        id: 'b',
        date: '2023-10-10',
        slot: 'me/kubecon-talk',
        text: "My KubeCon talk got rejected, so I'm only attending, no talk.",
      },
    ],
    questions: [{ query: 'Am I giving a talk at KubeCon?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'a',
        date: '2022-06-06',
        slot: 'sprint-review/schedule',
        text: 'Sprint reviews happen every other Friday at 4.',
      },
      {
        id: 'b',
        date: '2023-02-02',
        slot: 'sprint-review/schedule',
        text: 'We scrapped the Friday review; demos are async on Loom now.',
      },
    ],
    questions: [{ query: 'When are sprint reviews?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'a', date: '2025-06-01', slot: 'me/physio', text: 'Physio appointment on June 12 at 4:30.' },
      {
        id: 'b',
        date: '2025-06-10',
        slot: 'me/physio',
        text: 'Cancelled the physio on the 12th; rebooked for the 19th, same time.',
      },
    ],
    questions: [{ query: "when's my physio appointment", answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── owned things ─────────────────────────────
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2020-05-05', slot: 'me/car', text: 'I drive a 2014 Volkswagen Golf.' },
      { id: 'b', date: '2023-07-07', slot: 'me/car', text: 'Sold the Golf and bought a Tesla Model 3.' },
    ],
    questions: [
      { query: 'What car do I drive?', answer: 'b', stale: 'a' },
      { query: 'What car did I drive before the Tesla?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2021-09-09', slot: 'me/phone', text: 'My phone is an iPhone 12.' },
      { id: 'b', date: '2024-10-10', slot: 'me/phone', text: 'I switched to a Pixel 9 — finally done with iOS.' },
    ],
    questions: [{ query: 'which phone do I have', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      {
        id: 'a',
        date: '2019-04-04',
        slot: 'us/dog',
        entities: ['Biscuit'],
        text: 'We have a golden retriever named Biscuit.',
      },
      {
        id: 'b',
        date: '2024-02-02',
        slot: 'us/dog',
        entities: ['Pepper'],
        text: 'We adopted a rescue greyhound called Pepper, a year after Biscuit passed away.',
      },
    ],
    questions: [
      { query: "What's our dog called?", answer: 'b', stale: 'a' },
      { query: 'What dog did we have?', answer: 'a', stale: 'b', past: true, asOf: '2021-01-01' },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2022-01-01', slot: 'me/work-laptop', text: 'My work laptop is a ThinkPad X1 Carbon.' },
      { id: 'x', date: '2022-06-06', slot: 'me/personal-laptop', text: 'My personal laptop is a MacBook Air.' },
      {
        id: 'b',
        date: '2024-03-03',
        slot: 'me/work-laptop',
        text: 'IT replaced my ThinkPad with a 14-inch MacBook Pro.',
      },
    ],
    questions: [{ query: "What's my work laptop?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      {
        id: 'a',
        date: '2020-06-06',
        slot: 'jonas/bike',
        entities: ['Jonas Weber'],
        text: 'Jonas Weber rides a steel touring bike, a Surly Long Haul Trucker.',
      },
      {
        id: 'b',
        date: '2023-08-08',
        slot: 'jonas/bike',
        text: 'His Surly got stolen, so he bought a carbon gravel bike from Canyon.',
      },
    ],
    questions: [{ query: 'What bike does Jonas ride?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2021-02-02', slot: 'sister/car', text: 'My sister drives an old Fiat Panda.' },
      {
        id: 'b',
        date: '2024-04-04',
        slot: 'sister/car',
        text: "My sister's got a hybrid Toyota Yaris now; the Panda finally died on the motorway.",
      },
    ],
    questions: [{ query: 'What does my sister drive?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2019-10-10', slot: 'us/property', text: 'We own a two-bedroom flat in Leith.' },
      {
        id: 'b',
        date: '2023-03-03',
        slot: 'us/property',
        text: 'We sold the Leith flat and bought a house in Portobello with a garden.',
      },
    ],
    questions: [{ query: 'What property do we own?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2020-11-11', slot: 'user/camera', text: 'The user owns a Nikon D750 camera.' },
      { id: 'b', date: '2024-05-05', slot: 'user/camera', text: 'The user traded in the Nikon for a Fujifilm X-T5.' },
    ],
    order: ['b', 'a'],
    questions: [
      { query: 'Which camera does the user shoot with?', answer: 'b', stale: 'a' },
      { query: 'What camera does the user have?', answer: 'a', stale: 'b', past: true, asOf: '2022-01-01' },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2021-03-03', slot: 'leah/pets', entities: ['Leah', 'Miso'], text: 'Leah has one cat, Miso.' },
      {
        id: 'b',
        date: '2023-03-03',
        slot: 'leah/pets',
        entities: ['Leah', 'Tofu', 'Miso'],
        text: 'Leah adopted a second cat, Tofu, so Miso has a little brother now.',
      },
    ],
    questions: [{ query: 'How many cats does Leah have?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2022-12-25', slot: 'me/watch', text: 'I got a Garmin Forerunner 255 for Christmas.' },
      { id: 'b', date: '2025-01-15', slot: 'me/watch', text: 'Replaced the Garmin with an Apple Watch Ultra.' },
    ],
    questions: [{ query: 'what watch do i wear', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2020-01-01', slot: 'dad/car', text: 'Dad drives a Volvo XC60.' },
      { id: 'x', date: '2021-01-01', slot: 'mum/car', text: 'Mum drives a red Mini Cooper.' },
      { id: 'b', date: '2024-06-06', slot: 'dad/car', text: 'Dad swapped the Volvo for an electric Kia EV6.' },
    ],
    questions: [{ query: 'What car does Dad have?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2021-05-05', slot: 'me/headphones', text: 'My headphones are Sony WH-1000XM4s.' },
      {
        id: 'b',
        date: '2024-08-08',
        slot: 'me/headphones',
        text: "I left the Sonys on a train, so I'm using AirPods Max now.",
      },
    ],
    questions: [
      { query: 'which headphones do I use', answer: 'b', stale: 'a' },
      { query: 'What headphones did I have before the AirPods Max?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      {
        id: 'a',
        date: '2019-09-09',
        slot: 'oscar/piano',
        entities: ['Oscar'],
        text: 'Oscar has a Yamaha upright piano in his living room.',
      },
      {
        id: 'b',
        date: '2024-09-09',
        slot: 'oscar/piano',
        entities: ['Oscar'],
        text: 'Oscar sold the upright when he moved and got a digital Roland for the flat.',
      },
    ],
    questions: [{ query: 'What piano does Oscar have?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'a', date: '2021-01-01', slot: 'office/printer', text: 'The office printer is an old HP LaserJet.' },
      {
        id: 'b',
        date: '2024-01-01',
        slot: 'office/printer',
        text: 'We got a Brother colour laser for the office and recycled the HP.',
      },
    ],
    questions: [{ query: 'What printer is in the office?', answer: 'b', stale: 'a' }],
  },
  // ───────────────────────────── project facts ─────────────────────────────
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2023-01-01', slot: 'api/base-url', text: 'The API base URL is https://api.acme.io/v1.' },
      {
        id: 'b',
        date: '2024-06-01',
        slot: 'api/base-url',
        text: 'The API moved to https://api.acme.com/v2 — update your clients.',
      },
    ],
    questions: [
      { query: 'What is the API base URL?', answer: 'b', stale: 'a' },
      { query: 'what was the api base url', answer: 'a', stale: 'b', past: true, asOf: '2023-06-01' },
    ],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2022-05-05', slot: 'auth/port', text: 'The auth service listens on port 8080.' },
      { id: 'x', date: '2022-05-05', slot: 'billing/port', text: 'The billing service listens on port 8081.' },
      {
        id: 'b',
        date: '2023-05-05',
        slot: 'auth/port',
        text: 'We changed auth to 9000 to avoid clashing with the proxy.',
      },
    ],
    questions: [{ query: 'What port does the auth service listen on?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2023-02-02', slot: 'search/owner', text: 'The search service is owned by the Discovery team.' },
      {
        id: 'b',
        date: '2024-02-02',
        slot: 'search/owner',
        text: 'Platform took over search after the reorg; page them, not Discovery.',
      },
    ],
    questions: [{ query: 'Who owns the search service?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'a',
        date: '2021-03-03',
        slot: 'orders/database',
        text: 'The orders service stores its data in MySQL 5.7.',
      },
      {
        id: 'b',
        date: '2024-04-04',
        slot: 'orders/database',
        text: 'Orders is on Postgres 16 now; the old MySQL cluster was decommissioned.',
      },
    ],
    questions: [
      { query: 'What database does the orders service use?', answer: 'b', stale: 'a' },
      { query: 'What DB did orders run on before Postgres?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2022-07-07', slot: 'prod/region', text: 'Our production cluster runs in us-east-1.' },
      {
        id: 'b',
        date: '2024-01-01',
        slot: 'prod/region',
        text: 'Prod lives in eu-west-1 these days because of the GDPR work.',
      },
    ],
    questions: [{ query: 'Which AWS region is production in?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2023-03-03', slot: 'backend/node-version', text: 'The backend runs on Node 18.' },
      { id: 'x', date: '2024-03-03', slot: 'frontend/node-version', text: 'The frontend runs Node 20.' },
      {
        id: 'b',
        date: '2025-01-01',
        slot: 'backend/node-version',
        text: 'Backend got upgraded to Node 22 last sprint.',
      },
    ],
    questions: [{ query: 'What Node version is the backend on?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'a',
        date: '2023-05-05',
        slot: 'acme/staging-url',
        text: "The Acme project's staging environment is at staging.acme-internal.net.",
      },
      {
        id: 'b',
        date: '2024-05-05',
        slot: 'acme/staging-url',
        text: 'For the Acme one, staging is now on acme-stg.example.dev.',
      },
    ],
    questions: [{ query: "Where's the Acme staging environment?", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2021-01-01', slot: 'repo/default-branch', text: "The repo's default branch is master." },
      { id: 'b', date: '2022-02-02', slot: 'repo/default-branch', text: 'We renamed master to main.' },
    ],
    questions: [{ query: "what's the default branch of the repo", answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'a',
        date: '2022-10-10',
        slot: 'payments/stripe-version',
        text: 'The payments service uses Stripe API version 2022-08-01.',
      },
      {
        id: 'b',
        date: '2024-02-02',
        slot: 'payments/stripe-version',
        text: 'Payments pinned Stripe to 2023-10-16 after the upgrade.',
      },
    ],
    order: ['b', 'a'],
    questions: [{ query: 'Which Stripe API version does the payments service use?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'a',
        date: '2024-01-01',
        slot: 'mobile-app/tech-lead',
        entities: ['Marta Kowalski'],
        text: 'Marta Kowalski is the tech lead for the mobile app.',
      },
      {
        id: 'b',
        date: '2025-01-01',
        slot: 'mobile-app/tech-lead',
        entities: ['Marta Kowalski', 'Dev Patel'],
        text: "Marta handed the mobile app over to Dev Patel; he leads it now and she's on the web team.",
      },
    ],
    questions: [
      { query: 'Who is the tech lead for the mobile app?', answer: 'b', stale: 'a' },
      { query: 'Who led the mobile app before Dev?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2022-02-02', slot: 'docs/location', text: 'Internal docs live at wiki.corp.local.' },
      {
        id: 'b',
        date: '2024-04-04',
        slot: 'docs/location',
        text: 'We moved everything to Notion — notion.so/corp/docs.',
      },
    ],
    questions: [{ query: 'Where are the internal docs?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2023-06-06', slot: 'cache/redis-version', text: 'The cache layer runs Redis 6.2.' },
      { id: 'x', date: '2023-06-06', slot: 'queue/redis-version', text: 'The job queue uses Redis 7.0.' },
      { id: 'b', date: '2024-09-09', slot: 'cache/redis-version', text: 'The cache cluster got bumped to Redis 7.2.' },
    ],
    questions: [{ query: 'What Redis version does the cache use?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'a', date: '2022-03-03', slot: 'backup/schedule', text: 'The nightly backup job runs at 02:00 UTC.' },
      {
        id: 'b',
        date: '2023-03-03',
        slot: 'backup/schedule',
        text: 'Backups kick off at 04:30 UTC now, to stay clear of the batch imports.',
      },
    ],
    questions: [{ query: 'When does the nightly backup run?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'a',
        date: '2021-05-05',
        slot: 'marketing-site/domain',
        text: 'The marketing site is hosted at www.brightloop.com.',
      },
      {
        id: 'b',
        date: '2023-11-11',
        slot: 'marketing-site/domain',
        text: 'After the rebrand the marketing site moved to loop.so.',
      },
    ],
    questions: [
      { query: "what's the marketing site's domain", answer: 'b', stale: 'a' },
      { query: 'What domain did the marketing site use before the rebrand?', answer: 'a', stale: 'b', past: true },
    ],
  },
  // ───────────────────────────── tooling ─────────────────────────────
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2021-01-01', slot: 'repo/package-manager', text: 'The repo uses npm.' },
      { id: 'x', date: '2022-01-01', slot: 'docs-site/package-manager', text: 'The docs site uses yarn.' },
      { id: 'b', date: '2023-01-01', slot: 'repo/package-manager', text: 'We switched the repo from npm to pnpm.' },
    ],
    questions: [{ query: 'What package manager does the repo use?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2020-02-02', slot: 'ci/system', text: 'Our CI runs on Jenkins.' },
      {
        id: 'b',
        date: '2022-06-06',
        slot: 'ci/system',
        text: 'We ditched Jenkins — everything builds on GitHub Actions now.',
      },
    ],
    questions: [
      { query: 'which CI do we use', answer: 'b', stale: 'a' },
      { query: 'Which CI did we use before GitHub Actions?', answer: 'a', stale: 'b', past: true },
    ],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2019-05-05', slot: 'me/editor', text: 'I write code in Sublime Text.' },
      {
        id: 'b',
        date: '2021-05-05',
        slot: 'me/editor',
        text: 'Switched to VS Code for the extensions and the remote dev stuff.',
      },
    ],
    questions: [{ query: 'What editor do I use?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2021-08-08', slot: 'dashboard/framework', text: 'The admin dashboard is built with Angular.' },
      {
        id: 'b',
        date: '2024-01-01',
        slot: 'dashboard/framework',
        text: 'We rewrote the admin dashboard in React on Next.js.',
      },
    ],
    questions: [{ query: 'What framework is the admin dashboard written in?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2020-03-03', slot: 'apps/hosting', text: 'We host all our apps on Heroku.' },
      {
        id: 'b',
        date: '2023-04-04',
        slot: 'apps/hosting',
        text: 'We migrated to Google Cloud; most services are on Cloud Run.',
      },
    ],
    questions: [
      { query: 'where do we host our apps', answer: 'b', stale: 'a' },
      { query: 'Where were our apps hosted?', answer: 'a', stale: 'b', past: true, asOf: '2021-09-01' },
    ],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2022-02-02', slot: 'frontend/bundler', text: 'The frontend bundles with Webpack.' },
      {
        id: 'b',
        date: '2024-02-02',
        slot: 'frontend/bundler',
        text: 'Replaced Webpack with Vite; cold builds are five times faster.',
      },
    ],
    questions: [{ query: 'What bundler does the frontend use?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2021-10-10', slot: 'tests/runner', text: 'Unit tests are written with Jest.' },
      { id: 'b', date: '2024-10-10', slot: 'tests/runner', text: 'We dropped Jest for Vitest.' },
    ],
    questions: [{ query: 'Which test runner do we use?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2022-04-04', slot: 'api-repo/linter', text: 'The API repo lints with ESLint and Prettier.' },
      { id: 'x', date: '2023-04-04', slot: 'mobile-repo/linter', text: 'The mobile repo uses SwiftLint.' },
      {
        id: 'b',
        date: '2024-08-08',
        slot: 'api-repo/linter',
        text: 'The API repo switched to Biome, ESLint and Prettier are gone.',
      },
    ],
    questions: [{ query: 'What linter does the API repo use?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2021-01-01', slot: 'team/issue-tracker', text: 'We track issues in Jira.' },
      {
        id: 'b',
        date: '2023-09-09',
        slot: 'team/issue-tracker',
        text: 'The team moved off Jira; all tickets are in Linear now.',
      },
    ],
    order: ['b', 'a'],
    questions: [
      { query: 'Where do we track issues?', answer: 'b', stale: 'a' },
      { query: 'What issue tracker did we use?', answer: 'a', stale: 'b', past: true, asOf: '2022-01-01' },
    ],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2020-06-06', slot: 'karim/shell', entities: ['Karim'], text: 'Karim uses bash as his shell.' },
      {
        id: 'b',
        date: '2023-06-06',
        slot: 'karim/shell',
        entities: ['Karim'],
        text: 'Karim is on fish these days, with starship for the prompt.',
      },
    ],
    questions: [{ query: 'Which shell does Karim use?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2022-01-01', slot: 'backend/orm', text: 'The backend uses TypeORM.' },
      { id: 'b', date: '2023-12-12', slot: 'backend/orm', text: 'We migrated from TypeORM to Drizzle.' },
    ],
    questions: [{ query: 'what ORM is the backend on', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      {
        id: 'a',
        date: '2021-03-03',
        slot: 'me/container-runtime',
        text: 'I run containers locally with Docker Desktop.',
      },
      {
        id: 'b',
        date: '2023-03-03',
        slot: 'me/container-runtime',
        text: "Docker Desktop's licensing got annoying so I moved to OrbStack.",
      },
    ],
    questions: [{ query: 'What do I use to run containers locally?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2022-05-05', slot: 'errors/tracker', text: 'Errors are reported to Sentry.' },
      {
        id: 'b',
        date: '2024-05-05',
        slot: 'errors/tracker',
        text: 'We replaced Sentry with Datadog error tracking to consolidate vendors.',
      },
    ],
    questions: [{ query: 'Where do errors get reported?', answer: 'b', stale: 'a' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'a', date: '2021-07-07', slot: 'infra/iac', text: 'Infrastructure is managed with CloudFormation.' },
      {
        id: 'b',
        date: '2023-07-07',
        slot: 'infra/iac',
        text: 'Infra moved to Terraform; the CloudFormation stacks were imported and deleted.',
      },
    ],
    questions: [
      { query: 'What do we manage infrastructure with?', answer: 'b', stale: 'a' },
      { query: 'What IaC tool did we use before Terraform?', answer: 'a', stale: 'b', past: true },
    ],
  },
  // ───────────────────────────── chains ─────────────────────────────
  {
    kind: 'chains',
    facts: [
      {
        id: 'a',
        date: '2019-06-01',
        slot: 'elif/residence',
        entities: ['Elif'],
        text: "Elif moved from Ankara to Istanbul for her master's.",
      },
      {
        id: 'b',
        date: '2021-09-01',
        slot: 'elif/residence',
        entities: ['Elif'],
        text: "Elif left Istanbul for Berlin, she's doing a PhD at the Charité.",
      },
      {
        id: 'c',
        date: '2024-03-01',
        slot: 'elif/residence',
        text: 'She moved again, to Montreal, for a postdoc at McGill.',
      },
    ],
    questions: [
      { query: 'Where does Elif live?', answer: 'c', stale: 'b' },
      { query: 'Where did Elif live before Montreal?', answer: 'b', stale: 'c', past: true },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2019-01-01', slot: 'me/job', text: "I'm a junior developer at a small agency in Leeds." },
      { id: 'b', date: '2021-01-01', slot: 'me/job', text: 'Started at the BBC as a mid-level software engineer.' },
      { id: 'c', date: '2023-05-01', slot: 'me/job', text: 'Promoted to senior engineer at the BBC!' },
      {
        id: 'd',
        date: '2025-02-01',
        slot: 'me/job',
        text: 'I went freelance — contracting for a couple of fintechs, mostly TypeScript.',
      },
    ],
    questions: [
      { query: 'what do I do for work', answer: 'd', stale: 'c' },
      { query: 'What was my job?', answer: 'b', stale: 'd', past: true, asOf: '2022-01-01' },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2020-01-01', slot: 'me/rent', text: 'Rent is €1,100 a month.' },
      { id: 'b', date: '2022-01-01', slot: 'me/rent', text: 'Rent went up to €1,250.' },
      { id: 'c', date: '2024-01-01', slot: 'me/rent', text: 'Another increase: we pay 1,400 euros monthly now.' },
    ],
    questions: [
      { query: 'How much rent do we pay?', answer: 'c', stale: 'b' },
      { query: 'How much was the rent?', answer: 'b', stale: 'c', past: true, asOf: '2023-01-01' },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2019-03-03', slot: 'monorepo/package-manager', text: 'The monorepo uses npm.' },
      {
        id: 'b',
        date: '2021-03-03',
        slot: 'monorepo/package-manager',
        text: 'We moved the monorepo to yarn workspaces.',
      },
      {
        id: 'c',
        date: '2024-03-03',
        slot: 'monorepo/package-manager',
        text: 'Yarn is gone; pnpm handles the workspaces now.',
      },
    ],
    questions: [
      { query: 'Which package manager is the monorepo on?', answer: 'c', stale: 'b' },
      { query: 'What did the monorepo use before pnpm?', answer: 'b', stale: 'c', past: true },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2019-10-10', slot: 'ravi/phone', entities: ['Ravi'], text: 'Ravi has a Samsung Galaxy S10.' },
      { id: 'b', date: '2021-10-10', slot: 'ravi/phone', entities: ['Ravi'], text: 'Ravi upgraded to a Galaxy S21.' },
      { id: 'c', date: '2024-10-10', slot: 'ravi/phone', text: 'He switched sides and is using an iPhone 16 now.' },
    ],
    questions: [{ query: 'What phone does Ravi use?', answer: 'c', stale: 'b' }],
  },
  {
    kind: 'chains',
    facts: [
      {
        id: 'a',
        date: '2019-02-14',
        slot: 'nina/relationship',
        entities: ['Nina', 'Tom'],
        text: 'Nina started dating Tom.',
      },
      {
        id: 'b',
        date: '2020-12-24',
        slot: 'nina/relationship',
        entities: ['Nina', 'Tom'],
        text: 'Nina and Tom got engaged on Christmas Eve.',
      },
      {
        id: 'c',
        date: '2022-06-18',
        slot: 'nina/relationship',
        entities: ['Nina', 'Tom'],
        text: 'They tied the knot in Sicily! Nina looked amazing.',
      },
    ],
    questions: [
      { query: 'Are Nina and Tom engaged?', answer: 'c', stale: 'b' },
      { query: "What's Nina's relationship status?", answer: 'b', stale: 'c', past: true, asOf: '2021-06-01' },
    ],
  },
  {
    kind: 'chains',
    facts: [
      {
        id: 'a',
        date: '2020-01-01',
        slot: 'webhook/url',
        text: 'The webhook endpoint is https://hooks.getfern.io/in.',
      },
      { id: 'b', date: '2022-01-01', slot: 'webhook/url', text: 'Webhooks now go to https://api.getfern.io/hooks.' },
      {
        id: 'c',
        date: '2024-01-01',
        slot: 'webhook/url',
        text: 'Changed again: point the Stripe events at https://events.fern.dev/ingest.',
      },
    ],
    questions: [{ query: "What's the webhook URL?", answer: 'c', stale: 'b' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2019-01-01', slot: 'maya/diet', entities: ['Maya'], text: 'Maya went vegetarian.' },
      { id: 'b', date: '2021-01-01', slot: 'maya/diet', entities: ['Maya'], text: 'Maya is vegan now.' },
      {
        id: 'c',
        date: '2023-06-06',
        slot: 'maya/diet',
        entities: ['Maya'],
        text: 'Maya started eating fish again; she calls herself pescatarian.',
      },
    ],
    questions: [{ query: 'Is Maya still vegan?', answer: 'c', stale: 'b' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2023-01-01', slot: 'planning/schedule', text: 'Planning meeting is Monday 9am.' },
      { id: 'b', date: '2023-04-04', slot: 'planning/schedule', text: 'Planning moved to Monday 1pm.' },
      {
        id: 'c',
        date: '2023-09-09',
        slot: 'planning/schedule',
        text: 'Sprint planning happens Tuesdays at 10 from now on.',
      },
    ],
    questions: [{ query: 'When is the planning meeting?', answer: 'c', stale: 'b' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2019-05-05', slot: 'dad/car', text: 'Dad bought a Skoda Octavia when he retired.' },
      { id: 'b', date: '2021-05-05', slot: 'dad/car', text: 'Dad replaced the Skoda with a Honda Jazz.' },
      { id: 'c', date: '2024-05-05', slot: 'dad/car', text: 'Dad has a Renault Zoe now, fully electric.' },
    ],
    order: ['a', 'c', 'b'],
    questions: [{ query: 'What car does Dad drive?', answer: 'c', stale: 'b' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2019-09-09', slot: 'ci/system', text: 'Builds run on Travis CI.' },
      { id: 'b', date: '2021-02-02', slot: 'ci/system', text: 'We moved from Travis to CircleCI.' },
      { id: 'c', date: '2023-11-11', slot: 'ci/system', text: 'CircleCI replaced by GitHub Actions across all repos.' },
    ],
    questions: [
      { query: 'What CI are builds running on?', answer: 'c', stale: 'b' },
      { query: 'What CI do we use?', answer: 'b', stale: 'c', past: true, asOf: '2022-01-01' },
    ],
  },
  {
    kind: 'chains',
    facts: [
      {
        id: 'a',
        date: '2019-04-04',
        slot: 'beatriz/title',
        entities: ['Beatriz', 'Booking.com'],
        text: 'Beatriz joined Booking.com as a senior engineer.',
      },
      {
        id: 'b',
        date: '2021-04-04',
        slot: 'beatriz/title',
        entities: ['Beatriz'],
        text: 'Beatriz got promoted to engineering manager.',
      },
      {
        id: 'c',
        date: '2024-04-04',
        slot: 'beatriz/title',
        entities: ['Beatriz'],
        text: "Another promotion for her — she's Director of Engineering for the hotels platform now.",
      },
    ],
    questions: [
      { query: "What's Beatriz's title at Booking.com?", answer: 'c', stale: 'b' },
      { query: 'What was Beatriz before she became a director?', answer: 'b', stale: 'c', past: true },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2020-01-01', slot: 'brother/residence', text: 'My brother lives in Cardiff.' },
      { id: 'b', date: '2022-01-01', slot: 'brother/residence', text: 'My brother moved to Swansea.' },
      {
        id: 'x',
        date: '2022-06-06',
        slot: 'brother-ex/residence',
        text: "My brother's ex still lives in Cardiff with their dog.",
      },
      {
        id: 'c',
        date: '2024-06-06',
        slot: 'brother/residence',
        text: "My brother's in Cork now, he finally made the jump to Ireland.",
      },
    ],
    questions: [{ query: 'where does my brother live', answer: 'c', stale: 'b' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a', date: '2020-03-03', slot: 'ines/salary', entities: ['Ines'], text: 'Ines earns €42,000 a year.' },
      { id: 'b', date: '2022-03-03', slot: 'ines/salary', entities: ['Ines'], text: 'Ines got a raise to €48k.' },
      {
        id: 'c',
        date: '2024-09-09',
        slot: 'ines/salary',
        entities: ['Ines'],
        text: "Ines's new job pays 61,000 euros.",
      },
    ],
    questions: [{ query: 'How much does Ines earn?', answer: 'c', stale: 'b' }],
  },
];
