import type { UpdateCase } from './case-types.js';

export const CASES: UpdateCase[] = [
  // ───────────────────────────── moves ─────────────────────────────
  {
    kind: 'moves',
    facts: [
      {
        id: 'bcn',
        text: 'Elena moved from Madrid to Barcelona for the new job.',
        date: '2021-04-10',
        entities: ['Elena'],
        slot: 'elena/residence',
      },
      {
        id: 'vlc',
        text: "Elena left Barcelona again; she's in Valencia now, near the beach.",
        date: '2023-06-02',
        entities: ['Elena'],
        slot: 'elena/residence',
      },
    ],
    questions: [
      { query: 'Where does Elena live now?', answer: 'vlc', stale: 'bcn' },
      { query: 'Where did Elena live before Valencia?', answer: 'bcn', stale: 'vlc', past: true },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'leeds',
        text: 'I live in a small flat in Leeds, about ten minutes from the station.',
        date: '2020-09-01',
        slot: 'me/residence',
      },
      {
        id: 'york',
        text: 'We finally bought a house in York and moved in last weekend.',
        date: '2024-02-18',
        slot: 'me/residence',
      },
      {
        id: 'bro',
        text: 'My brother still lives in Leeds with his girlfriend.',
        date: '2024-03-01',
        slot: 'brother/residence',
      },
    ],
    questions: [
      { query: 'what city is the user living in?', answer: 'york', stale: 'leeds' },
      { query: 'Where does my brother live?', answer: 'bro', stale: 'york' },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'austin',
        text: 'Marcus relocated to Austin when his company opened an office there.',
        date: '2019-08-15',
        entities: ['Marcus'],
        slot: 'marcus/residence',
      },
      {
        id: 'seattle',
        text: "He's up in Seattle these days, living on a houseboat on Lake Union.",
        date: '2022-01-20',
        entities: ['Marcus'],
        slot: 'marcus/residence',
      },
    ],
    questions: [{ query: 'Which city is Marcus in?', answer: 'seattle', stale: 'austin' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'toronto',
        text: "My sister Priya is renting a place in Toronto's Annex neighbourhood.",
        date: '2020-03-05',
        entities: ['Priya'],
        slot: 'priya/residence',
      },
      {
        id: 'vancouver',
        text: 'Priya is in Vancouver now — she transferred with her hospital job.',
        date: '2023-10-12',
        entities: ['Priya'],
        slot: 'priya/residence',
      },
    ],
    questions: [{ query: 'where does my sister live', answer: 'vancouver', stale: 'toronto' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'bk',
        text: 'The user lives in Brooklyn, in a walk-up off Bedford Ave.',
        date: '2021-01-10',
        slot: 'user/residence',
      },
      {
        id: 'jc',
        text: 'The user signed a lease in Jersey City and gave up the Brooklyn apartment.',
        date: '2024-05-01',
        slot: 'user/residence',
      },
    ],
    questions: [{ query: 'Where does the user live?', answer: 'jc', stale: 'bk' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'alfama',
        text: 'I live in Lisbon, in an old building in Alfama.',
        date: '2021-05-01',
        slot: 'me/residence',
      },
      {
        id: 'porto',
        text: 'I moved to Porto in March, the rent was just too much in the capital.',
        date: '2023-03-15',
        slot: 'me/residence',
      },
      {
        id: 'tom',
        text: 'Our designer Tom lives in Lisbon and comes into the office on Tuesdays.',
        date: '2023-04-01',
        entities: ['Tom'],
        slot: 'tom/residence',
      },
    ],
    questions: [
      { query: 'where am I living at the moment?', answer: 'porto', stale: 'alfama' },
      { query: 'Which city does Tom live in?', answer: 'tom', stale: 'porto' },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'hh',
        text: 'Jonas lives in Hamburg, close to the harbour.',
        date: '2019-11-02',
        entities: ['Jonas'],
        slot: 'jonas/residence',
      },
      {
        id: 'muc',
        text: 'Jonas moved to Munich after finishing his PhD.',
        date: '2022-07-01',
        entities: ['Jonas'],
        slot: 'jonas/residence',
      },
    ],
    order: ['muc', 'hh'],
    questions: [{ query: 'What city does Jonas live in?', answer: 'muc', stale: 'hh' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'cork',
        text: "My parents' house is in Cork, the one I grew up in.",
        date: '2019-06-01',
        slot: 'parents/residence',
      },
      {
        id: 'kinsale',
        text: 'Mum and Dad sold up and retired to a cottage in Kinsale.',
        date: '2024-09-10',
        slot: 'parents/residence',
      },
    ],
    questions: [
      { query: 'Where do my parents live now?', answer: 'kinsale', stale: 'cork' },
      { query: 'where did my folks live before they retired?', answer: 'cork', stale: 'kinsale', past: true },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'chi',
        text: 'Dana lives in Chicago, in Logan Square.',
        date: '2020-02-02',
        entities: ['Dana'],
        slot: 'dana/residence',
      },
      {
        id: 'msp',
        text: 'Dana moved again, this time to Minneapolis — the remote job made it possible.',
        date: '2023-08-08',
        entities: ['Dana'],
        slot: 'dana/residence',
      },
    ],
    questions: [{ query: "What's Dana's home city?", answer: 'msp', stale: 'chi' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'munich',
        text: "I'm based in Munich, working out of a co-working space in Schwabing.",
        date: '2022-01-05',
        slot: 'me/residence',
      },
      { id: 'berlin', text: "I'm in Berlin now.", date: '2025-01-12', slot: 'me/residence' },
    ],
    questions: [{ query: 'where is the user based?', answer: 'berlin', stale: 'munich' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'osaka',
        text: 'Kenji lives in Osaka with his family.',
        date: '2019-04-01',
        entities: ['Kenji'],
        slot: 'kenji/residence',
      },
      {
        id: 'tokyo',
        text: 'Kenji moved to Tokyo for work; his wife and kids followed a few months later.',
        date: '2021-09-01',
        entities: ['Kenji'],
        slot: 'kenji/residence',
      },
    ],
    questions: [
      { query: 'Where does Kenji live?', answer: 'tokyo', stale: 'osaka' },
      { query: 'Where does Kenji live?', answer: 'osaka', stale: 'tokyo', past: true, asOf: '2020-05-01' },
    ],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'rome',
        text: 'Sofia lives in Rome, near Trastevere.',
        date: '2020-10-10',
        entities: ['Sofia'],
        slot: 'sofia/residence',
      },
      {
        id: 'milan',
        text: 'Sofia is no longer in Rome; she took a flat in Milan last month.',
        date: '2024-01-20',
        entities: ['Sofia'],
        slot: 'sofia/residence',
      },
    ],
    questions: [{ query: 'What city is Sofia living in?', answer: 'milan', stale: 'rome' }],
  },
  {
    kind: 'moves',
    facts: [
      { id: 'abuja', text: 'I live in Abuja and work at the ministry.', date: '2019-09-09', slot: 'me/residence' },
      {
        id: 'ade',
        text: 'My best friend Ade lives in Lagos, on the mainland.',
        date: '2020-01-01',
        entities: ['Ade'],
        slot: 'ade/residence',
      },
      {
        id: 'lagos',
        text: "We packed up and moved to Lagos to be near Ade and the kids' new school.",
        date: '2022-12-01',
        entities: ['Ade'],
        slot: 'me/residence',
      },
    ],
    questions: [{ query: 'where do we live now', answer: 'lagos', stale: 'abuja' }],
  },
  {
    kind: 'moves',
    facts: [
      {
        id: 'farm',
        text: 'Lars lives on a farm outside Uppsala with two dogs and a lot of sheep.',
        date: '2019-05-20',
        entities: ['Lars'],
        slot: 'lars/residence',
      },
      {
        id: 'sthlm',
        text: "Lars and his wife bought an apartment in Södermalm; he says he doesn't miss the sheep.",
        date: '2023-03-03',
        entities: ['Lars'],
        slot: 'lars/residence',
      },
    ],
    questions: [
      { query: "where's Lars living these days?", answer: 'sthlm', stale: 'farm' },
      { query: 'Where did Lars live before Stockholm?', answer: 'farm', stale: 'sthlm', past: true },
    ],
  },

  // ───────────────────────────── jobs ─────────────────────────────
  {
    kind: 'jobs',
    facts: [
      {
        id: 'senior',
        text: 'Tomás is a senior engineer on the payments team at Adyen.',
        date: '2021-03-01',
        entities: ['Tomás', 'Adyen'],
        slot: 'tomas/title',
      },
      {
        id: 'director',
        text: "Tomás got promoted — he's Director of Engineering for payments at Adyen.",
        date: '2024-02-15',
        entities: ['Tomás', 'Adyen'],
        slot: 'tomas/title',
      },
    ],
    questions: [
      { query: "What's Tomás's title?", answer: 'director', stale: 'senior' },
      { query: 'What was Tomás doing before he became a director?', answer: 'senior', stale: 'director', past: true },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'spotify',
        text: 'I work as a UX designer at Spotify.',
        date: '2020-01-15',
        entities: ['Spotify'],
        slot: 'me/employer',
      },
      {
        id: 'freelance',
        text: 'I left Spotify and went freelance; mostly fintech clients now.',
        date: '2023-05-01',
        slot: 'me/employer',
      },
    ],
    questions: [{ query: 'Who does the user work for?', answer: 'freelance', stale: 'spotify' }],
  },
  {
    kind: 'jobs',
    facts: [
      { id: 'teach', text: 'My dad teaches chemistry at the local high school.', date: '2019-09-01', slot: 'dad/job' },
      {
        id: 'retired',
        text: 'Dad retired in June after 34 years in the classroom.',
        date: '2023-06-30',
        slot: 'dad/job',
      },
    ],
    questions: [{ query: 'is my father still working as a teacher?', answer: 'retired', stale: 'teach' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'stripe',
        text: 'Nadia works at Stripe as a backend engineer.',
        date: '2020-06-01',
        entities: ['Nadia', 'Stripe'],
        slot: 'nadia/employer',
      },
      {
        id: 'ravi',
        text: 'Her teammate Ravi works at Stripe too, on the billing side.',
        date: '2021-01-01',
        entities: ['Ravi', 'Stripe'],
        slot: 'ravi/employer',
      },
      {
        id: 'shopify',
        text: 'Nadia joined Shopify in January to lead the checkout team.',
        date: '2024-01-10',
        entities: ['Nadia', 'Shopify'],
        slot: 'nadia/employer',
      },
    ],
    questions: [
      { query: 'Where does Nadia work?', answer: 'shopify', stale: 'stripe' },
      { query: 'Which company is Ravi at?', answer: 'ravi', stale: 'shopify' },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      { id: 'junior', text: "I'm a junior data analyst at the council.", date: '2019-10-01', slot: 'me/title' },
      {
        id: 'ds',
        text: "I'm a data scientist now — same team, new title and a decent raise.",
        date: '2022-04-01',
        slot: 'me/title',
      },
    ],
    questions: [{ query: 'what is my job title', answer: 'ds', stale: 'junior' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'nurse',
        text: "Grace is a nurse at St Thomas' Hospital.",
        date: '2020-02-01',
        entities: ['Grace'],
        slot: 'grace/job',
      },
      {
        id: 'doctor',
        text: "Grace finished medical school and is a junior doctor at King's College Hospital.",
        date: '2025-08-01',
        entities: ['Grace'],
        slot: 'grace/job',
      },
    ],
    order: ['doctor', 'nurse'],
    questions: [{ query: 'What does Grace do for work?', answer: 'doctor', stale: 'nurse' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'deloitte',
        text: 'The user is employed by Deloitte in their Dublin office.',
        date: '2019-05-01',
        entities: ['Deloitte'],
        slot: 'user/employer',
      },
      {
        id: 'accenture',
        text: 'The user switched to Accenture last autumn, same city.',
        date: '2021-11-01',
        entities: ['Accenture'],
        slot: 'user/employer',
      },
    ],
    questions: [
      { query: 'Which consulting firm does the user work at?', answer: 'accenture', stale: 'deloitte' },
      { query: 'Who does the user work for?', answer: 'deloitte', stale: 'accenture', past: true, asOf: '2020-06-01' },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'chef',
        text: 'Mei is the head chef at a ramen place in Shoreditch.',
        date: '2021-07-01',
        entities: ['Mei'],
        slot: 'mei/job',
      },
      {
        id: 'own',
        text: 'She opened her own restaurant in Hackney in the spring — small, twenty covers.',
        date: '2024-04-01',
        entities: ['Mei'],
        slot: 'mei/job',
      },
    ],
    questions: [{ query: 'what does Mei do now?', answer: 'own', stale: 'chef' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'ae',
        text: "I'm an account executive at HubSpot.",
        date: '2021-01-01',
        entities: ['HubSpot'],
        slot: 'me/title',
      },
      {
        id: 'karen',
        text: 'My manager Karen is the VP of Sales.',
        date: '2021-01-01',
        entities: ['Karen'],
        slot: 'karen/title',
      },
      {
        id: 'mgr',
        text: 'Got promoted to sales manager — I run a team of six now.',
        date: '2023-09-01',
        slot: 'me/title',
      },
    ],
    questions: [
      { query: "What's my position at HubSpot?", answer: 'mgr', stale: 'ae' },
      { query: "What is Karen's title?", answer: 'karen', stale: 'mgr' },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'lorry',
        text: 'Uncle Bill drives a lorry for Eddie Stobart.',
        date: '2019-03-01',
        entities: ['Bill'],
        slot: 'bill/job',
      },
      {
        id: 'fishing',
        text: "He's hung up the keys — retired last month and took up fishing.",
        date: '2022-05-01',
        slot: 'bill/job',
      },
    ],
    questions: [{ query: 'What does Uncle Bill do for a living?', answer: 'fishing', stale: 'lorry' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'photog',
        text: 'Leo is a freelance photographer, mostly weddings.',
        date: '2020-04-01',
        entities: ['Leo'],
        slot: 'leo/job',
      },
      {
        id: 'guardian',
        text: 'Leo took a staff job as a photo editor at The Guardian.',
        date: '2023-02-01',
        entities: ['Leo', 'The Guardian'],
        slot: 'leo/job',
      },
    ],
    questions: [
      { query: 'Is Leo still freelancing?', answer: 'guardian', stale: 'photog' },
      { query: 'What did Leo do before The Guardian?', answer: 'photog', stale: 'guardian', past: true },
    ],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'monzo',
        text: "I'm on the platform team at Monzo.",
        date: '2022-01-01',
        entities: ['Monzo'],
        slot: 'me/employer',
      },
      {
        id: 'revolut',
        text: "Starting Monday I'm at Revolut — signed the offer yesterday.",
        date: '2024-07-20',
        entities: ['Revolut'],
        slot: 'me/employer',
      },
    ],
    questions: [{ query: 'which bank do i work at', answer: 'revolut', stale: 'monzo' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'y4',
        text: 'Hannah teaches Year 4 at Oakfield Primary.',
        date: '2020-09-01',
        entities: ['Hannah'],
        slot: 'hannah/job',
      },
      {
        id: 'deputy',
        text: "Hannah's the deputy head at Oakfield now, barely any classroom time.",
        date: '2024-09-01',
        entities: ['Hannah'],
        slot: 'hannah/job',
      },
    ],
    questions: [{ query: "What is Hannah's job?", answer: 'deputy', stale: 'y4' }],
  },
  {
    kind: 'jobs',
    facts: [
      {
        id: 'chair',
        text: 'Professor Okafor chairs the physics department.',
        date: '2019-01-01',
        entities: ['Okafor'],
        slot: 'okafor/role',
      },
      {
        id: 'emeritus',
        text: 'Okafor is no longer department chair; he retired at the end of term and is emeritus now.',
        date: '2025-01-15',
        entities: ['Okafor'],
        slot: 'okafor/role',
      },
    ],
    questions: [
      { query: "What's Professor Okafor's position at the university?", answer: 'emeritus', stale: 'chair' },
      {
        query: "What's Professor Okafor's position at the university?",
        answer: 'chair',
        stale: 'emeritus',
        past: true,
        asOf: '2022-03-01',
      },
    ],
  },

  // ───────────────────────────── relationships ─────────────────────────────
  {
    kind: 'relationships',
    facts: [
      {
        id: 'dating',
        text: 'Sam has been seeing a guy called Theo for about a year.',
        date: '2021-05-01',
        entities: ['Sam', 'Theo'],
        slot: 'sam/relationship',
      },
      {
        id: 'engaged',
        text: 'Sam and Theo got engaged in Lisbon over the weekend!',
        date: '2022-08-14',
        entities: ['Sam', 'Theo'],
        slot: 'sam/relationship',
      },
    ],
    questions: [{ query: "What's Sam's relationship status?", answer: 'engaged', stale: 'dating' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'engaged',
        text: 'My cousin Ana is engaged to Diego.',
        date: '2022-01-01',
        entities: ['Ana', 'Diego'],
        slot: 'ana/relationship',
      },
      {
        id: 'wed',
        text: 'Ana and Diego tied the knot in Seville on Saturday.',
        date: '2023-06-10',
        entities: ['Ana', 'Diego'],
        slot: 'ana/relationship',
      },
    ],
    questions: [
      { query: 'is my cousin Ana married?', answer: 'wed', stale: 'engaged' },
      { query: "What was Ana's relationship status before the wedding?", answer: 'engaged', stale: 'wed', past: true },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'married',
        text: "Mark is married to Julie; they've got two kids.",
        date: '2019-02-01',
        entities: ['Mark', 'Julie'],
        slot: 'mark/relationship',
      },
      {
        id: 'divorced',
        text: 'Mark and Julie divorced last year and share custody of the kids.',
        date: '2024-03-01',
        entities: ['Mark', 'Julie'],
        slot: 'mark/relationship',
      },
    ],
    questions: [{ query: 'Is Mark still married?', answer: 'divorced', stale: 'married' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'chloe',
        text: "I'm dating Chloe, we met at the climbing gym.",
        date: '2023-01-10',
        entities: ['Chloe'],
        slot: 'me/partner',
      },
      {
        id: 'split',
        text: 'Chloe and I broke up in November. It was mutual, mostly.',
        date: '2023-11-20',
        entities: ['Chloe'],
        slot: 'me/partner',
      },
    ],
    questions: [{ query: 'who is the user dating', answer: 'split', stale: 'chloe' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'gf',
        text: "My brother Raj has a girlfriend, Meera, who's a vet.",
        date: '2020-01-01',
        entities: ['Raj', 'Meera'],
        slot: 'raj/relationship',
      },
      {
        id: 'wife',
        text: 'He married Meera last month in Jaipur — three days of celebrations.',
        date: '2022-12-05',
        entities: ['Raj', 'Meera'],
        slot: 'raj/relationship',
      },
    ],
    questions: [{ query: 'is my brother married?', answer: 'wife', stale: 'gf' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'single',
        text: 'Jenna is single and on all the apps.',
        date: '2021-01-01',
        entities: ['Jenna'],
        slot: 'jenna/relationship',
      },
      {
        id: 'kate',
        text: "Jenna's sister Kate just got engaged to her boyfriend of six years.",
        date: '2022-04-01',
        entities: ['Kate', 'Jenna'],
        slot: 'kate/relationship',
      },
      {
        id: 'luke',
        text: 'Jenna is seeing someone new — a firefighter named Luke.',
        date: '2022-06-01',
        entities: ['Jenna', 'Luke'],
        slot: 'jenna/relationship',
      },
    ],
    questions: [
      { query: 'Is Jenna seeing anyone?', answer: 'luke', stale: 'single' },
      { query: "What's the news with Kate's relationship?", answer: 'kate', stale: 'luke' },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'married',
        text: 'Olivia is married to Ben; they live in Bristol.',
        date: '2019-07-01',
        entities: ['Olivia', 'Ben'],
        slot: 'olivia/relationship',
      },
      {
        id: 'divorce',
        text: 'Olivia and Ben separated and the divorce went through in March.',
        date: '2023-03-15',
        entities: ['Olivia', 'Ben'],
        slot: 'olivia/relationship',
      },
    ],
    order: ['divorce', 'married'],
    questions: [{ query: 'Who is Olivia married to?', answer: 'divorce', stale: 'married' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'gf',
        text: "The user's girlfriend is named Hana.",
        date: '2020-05-01',
        entities: ['Hana'],
        slot: 'user/partner',
      },
      {
        id: 'wife',
        text: 'The user and Hana got married this spring, so Hana is his wife now.',
        date: '2023-04-20',
        entities: ['Hana'],
        slot: 'user/partner',
      },
    ],
    questions: [
      { query: 'is the user married?', answer: 'wife', stale: 'gf' },
      { query: "Who is the user's girlfriend?", answer: 'gf', stale: 'wife', past: true, asOf: '2021-06-01' },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'paolo',
        text: "Irene's partner is Paolo; they've lived together for years.",
        date: '2020-02-01',
        entities: ['Irene', 'Paolo'],
        slot: 'irene/relationship',
      },
      {
        id: 'ended',
        text: 'Irene is no longer with Paolo — she ended it over the summer.',
        date: '2024-08-01',
        entities: ['Irene', 'Paolo'],
        slot: 'irene/relationship',
      },
    ],
    questions: [{ query: "Who is Irene's partner?", answer: 'ended', stale: 'paolo' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'proposal',
        text: 'My best mate Callum proposed to Erin on the beach in Cornwall.',
        date: '2021-09-01',
        entities: ['Callum', 'Erin'],
        slot: 'callum/relationship',
      },
      {
        id: 'wedding',
        text: 'They got married at a barn venue in Devon — small wedding, forty guests.',
        date: '2022-09-17',
        slot: 'callum/relationship',
      },
    ],
    questions: [{ query: 'Are Callum and Erin married yet?', answer: 'wedding', stale: 'proposal' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'sep',
        text: "My husband and I are separated; I'm staying at my mother's for now.",
        date: '2022-02-01',
        slot: 'me/marriage',
      },
      { id: 'back', text: 'We got back together and he moved home in May.', date: '2022-05-20', slot: 'me/marriage' },
    ],
    questions: [
      { query: 'am I still separated from my husband?', answer: 'back', stale: 'sep' },
      { query: 'What was going on with my marriage before we reconciled?', answer: 'sep', stale: 'back', past: true },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'start',
        text: 'Ellie started dating Noor in February.',
        date: '2024-02-14',
        entities: ['Ellie', 'Noor'],
        slot: 'ellie/relationship',
      },
      {
        id: 'over',
        text: "Ellie and Noor split up after eight months; she's taking a break from dating.",
        date: '2024-10-10',
        entities: ['Ellie', 'Noor'],
        slot: 'ellie/relationship',
      },
    ],
    questions: [{ query: 'who is Ellie with?', answer: 'over', stale: 'start' }],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'eng',
        text: 'Victor is engaged to his long-time partner, Simone.',
        date: '2024-01-01',
        entities: ['Victor', 'Simone'],
        slot: 'victor/relationship',
      },
      {
        id: 'hugo',
        text: "Victor's brother Hugo is married to Claire.",
        date: '2024-02-01',
        entities: ['Hugo', 'Claire', 'Victor'],
        slot: 'hugo/relationship',
      },
      {
        id: 'knot',
        text: 'Victor and Simone tied the knot at a registry office in Lyon.',
        date: '2025-05-03',
        entities: ['Victor', 'Simone'],
        slot: 'victor/relationship',
      },
    ],
    questions: [
      { query: 'Is Victor married?', answer: 'knot', stale: 'eng' },
      { query: 'Who is Victor engaged to?', answer: 'eng', stale: 'knot', past: true, asOf: '2024-06-01' },
    ],
  },
  {
    kind: 'relationships',
    facts: [
      {
        id: 'widower',
        text: 'Grandpa Joe has been a widower since Nana died.',
        date: '2019-03-01',
        entities: ['Joe'],
        slot: 'joe/relationship',
      },
      {
        id: 'doris',
        text: 'Grandpa Joe remarried — his new wife, Doris, is from his bowls club.',
        date: '2025-02-14',
        entities: ['Joe', 'Doris'],
        slot: 'joe/relationship',
      },
    ],
    questions: [{ query: 'Is Grandpa Joe single?', answer: 'doris', stale: 'widower' }],
  },

  // ───────────────────────────── likes ─────────────────────────────
  {
    kind: 'likes',
    facts: [
      { id: 'radiohead', text: 'My favourite band is Radiohead.', date: '2019-05-01', slot: 'me/favourite-band' },
      {
        id: 'fdc',
        text: "These days I'm obsessed with Fontaines D.C.; they've knocked Radiohead off the top spot.",
        date: '2024-02-01',
        slot: 'me/favourite-band',
      },
    ],
    questions: [
      { query: "what's my favorite band?", answer: 'fdc', stale: 'radiohead' },
      { query: 'Which band did I like most before Fontaines D.C.?', answer: 'radiohead', stale: 'fdc', past: true },
    ],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'black', text: 'I take my coffee black, no sugar.', date: '2020-01-01', slot: 'me/coffee' },
      {
        id: 'oat',
        text: "I switched to oat flat whites — can't stomach black coffee anymore.",
        date: '2023-03-01',
        slot: 'me/coffee',
      },
    ],
    questions: [{ query: 'How does the user take their coffee?', answer: 'oat', stale: 'black' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'sushi',
        text: "Lena's favourite food is sushi.",
        date: '2021-01-01',
        entities: ['Lena'],
        slot: 'lena/favourite-food',
      },
      {
        id: 'omar',
        text: "Omar's favourite food is his mum's biryani.",
        date: '2021-02-01',
        entities: ['Omar'],
        slot: 'omar/favourite-food',
      },
      {
        id: 'pierogi',
        text: "Lena says the best thing to eat is her grandmother's pierogi; sushi is a distant second now.",
        date: '2023-11-11',
        entities: ['Lena'],
        slot: 'lena/favourite-food',
      },
    ],
    questions: [
      { query: "What's Lena's favorite food?", answer: 'pierogi', stale: 'sushi' },
      { query: 'What does Omar like to eat most?', answer: 'omar', stale: 'pierogi' },
    ],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'bb', text: "The user's favourite show is Breaking Bad.", date: '2019-08-01', slot: 'user/favourite-show' },
      {
        id: 'succession',
        text: "The user now says Succession is the best thing they've ever watched.",
        date: '2023-06-01',
        slot: 'user/favourite-show',
      },
    ],
    questions: [{ query: "what's the user's favourite TV series", answer: 'succession', stale: 'bb' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'atleti',
        text: 'Diego supports Atlético Madrid.',
        date: '2020-01-01',
        entities: ['Diego'],
        slot: 'diego/team',
      },
      {
        id: 'betis',
        text: "He's switched allegiance to Real Betis since moving to Seville, much to his dad's horror.",
        date: '2024-09-01',
        entities: ['Diego'],
        slot: 'diego/team',
      },
    ],
    questions: [
      { query: 'Which football club does Diego support?', answer: 'betis', stale: 'atleti' },
      { query: 'Which club did Diego follow before Betis?', answer: 'atleti', stale: 'betis', past: true },
    ],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'window', text: 'I always book a window seat on flights.', date: '2019-10-01', slot: 'me/seat-preference' },
      {
        id: 'aisle',
        text: 'Aisle for me now please — much easier to get up on long-hauls.',
        date: '2022-10-01',
        slot: 'me/seat-preference',
      },
    ],
    questions: [{ query: 'Which seat should I book for the user on the flight?', answer: 'aisle', stale: 'window' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'green',
        text: "Kai's favourite colour is green.",
        date: '2020-04-01',
        entities: ['Kai'],
        slot: 'kai/favourite-colour',
      },
      {
        id: 'purple',
        text: 'Kai announced that purple is his favourite now, like everything in his room.',
        date: '2024-04-01',
        entities: ['Kai'],
        slot: 'kai/favourite-colour',
      },
    ],
    order: ['purple', 'green'],
    questions: [{ query: 'What colour does Kai like best?', answer: 'purple', stale: 'green' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'hiphop',
        text: 'Aisha mostly listens to hip-hop.',
        date: '2021-06-01',
        entities: ['Aisha'],
        slot: 'aisha/music',
      },
      {
        id: 'jazz',
        text: "These days Aisha is really into jazz — she's got a record player and everything.",
        date: '2025-01-01',
        entities: ['Aisha'],
        slot: 'aisha/music',
      },
    ],
    questions: [{ query: 'What kind of music is Aisha into?', answer: 'jazz', stale: 'hiphop' }],
  },
  {
    kind: 'likes',
    facts: [
      { id: 'red', text: 'My wife prefers red wine, especially Rioja.', date: '2020-12-01', slot: 'wife/wine' },
      {
        id: 'white',
        text: 'My wife has gone off red — she only drinks crisp whites like Albariño now.',
        date: '2023-07-01',
        slot: 'wife/wine',
      },
    ],
    questions: [{ query: 'what wine should I pick up for my wife?', answer: 'white', stale: 'red' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'remains',
        text: 'My favourite novel is The Remains of the Day.',
        date: '2019-02-01',
        slot: 'me/favourite-book',
      },
      {
        id: 'club',
        text: "My book club's pick this month is Middlemarch.",
        date: '2022-01-01',
        slot: 'book-club/current-book',
      },
      {
        id: 'middlemarch',
        text: "I reread Middlemarch and it's my favourite novel now, hands down.",
        date: '2022-03-01',
        slot: 'me/favourite-book',
      },
    ],
    questions: [{ query: "What's my favourite book?", answer: 'middlemarch', stale: 'remains' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'thai',
        text: 'Our go-to takeaway on Fridays is the Thai place on Mill Road.',
        date: '2020-01-01',
        slot: 'us/friday-takeaway',
      },
      {
        id: 'pizza',
        text: 'Friday night food is usually pizza from Pizzeria Bella these days; the Thai place closed.',
        date: '2024-05-01',
        slot: 'us/friday-takeaway',
      },
    ],
    questions: [
      { query: 'Where do we usually order from on Fridays?', answer: 'pizza', stale: 'thai' },
      { query: 'What was our Friday takeaway before Pizzeria Bella?', answer: 'thai', stale: 'pizza', past: true },
    ],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'beach',
        text: 'Ingrid loves beach holidays and hates the cold.',
        date: '2019-06-01',
        entities: ['Ingrid'],
        slot: 'ingrid/holiday-preference',
      },
      {
        id: 'ski',
        text: "Ingrid's been converted: she prefers ski trips now and goes to the Alps every winter.",
        date: '2023-01-15',
        entities: ['Ingrid'],
        slot: 'ingrid/holiday-preference',
      },
    ],
    questions: [{ query: 'What kind of holidays does Ingrid like?', answer: 'ski', stale: 'beach' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'strawberry',
        text: "My son's favourite ice cream flavour is strawberry.",
        date: '2021-07-01',
        slot: 'son/ice-cream',
      },
      {
        id: 'mint',
        text: 'The little one will only eat mint choc chip now.',
        date: '2024-07-01',
        slot: 'son/ice-cream',
      },
    ],
    questions: [{ query: 'what ice cream should I get my son?', answer: 'mint', stale: 'strawberry' }],
  },
  {
    kind: 'likes',
    facts: [
      {
        id: 'minecraft',
        text: "Felix's favourite game is Minecraft.",
        date: '2020-01-01',
        entities: ['Felix'],
        slot: 'felix/favourite-game',
      },
      {
        id: 'zelda',
        text: 'Felix has moved on — Zelda: Tears of the Kingdom is the only thing he plays.',
        date: '2023-06-01',
        entities: ['Felix'],
        slot: 'felix/favourite-game',
      },
    ],
    questions: [
      { query: 'What video game does Felix love most?', answer: 'zelda', stale: 'minecraft' },
      { query: "What's Felix's favourite game?", answer: 'minecraft', stale: 'zelda', past: true, asOf: '2021-01-01' },
    ],
  },

  // ───────────────────────────── diet ─────────────────────────────
  {
    kind: 'diet',
    facts: [
      {
        id: 'omni',
        text: 'I eat pretty much everything — big fan of a good steak.',
        date: '2019-01-01',
        slot: 'me/diet',
      },
      { id: 'veggie', text: 'I went vegetarian in January, no meat or fish.', date: '2022-01-05', slot: 'me/diet' },
    ],
    questions: [{ query: 'Does the user eat meat?', answer: 'veggie', stale: 'omni' }],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'veg',
        text: 'Marta is vegetarian but still eats cheese and eggs.',
        date: '2020-03-01',
        entities: ['Marta'],
        slot: 'marta/diet',
      },
      {
        id: 'vegan',
        text: "She's gone fully vegan now, no dairy or eggs either.",
        date: '2023-01-01',
        entities: ['Marta'],
        slot: 'marta/diet',
      },
    ],
    questions: [
      { query: 'What diet is Marta on?', answer: 'vegan', stale: 'veg' },
      { query: 'What does Marta eat?', answer: 'veg', stale: 'vegan', past: true, asOf: '2021-06-01' },
    ],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'cups',
        text: 'I have two cups of coffee every morning before work.',
        date: '2021-01-01',
        slot: 'me/caffeine',
      },
      {
        id: 'quit',
        text: 'I gave up caffeine completely in March; decaf only.',
        date: '2024-03-10',
        slot: 'me/caffeine',
      },
    ],
    questions: [{ query: 'how much coffee do I drink', answer: 'quit', stale: 'cups' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'nofish', text: "Jack doesn't eat fish.", date: '2019-05-01', entities: ['Jack'], slot: 'jack/fish' },
      {
        id: 'fish',
        text: 'Jack started eating fish again — his doctor told him he needs the omega-3.',
        date: '2022-02-01',
        entities: ['Jack'],
        slot: 'jack/fish',
      },
    ],
    questions: [{ query: 'Can I serve salmon when Jack comes over?', answer: 'fish', stale: 'nofish' }],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'gf',
        text: 'The user follows a gluten-free diet after a coeliac scare.',
        date: '2020-06-01',
        slot: 'user/gluten',
      },
      {
        id: 'bread',
        text: "Turns out the user isn't coeliac after all; they're back on normal bread and pasta.",
        date: '2021-02-01',
        slot: 'user/gluten',
      },
    ],
    questions: [{ query: 'Does the user need gluten-free food?', answer: 'bread', stale: 'gf' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'husband', text: 'My husband is vegan.', date: '2021-01-01', slot: 'husband/diet' },
      { id: 'pesc', text: "I'm pescatarian.", date: '2021-01-01', slot: 'me/diet' },
      { id: 'veg', text: "I dropped fish as well, so I'm fully vegetarian now.", date: '2023-05-01', slot: 'me/diet' },
    ],
    questions: [
      { query: 'am I pescatarian?', answer: 'veg', stale: 'pesc' },
      { query: 'What does my husband eat?', answer: 'husband', stale: 'veg' },
    ],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'wine',
        text: 'Rosa drinks a glass of wine most evenings.',
        date: '2020-01-01',
        entities: ['Rosa'],
        slot: 'rosa/alcohol',
      },
      {
        id: 'sober',
        text: "Rosa has been sober since New Year's — not touching alcohol at all.",
        date: '2024-01-01',
        entities: ['Rosa'],
        slot: 'rosa/alcohol',
      },
    ],
    questions: [{ query: 'Does Rosa drink?', answer: 'sober', stale: 'wine' }],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'keto',
        text: 'Ben is doing keto, basically no carbs.',
        date: '2022-01-10',
        entities: ['Ben'],
        slot: 'ben/diet',
      },
      {
        id: 'carbs',
        text: 'Ben gave up on keto and eats carbs again, just smaller portions.',
        date: '2022-09-01',
        entities: ['Ben'],
        slot: 'ben/diet',
      },
    ],
    order: ['carbs', 'keto'],
    questions: [{ query: 'Is Ben still doing keto?', answer: 'carbs', stale: 'keto' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'nodairy', text: "I'm avoiding dairy since the eczema flare-up.", date: '2020-04-01', slot: 'me/dairy' },
      {
        id: 'cheese',
        text: "The dermatologist cleared me — I'm eating cheese and yogurt again.",
        date: '2021-08-01',
        slot: 'me/dairy',
      },
    ],
    questions: [{ query: 'Can the user have dairy?', answer: 'cheese', stale: 'nodairy' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'veg', text: 'Kofi is a vegetarian.', date: '2019-03-01', entities: ['Kofi'], slot: 'kofi/diet' },
      {
        id: 'chicken',
        text: 'Kofi is no longer vegetarian; he eats chicken now, mostly for the protein while training.',
        date: '2021-11-01',
        entities: ['Kofi'],
        slot: 'kofi/diet',
      },
    ],
    questions: [
      { query: 'what does kofi eat', answer: 'chicken', stale: 'veg' },
      {
        query: 'What diet did Kofi follow before he started eating chicken?',
        answer: 'veg',
        stale: 'chicken',
        past: true,
      },
    ],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'fast',
        text: 'I skip breakfast — doing 16:8 intermittent fasting.',
        date: '2022-02-01',
        slot: 'me/breakfast',
      },
      {
        id: 'porridge',
        text: "I'm eating in the mornings again, usually porridge; the fasting wasn't doing anything.",
        date: '2023-02-01',
        slot: 'me/breakfast',
      },
    ],
    questions: [{ query: 'Does the user eat breakfast?', answer: 'porridge', stale: 'fast' }],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'nored',
        text: 'Tanya stopped eating red meat last year.',
        date: '2020-05-01',
        entities: ['Tanya'],
        slot: 'tanya/red-meat',
      },
      {
        id: 'beef',
        text: "Tanya's eating beef again since she was diagnosed as anaemic.",
        date: '2023-05-01',
        entities: ['Tanya'],
        slot: 'tanya/red-meat',
      },
    ],
    questions: [{ query: 'Does Tanya eat red meat?', answer: 'beef', stale: 'nored' }],
  },
  {
    kind: 'diet',
    facts: [
      { id: 'vegan', text: 'My partner has been vegan for five years.', date: '2019-09-01', slot: 'partner/diet' },
      {
        id: 'ovo',
        text: 'My partner started having eggs and cheese again, so vegetarian rather than vegan these days.',
        date: '2024-09-01',
        slot: 'partner/diet',
      },
    ],
    questions: [
      { query: 'Is my partner vegan?', answer: 'ovo', stale: 'vegan' },
      { query: 'What diet does my partner follow?', answer: 'vegan', stale: 'ovo', past: true, asOf: '2022-01-01' },
    ],
  },
  {
    kind: 'diet',
    facts: [
      {
        id: 'coke',
        text: 'Owen drinks about three cans of Coke a day.',
        date: '2020-01-01',
        entities: ['Owen'],
        slot: 'owen/soft-drinks',
      },
      {
        id: 'water',
        text: 'Owen quit fizzy drinks cold turkey; just water and tea for him.',
        date: '2023-03-01',
        entities: ['Owen'],
        slot: 'owen/soft-drinks',
      },
    ],
    questions: [
      { query: 'What does Owen drink?', answer: 'water', stale: 'coke' },
      { query: 'How much Coke was Owen having before he quit?', answer: 'coke', stale: 'water', past: true },
    ],
  },

  // ───────────────────────────── corrections ─────────────────────────────
  {
    kind: 'corrections',
    facts: [
      {
        id: 'tue',
        text: 'My dentist appointment is on Tuesday the 14th.',
        date: '2024-05-06',
        slot: 'me/dentist-appointment',
      },
      {
        id: 'wed',
        text: "Actually it's Wednesday the 15th for the dentist, not Tuesday.",
        date: '2024-05-07',
        slot: 'me/dentist-appointment',
      },
    ],
    order: ['wed', 'tue'],
    questions: [{ query: 'When is my dentist appointment?', answer: 'wed', stale: 'tue' }],
  },
  {
    kind: 'corrections',
    facts: [
      {
        id: 'twelve',
        text: "Sarah's birthday is on 12 March.",
        date: '2021-02-01',
        entities: ['Sarah'],
        slot: 'sarah/birthday',
      },
      {
        id: 'twentyone',
        text: "I got that wrong — Sarah's birthday is the 21st of March, I swapped the digits.",
        date: '2021-02-10',
        entities: ['Sarah'],
        slot: 'sarah/birthday',
      },
    ],
    questions: [
      { query: "When is Sarah's birthday?", answer: 'twentyone', stale: 'twelve' },
      { query: "What date did I first give for Sarah's birthday?", answer: 'twelve', stale: 'twentyone', past: true },
    ],
  },
  {
    kind: 'corrections',
    facts: [
      {
        id: 'pg13',
        text: 'The staging database is Postgres 13.',
        date: '2023-01-01',
        slot: 'staging/postgres-version',
      },
      {
        id: 'pg14',
        text: 'Correction: staging runs Postgres 14, I was looking at the old cluster.',
        date: '2023-01-02',
        slot: 'staging/postgres-version',
      },
    ],
    order: ['pg14', 'pg13'],
    questions: [{ query: 'Which Postgres version is on staging?', answer: 'pg14', stale: 'pg13' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'gareth', text: "My neighbour's name is Gareth.", date: '2022-04-01', slot: 'neighbour/name' },
      {
        id: 'gavin',
        text: 'Sorry, the guy next door is called Gavin, not Gareth.',
        date: '2022-04-05',
        slot: 'neighbour/name',
      },
    ],
    questions: [{ query: "What's my neighbour's name?", answer: 'gavin', stale: 'gareth' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'ours', text: 'Our flight lands at 14:20.', date: '2024-07-01', slot: 'our-flight/arrival' },
      { id: 'parents', text: "My parents' flight lands at 16:05.", date: '2024-07-01', slot: 'parents-flight/arrival' },
      {
        id: 'fixed',
        text: 'Wait, I misread the ticket — we get in at 15:20, an hour later than I said.',
        date: '2024-07-02',
        slot: 'our-flight/arrival',
      },
    ],
    order: ['fixed', 'ours', 'parents'],
    questions: [
      { query: 'What time does our flight land?', answer: 'fixed', stale: 'ours' },
      { query: "When does my parents' flight arrive?", answer: 'parents', stale: 'fixed' },
    ],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'seven', text: "The user's daughter is 7.", date: '2023-03-01', slot: 'daughter/age' },
      {
        id: 'nine',
        text: 'The user corrected me: their daughter is 9, not 7.',
        date: '2023-03-03',
        slot: 'daughter/age',
      },
    ],
    questions: [{ query: "How old is the user's daughter?", answer: 'nine', stale: 'seven' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'n42', text: 'The office is at 42 King Street.', date: '2022-06-01', slot: 'office/address' },
      {
        id: 'n24',
        text: 'Actually the office address is 24 King Street — I keep flipping the number.',
        date: '2022-06-03',
        slot: 'office/address',
      },
    ],
    order: ['n24', 'n42'],
    questions: [{ query: "what's the office address", answer: 'n24', stale: 'n42' }],
  },
  {
    kind: 'corrections',
    facts: [
      {
        id: 'peanut',
        text: 'Liam is allergic to peanuts.',
        date: '2021-09-01',
        entities: ['Liam'],
        slot: 'liam/allergy',
      },
      {
        id: 'treenut',
        text: "I was wrong about Liam — it's tree nuts he reacts to; peanuts are fine.",
        date: '2021-09-15',
        entities: ['Liam'],
        slot: 'liam/allergy',
      },
    ],
    questions: [
      { query: 'What is Liam allergic to?', answer: 'treenut', stale: 'peanut' },
      { query: 'What allergy did I originally say Liam had?', answer: 'peanut', stale: 'treenut', past: true },
    ],
  },
  {
    kind: 'corrections',
    facts: [
      {
        id: 'twelve',
        text: 'The conference room holds 12 people.',
        date: '2023-02-01',
        slot: 'conference-room/capacity',
      },
      {
        id: 'twenty',
        text: 'Correction: the conference room seats 20, not 12.',
        date: '2023-02-02',
        slot: 'conference-room/capacity',
      },
    ],
    questions: [{ query: 'how many people fit in the conference room?', answer: 'twenty', stale: 'twelve' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'oct3', text: "Mum's surgery is scheduled for 3 October.", date: '2024-09-01', slot: 'mum/surgery-date' },
      {
        id: 'oct10',
        text: "I got that wrong — Mum's operation is on the 10th of October.",
        date: '2024-09-02',
        slot: 'mum/surgery-date',
      },
    ],
    order: ['oct10', 'oct3'],
    questions: [{ query: "When is Mum's surgery?", answer: 'oct10', stale: 'oct3' }],
  },
  {
    kind: 'corrections',
    facts: [
      {
        id: 'payments',
        text: 'The billing service is owned by the Payments team.',
        date: '2023-04-01',
        slot: 'billing/owner',
      },
      {
        id: 'revenue',
        text: 'Correction: billing belongs to the Revenue Platform team; Payments only owns the checkout flow.',
        date: '2023-04-02',
        slot: 'billing/owner',
      },
    ],
    questions: [{ query: 'Which team owns the billing service?', answer: 'revenue', stale: 'payments' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'y2017', text: 'My car is a 2017 Golf.', date: '2022-01-01', slot: 'me/car-year' },
      {
        id: 'y2016',
        text: "Actually it's a 2016, not 2017 — just checked the logbook.",
        date: '2022-01-08',
        slot: 'me/car-year',
      },
    ],
    questions: [
      { query: 'What year is my Golf?', answer: 'y2016', stale: 'y2017' },
      { query: 'What year did I first say the car was?', answer: 'y2017', stale: 'y2016', past: true },
    ],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'apos', text: "The user's blood type is A positive.", date: '2020-01-01', slot: 'user/blood-type' },
      {
        id: 'opos',
        text: "The user corrected their blood group: it's O positive.",
        date: '2020-01-05',
        slot: 'user/blood-type',
      },
    ],
    order: ['opos', 'apos'],
    questions: [{ query: 'what blood type is the user', answer: 'opos', stale: 'apos' }],
  },
  {
    kind: 'corrections',
    facts: [
      { id: 'june', text: 'The grant report is due on 30 June.', date: '2025-05-01', slot: 'grant-report/deadline' },
      { id: 'ethics', text: 'The ethics form is due on 15 June.', date: '2025-05-01', slot: 'ethics-form/deadline' },
      {
        id: 'july',
        text: 'Correction: the grant report deadline is 30 July, not June. The ethics date is right.',
        date: '2025-05-03',
        slot: 'grant-report/deadline',
      },
    ],
    questions: [
      { query: "When's the grant report due?", answer: 'july', stale: 'june' },
      { query: 'When is the ethics form due?', answer: 'ethics', stale: 'july' },
    ],
  },

  // ───────────────────────────── amounts ─────────────────────────────
  {
    kind: 'amounts',
    facts: [
      { id: 'r1450', text: 'Our rent is €1,450 a month.', date: '2022-01-01', slot: 'me/rent' },
      {
        id: 'r1600',
        text: 'The landlord put the rent up to 1,600 euros from September.',
        date: '2023-09-01',
        slot: 'me/rent',
      },
    ],
    questions: [
      { query: 'How much is our rent?', answer: 'r1600', stale: 'r1450' },
      { query: 'What was the rent before the increase?', answer: 'r1450', stale: 'r1600', past: true },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 's88', text: 'My salary is $88,000.', date: '2021-01-01', slot: 'me/salary' },
      {
        id: 'jenna',
        text: "My colleague Jenna's salary is 95k.",
        date: '2021-06-01',
        entities: ['Jenna'],
        slot: 'jenna/salary',
      },
      { id: 's102', text: "I negotiated a raise — I'm on $102,000 now.", date: '2023-01-15', slot: 'me/salary' },
    ],
    questions: [
      { query: "What's my salary?", answer: 's102', stale: 's88' },
      { query: 'How much does Jenna make?', answer: 'jenna', stale: 's102' },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'w92', text: 'I weigh 92 kg.', date: '2022-01-01', slot: 'me/weight' },
      { id: 'w84', text: 'Down to 84 kilos after the couch-to-5k programme!', date: '2023-01-01', slot: 'me/weight' },
    ],
    questions: [
      { query: 'what is my current weight', answer: 'w84', stale: 'w92' },
      { query: 'How much do I weigh?', answer: 'w92', stale: 'w84', past: true, asOf: '2022-06-01' },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'p20', text: 'The Pro plan costs $20 per month.', date: '2023-01-01', slot: 'pro-plan/price' },
      {
        id: 'p25',
        text: 'They raised the Pro tier to $25/month for everyone.',
        date: '2024-06-01',
        slot: 'pro-plan/price',
      },
    ],
    questions: [{ query: 'How much is the Pro plan?', answer: 'p25', stale: 'p20' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'km35', text: 'My commute is 35 km each way.', date: '2020-01-01', slot: 'me/commute' },
      {
        id: 'km4',
        text: "Since the move it's just 4 km to the office — I cycle it.",
        date: '2022-03-01',
        slot: 'me/commute',
      },
    ],
    questions: [{ query: 'How long is my commute?', answer: 'km4', stale: 'km35' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'm40', text: 'The marketing budget for Q3 is £40,000.', date: '2024-06-01', slot: 'marketing/q3-budget' },
      { id: 'eng', text: 'The Q3 engineering budget is £120,000.', date: '2024-06-01', slot: 'engineering/q3-budget' },
      {
        id: 'm28',
        text: 'Finance cut the Q3 marketing spend to £28k.',
        date: '2024-07-10',
        slot: 'marketing/q3-budget',
      },
    ],
    questions: [
      { query: "What's the Q3 marketing budget?", answer: 'm28', stale: 'm40' },
      { query: "how much is engineering's budget for Q3", answer: 'eng', stale: 'm28' },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'fix', text: 'Our mortgage rate is 1.9% fixed.', date: '2021-03-01', slot: 'me/mortgage-rate' },
      { id: 'remo', text: 'We remortgaged at 4.6% when the fix ended.', date: '2024-03-01', slot: 'me/mortgage-rate' },
    ],
    order: ['remo', 'fix'],
    questions: [{ query: 'What interest rate are we paying on the mortgage?', answer: 'remo', stale: 'fix' }],
  },
  {
    kind: 'amounts',
    facts: [
      {
        id: 'h45',
        text: 'Zoe charges £45 an hour for maths tutoring.',
        date: '2021-09-01',
        entities: ['Zoe'],
        slot: 'zoe/hourly-rate',
      },
      {
        id: 'h55',
        text: 'She bumped her rate to £55/hr this term.',
        date: '2023-09-01',
        entities: ['Zoe'],
        slot: 'zoe/hourly-rate',
      },
    ],
    questions: [{ query: 'How much does Zoe charge per hour?', answer: 'h55', stale: 'h45' }],
  },
  {
    kind: 'amounts',
    facts: [
      {
        id: 't60',
        text: "We're saving for a house deposit; the target is $60,000.",
        date: '2022-02-01',
        slot: 'house-deposit/target',
      },
      {
        id: 't75',
        text: 'We raised the deposit goal to $75k because prices keep climbing.',
        date: '2023-08-01',
        slot: 'house-deposit/target',
      },
    ],
    questions: [
      { query: "What's our savings target for the house?", answer: 't75', stale: 't60' },
      { query: "What's our house deposit goal?", answer: 't60', stale: 't75', past: true, asOf: '2022-12-01' },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'k5', text: 'The user runs 5 km three times a week.', date: '2021-04-01', slot: 'user/run-distance' },
      {
        id: 'k10',
        text: 'The user is up to 10 km runs now, training for a half marathon.',
        date: '2022-04-01',
        slot: 'user/run-distance',
      },
    ],
    questions: [{ query: 'How far does the user usually run?', answer: 'k10', stale: 'k5' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'y1490', text: 'Netflix costs us ¥1,490 a month.', date: '2022-01-01', slot: 'netflix/price' },
      {
        id: 'y1990',
        text: "Netflix went up again — we're paying ¥1,990 monthly now.",
        date: '2024-01-01',
        slot: 'netflix/price',
      },
    ],
    questions: [{ query: 'how much is netflix per month', answer: 'y1990', stale: 'y1490' }],
  },
  {
    kind: 'amounts',
    facts: [
      { id: 'b12', text: 'Biscuit weighs 12 kg.', date: '2021-01-01', entities: ['Biscuit'], slot: 'biscuit/weight' },
      {
        id: 'pepper',
        text: 'Our other dog, Pepper, weighs 15 kg.',
        date: '2023-01-01',
        entities: ['Pepper'],
        slot: 'pepper/weight',
      },
      {
        id: 'b155',
        text: 'The vet says Biscuit is 15.5 kg now and needs to lose a bit.',
        date: '2023-01-02',
        entities: ['Biscuit'],
        slot: 'biscuit/weight',
      },
    ],
    questions: [
      { query: 'How heavy is Biscuit?', answer: 'b155', stale: 'b12' },
      { query: "What's Pepper's weight?", answer: 'pepper', stale: 'b155' },
    ],
  },
  {
    kind: 'amounts',
    facts: [
      {
        id: 'chf110',
        text: 'Electricity costs us about 110 CHF a month.',
        date: '2021-01-01',
        slot: 'electricity/monthly-cost',
      },
      {
        id: 'chf190',
        text: 'Our power bill jumped to around 190 francs a month this winter.',
        date: '2023-01-01',
        slot: 'electricity/monthly-cost',
      },
    ],
    questions: [{ query: 'How much do we pay for electricity?', answer: 'chf190', stale: 'chf110' }],
  },
  {
    kind: 'amounts',
    facts: [
      {
        id: 'brl85',
        text: 'Pedro earns R$8,500 a month at the agency.',
        date: '2021-01-01',
        entities: ['Pedro'],
        slot: 'pedro/salary',
      },
      {
        id: 'brl11',
        text: "Pedro's pay went up to R$11,000 monthly after the promotion.",
        date: '2023-01-01',
        entities: ['Pedro'],
        slot: 'pedro/salary',
      },
    ],
    questions: [
      { query: 'What does Pedro earn?', answer: 'brl11', stale: 'brl85' },
      { query: "What was Pedro's salary before the promotion?", answer: 'brl85', stale: 'brl11', past: true },
    ],
  },

  // ───────────────────────────── plans ─────────────────────────────
  {
    kind: 'plans',
    facts: [
      { id: 'tue', text: 'Design sync is every Tuesday at 10:00.', date: '2024-01-08', slot: 'design-sync/time' },
      {
        id: 'thu',
        text: 'The design review meeting moved to Thursdays at 14:00.',
        date: '2024-03-01',
        slot: 'design-sync/time',
      },
    ],
    questions: [
      { query: 'When is design sync?', answer: 'thu', stale: 'tue' },
      { query: 'When was design sync before it moved?', answer: 'tue', stale: 'thu', past: true },
    ],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'japan', text: "We're going to Japan in April for two weeks.", date: '2024-01-01', slot: 'me/april-trip' },
      {
        id: 'cancel',
        text: "We cancelled the Japan trip — work's too busy. Maybe the autumn.",
        date: '2024-02-20',
        slot: 'me/april-trip',
      },
    ],
    questions: [{ query: 'Are we still going to Japan in April?', answer: 'cancel', stale: 'japan' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'may15', text: 'The Q2 launch is on 15 May.', date: '2025-03-01', slot: 'q2-launch/date' },
      { id: 'may29', text: 'Launch slipped two weeks, to 29 May.', date: '2025-04-20', slot: 'q2-launch/date' },
    ],
    questions: [{ query: 'when do we launch?', answer: 'may29', stale: 'may15' }],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'run',
        text: 'Nico is running the Berlin marathon in September.',
        date: '2023-05-01',
        entities: ['Nico'],
        slot: 'nico/berlin-marathon',
      },
      {
        id: 'out',
        text: 'He pulled out of the marathon with a stress fracture.',
        date: '2023-08-01',
        entities: ['Nico'],
        slot: 'nico/berlin-marathon',
      },
    ],
    questions: [{ query: 'Is Nico running Berlin?', answer: 'out', stale: 'run' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'b930', text: 'Backend standup is at 9:30.', date: '2023-01-01', slot: 'backend-standup/time' },
      { id: 'fe', text: 'Frontend standup is at 10:00.', date: '2023-01-01', slot: 'frontend-standup/time' },
      {
        id: 'b900',
        text: 'We moved the backend standup to 9:00 so the Sydney folks can join.',
        date: '2023-04-01',
        slot: 'backend-standup/time',
      },
    ],
    questions: [
      { query: 'What time is backend standup?', answer: 'b900', stale: 'b930' },
      { query: "When's the frontend standup?", answer: 'fe', stale: 'b900' },
    ],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'june', text: 'Our wedding is booked for 14 June 2025.', date: '2024-03-01', slot: 'wedding/date' },
      {
        id: 'sept',
        text: 'We moved the wedding to 20 September 2025 because the venue double-booked us.',
        date: '2024-05-01',
        slot: 'wedding/date',
      },
    ],
    questions: [
      { query: 'What date is our wedding?', answer: 'sept', stale: 'june' },
      { query: 'What was the original wedding date?', answer: 'june', stale: 'sept', past: true },
    ],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'oct2', text: 'The quarterly review is on 2 October.', date: '2024-08-01', slot: 'quarterly-review/date' },
      {
        id: 'oct9',
        text: "Quarterly review's been pushed to 9 October.",
        date: '2024-09-15',
        slot: 'quarterly-review/date',
      },
    ],
    order: ['oct9', 'oct2'],
    questions: [{ query: 'When is the quarterly review?', answer: 'oct9', stale: 'oct2' }],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'fri',
        text: 'My 1:1 with Priyanka is Fridays at 3pm.',
        date: '2022-05-01',
        entities: ['Priyanka'],
        slot: 'priyanka-1on1/schedule',
      },
      {
        id: 'monthly',
        text: "Priyanka cancelled our weekly catch-ups; we'll just meet once a month now.",
        date: '2022-09-01',
        entities: ['Priyanka'],
        slot: 'priyanka-1on1/schedule',
      },
    ],
    questions: [{ query: 'When is my 1:1 with Priyanka?', answer: 'monthly', stale: 'fri' }],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'crete',
        text: 'Summer holiday: two weeks in Crete in July.',
        date: '2023-01-10',
        slot: 'summer-holiday/destination',
      },
      {
        id: 'sardinia',
        text: 'We switched the summer holiday to Sardinia, same dates.',
        date: '2023-03-01',
        slot: 'summer-holiday/destination',
      },
    ],
    questions: [
      { query: 'where are we going this summer?', answer: 'sardinia', stale: 'crete' },
      { query: 'Where was the summer holiday originally going to be?', answer: 'crete', stale: 'sardinia', past: true },
    ],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'nov18',
        text: "The user's driving test is on 18 November.",
        date: '2022-10-01',
        slot: 'user/driving-test',
      },
      {
        id: 'dec2',
        text: "The user's test got rescheduled by the DVSA to 2 December.",
        date: '2022-11-10',
        slot: 'user/driving-test',
      },
    ],
    questions: [{ query: "When is the user's driving test?", answer: 'dec2', stale: 'nov18' }],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'mwf',
        text: 'I go to the gym Monday, Wednesday and Friday mornings.',
        date: '2021-01-01',
        slot: 'me/gym-schedule',
      },
      {
        id: 'tt',
        text: 'I switched my workouts to evenings, Tuesdays and Thursdays.',
        date: '2021-10-01',
        slot: 'me/gym-schedule',
      },
    ],
    questions: [{ query: 'what days do I go to the gym', answer: 'tt', stale: 'mwf' }],
  },
  {
    kind: 'plans',
    facts: [
      { id: 'mar1', text: 'The paper submission deadline is 1 March.', date: '2025-01-10', slot: 'paper/deadline' },
      {
        id: 'mar8',
        text: 'The conference extended the deadline by a week, to 8 March.',
        date: '2025-02-20',
        slot: 'paper/deadline',
      },
    ],
    questions: [
      { query: 'When is the paper due?', answer: 'mar8', stale: 'mar1' },
      { query: "What's the paper submission deadline?", answer: 'mar1', stale: 'mar8', past: true, asOf: '2025-02-01' },
    ],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'sat',
        text: 'Dinner with Hiro and Aiko is on Saturday at 7.',
        date: '2024-11-01',
        entities: ['Hiro', 'Aiko'],
        slot: 'hiro-aiko-dinner/time',
      },
      {
        id: 'sun',
        text: 'They asked to make it Sunday lunch instead.',
        date: '2024-11-02',
        entities: ['Hiro', 'Aiko'],
        slot: 'hiro-aiko-dinner/time',
      },
    ],
    questions: [{ query: 'When are we seeing Hiro and Aiko?', answer: 'sun', stale: 'sat' }],
  },
  {
    kind: 'plans',
    facts: [
      {
        id: 'mon',
        text: 'Sprint planning happens every other Monday at 11.',
        date: '2023-02-01',
        slot: 'sprint-planning/time',
      },
      {
        id: 'wed',
        text: 'Planning is on Wednesdays now, right after the retro, 2pm.',
        date: '2023-06-01',
        slot: 'sprint-planning/time',
      },
    ],
    questions: [{ query: 'When is sprint planning?', answer: 'wed', stale: 'mon' }],
  },

  // ───────────────────────────── owned things ─────────────────────────────
  {
    kind: 'owned things',
    facts: [
      { id: 'civic', text: 'I drive a 2015 Honda Civic.', date: '2020-01-01', slot: 'me/car' },
      { id: 'tesla', text: 'I sold the Civic and bought a Tesla Model 3.', date: '2023-04-01', slot: 'me/car' },
    ],
    questions: [
      { query: 'What car does the user drive?', answer: 'tesla', stale: 'civic' },
      { query: 'What car did I drive before the Tesla?', answer: 'civic', stale: 'tesla', past: true },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'pixel', text: 'My phone is a Pixel 6.', date: '2022-01-01', slot: 'me/phone' },
      {
        id: 'iphone',
        text: 'Got a new one — iPhone 15 Pro, finally switched sides.',
        date: '2023-10-01',
        slot: 'me/phone',
      },
    ],
    questions: [
      { query: 'What phone do I have?', answer: 'iphone', stale: 'pixel' },
      { query: 'which phone did I use before the iPhone?', answer: 'pixel', stale: 'iphone', past: true },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'miso', text: 'We have one cat, Miso.', date: '2020-01-01', entities: ['Miso'], slot: 'me/pets' },
      {
        id: 'tofu',
        text: 'We adopted a second cat, Tofu, to keep Miso company.',
        date: '2022-06-01',
        entities: ['Miso', 'Tofu'],
        slot: 'me/pets',
      },
    ],
    questions: [{ query: 'What pets do we have?', answer: 'tofu', stale: 'miso' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'thinkpad', text: 'My work laptop is a ThinkPad X1 Carbon.', date: '2021-01-01', slot: 'me/work-laptop' },
      { id: 'air', text: 'My personal laptop is a MacBook Air M1.', date: '2021-01-01', slot: 'me/personal-laptop' },
      {
        id: 'mbp',
        text: 'IT replaced my work ThinkPad with a MacBook Pro M3.',
        date: '2024-02-01',
        slot: 'me/work-laptop',
      },
    ],
    questions: [
      { query: "What's my work laptop?", answer: 'mbp', stale: 'thinkpad' },
      { query: 'what laptop do I use for personal stuff', answer: 'air', stale: 'mbp' },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      {
        id: 'fiat',
        text: 'Fatima drives a red Fiat 500.',
        date: '2019-06-01',
        entities: ['Fatima'],
        slot: 'fatima/car',
      },
      {
        id: 'kia',
        text: 'She traded it in for a Kia EV6 last spring.',
        date: '2024-04-01',
        entities: ['Fatima'],
        slot: 'fatima/car',
      },
    ],
    questions: [{ query: 'What does Fatima drive?', answer: 'kia', stale: 'fiat' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'brompton', text: 'I commute on a Brompton folding bike.', date: '2021-01-01', slot: 'me/bike' },
      {
        id: 'stolen',
        text: "My Brompton got nicked outside the station; I'm on Lime e-bikes for now.",
        date: '2023-06-01',
        slot: 'me/bike',
      },
    ],
    questions: [{ query: 'Does the user still have a Brompton?', answer: 'stolen', stale: 'brompton' }],
  },
  {
    kind: 'owned things',
    facts: [
      {
        id: 'boat',
        text: 'Gerald owns a narrowboat moored in Oxford.',
        date: '2020-01-01',
        entities: ['Gerald'],
        slot: 'gerald/boat',
      },
      {
        id: 'sold',
        text: 'Gerald sold the narrowboat and is no longer a boat owner.',
        date: '2023-01-01',
        entities: ['Gerald'],
        slot: 'gerald/boat',
      },
    ],
    questions: [{ query: 'Does Gerald have a boat?', answer: 'sold', stale: 'boat' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'garmin', text: 'I wear a Garmin Forerunner 245.', date: '2020-05-01', slot: 'me/watch' },
      { id: 'ultra', text: 'I upgraded to an Apple Watch Ultra.', date: '2024-01-01', slot: 'me/watch' },
    ],
    order: ['ultra', 'garmin'],
    questions: [{ query: 'What smartwatch do I wear?', answer: 'ultra', stale: 'garmin' }],
  },
  {
    kind: 'owned things',
    facts: [
      {
        id: 'rufus',
        text: 'The user has a beagle named Rufus.',
        date: '2019-04-01',
        entities: ['Rufus'],
        slot: 'user/dog',
      },
      {
        id: 'luna',
        text: 'Rufus passed away in the spring; the user adopted a greyhound called Luna in August.',
        date: '2023-08-15',
        entities: ['Rufus', 'Luna'],
        slot: 'user/dog',
      },
    ],
    questions: [
      { query: "What's the user's dog called?", answer: 'luna', stale: 'rufus' },
      { query: 'What dog does the user have?', answer: 'rufus', stale: 'luna', past: true, asOf: '2021-01-01' },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      {
        id: 'canon',
        text: 'Tilly shoots on a Canon 5D Mark III.',
        date: '2019-01-01',
        entities: ['Tilly'],
        slot: 'tilly/camera',
      },
      {
        id: 'sony',
        text: 'Tilly went mirrorless — a Sony A7 IV replaced the Canon.',
        date: '2022-01-01',
        entities: ['Tilly'],
        slot: 'tilly/camera',
      },
    ],
    questions: [{ query: 'Which camera does Tilly use?', answer: 'sony', stale: 'canon' }],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'volvo', text: 'My wife drives a Volvo XC60.', date: '2021-01-01', slot: 'wife/car' },
      { id: 'skoda', text: 'I drive a Skoda Octavia estate.', date: '2021-01-01', slot: 'me/car' },
      { id: 'rav4', text: 'I replaced the Octavia with a Toyota RAV4 hybrid.', date: '2024-03-01', slot: 'me/car' },
    ],
    questions: [
      { query: 'What am I driving these days?', answer: 'rav4', stale: 'skoda' },
      { query: 'What car does my wife have?', answer: 'volvo', stale: 'rav4' },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'xm4', text: 'I use Sony WH-1000XM4 headphones.', date: '2021-01-01', slot: 'me/headphones' },
      {
        id: 'max',
        text: 'Lost the Sonys on a train; got AirPods Max as a replacement.',
        date: '2023-01-01',
        slot: 'me/headphones',
      },
    ],
    questions: [{ query: 'what headphones do I use', answer: 'max', stale: 'xm4' }],
  },
  {
    kind: 'owned things',
    facts: [
      {
        id: 'yamaha',
        text: 'Quinn plays a Yamaha acoustic guitar.',
        date: '2020-01-01',
        entities: ['Quinn'],
        slot: 'quinn/guitar',
      },
      {
        id: 'martin',
        text: 'Quinn sold the Yamaha and bought a Martin D-28.',
        date: '2024-01-01',
        entities: ['Quinn'],
        slot: 'quinn/guitar',
      },
    ],
    questions: [
      { query: 'What guitar does Quinn own?', answer: 'martin', stale: 'yamaha' },
      { query: 'Which guitar did Quinn have before the Martin?', answer: 'yamaha', stale: 'martin', past: true },
    ],
  },
  {
    kind: 'owned things',
    facts: [
      { id: 'flat', text: 'We own a two-bed flat in Glasgow.', date: '2020-01-01', slot: 'me/home-owned' },
      {
        id: 'semi',
        text: 'We sold the flat and bought a three-bed semi in Paisley.',
        date: '2024-06-01',
        slot: 'me/home-owned',
      },
    ],
    questions: [{ query: 'What property do we own?', answer: 'semi', stale: 'flat' }],
  },

  // ───────────────────────────── project facts ─────────────────────────────
  {
    kind: 'project facts',
    facts: [
      { id: 'v1', text: 'The API base URL is https://api.acme.io/v1.', date: '2023-01-01', slot: 'api/base-url' },
      {
        id: 'v2',
        text: 'The API moved to https://api.acme.com/v2 after the rebrand.',
        date: '2024-03-01',
        slot: 'api/base-url',
      },
    ],
    questions: [
      { query: "What's the base URL for the API?", answer: 'v2', stale: 'v1' },
      { query: 'What was the API URL before the rebrand?', answer: 'v1', stale: 'v2', past: true },
    ],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'p8080', text: 'The auth service listens on port 8080.', date: '2023-01-01', slot: 'auth/port' },
      { id: 'gw', text: 'The gateway runs on port 8443.', date: '2023-01-01', slot: 'gateway/port' },
      {
        id: 'p9090',
        text: 'We changed auth to port 9090 to stop it clashing with the dev proxy.',
        date: '2023-05-01',
        slot: 'auth/port',
      },
    ],
    questions: [
      { query: 'what port is auth on', answer: 'p9090', stale: 'p8080' },
      { query: 'Which port does the gateway use?', answer: 'gw', stale: 'p9090' },
    ],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'priya',
        text: "The Acme project is owned by Priya's team.",
        date: '2022-06-01',
        entities: ['Acme', 'Priya'],
        slot: 'acme/owner',
      },
      {
        id: 'growth',
        text: 'Ownership of the Acme one moved to the Growth squad under Daniel.',
        date: '2023-09-01',
        entities: ['Acme', 'Daniel'],
        slot: 'acme/owner',
      },
    ],
    questions: [{ query: 'Who owns the Acme project?', answer: 'growth', stale: 'priya' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'mysql',
        text: 'The orders service stores its data in MySQL 5.7.',
        date: '2021-01-01',
        slot: 'orders/database',
      },
      {
        id: 'aurora',
        text: 'We migrated orders off MySQL onto Aurora Postgres.',
        date: '2023-02-01',
        slot: 'orders/database',
      },
    ],
    questions: [
      { query: 'What database does the orders service use?', answer: 'aurora', stale: 'mysql' },
      { query: 'What did orders run on before Postgres?', answer: 'mysql', stale: 'aurora', past: true },
    ],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'use1', text: 'Production is deployed in us-east-1.', date: '2022-01-01', slot: 'prod/region' },
      { id: 'euw1', text: 'Prod is in eu-west-1 now, for data residency.', date: '2024-01-01', slot: 'prod/region' },
      {
        id: 'analytics',
        text: 'The analytics cluster stays in us-east-1.',
        date: '2024-01-02',
        slot: 'analytics/region',
      },
    ],
    questions: [{ query: 'Which AWS region is production in?', answer: 'euw1', stale: 'use1' }],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'be16', text: 'The backend runs Node 16.', date: '2022-01-01', slot: 'backend/node-version' },
      { id: 'fe20', text: 'The frontend runs Node 20.', date: '2023-06-01', slot: 'frontend/node-version' },
      {
        id: 'be18',
        text: 'Backend is on Node 18 now after the upgrade sprint.',
        date: '2023-07-01',
        slot: 'backend/node-version',
      },
    ],
    questions: [
      { query: 'What Node version does the backend use?', answer: 'be18', stale: 'be16' },
      { query: 'which node is the frontend on', answer: 'fe20', stale: 'be18' },
    ],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'r17', text: "We're on React 17.", date: '2021-06-01', slot: 'web/react-version' },
      { id: 'r18', text: 'The web app was upgraded to React 18.2.', date: '2023-01-01', slot: 'web/react-version' },
    ],
    order: ['r18', 'r17'],
    questions: [{ query: 'What version of React does the web app use?', answer: 'r18', stale: 'r17' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'old',
        text: 'Staging lives at https://staging.internal.example.com.',
        date: '2022-01-01',
        slot: 'staging/url',
      },
      { id: 'new', text: 'Staging got a new home: https://stg.example.dev.', date: '2023-05-01', slot: 'staging/url' },
    ],
    questions: [{ query: "What's the staging URL?", answer: 'new', stale: 'old' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'kwame',
        text: 'Kwame is the owner of the search service.',
        date: '2023-01-01',
        entities: ['Kwame'],
        slot: 'search/owner',
      },
      {
        id: 'lucia',
        text: "Search is handled by Lucia's team since the reorg; Kwame moved to infra.",
        date: '2023-10-01',
        entities: ['Lucia', 'Kwame'],
        slot: 'search/owner',
      },
    ],
    questions: [{ query: 'who owns search?', answer: 'lucia', stale: 'kwame' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'h01',
        text: 'The reporting DB host is db-reports-01.internal.',
        date: '2021-01-01',
        slot: 'reporting-db/host',
      },
      {
        id: 'ro',
        text: 'Reporting now reads from the replica at db-reports-ro.internal.',
        date: '2022-08-01',
        slot: 'reporting-db/host',
      },
    ],
    questions: [
      { query: "What's the hostname for the reporting database?", answer: 'ro', stale: 'h01' },
      {
        query: 'Which host does the reporting database run on?',
        answer: 'h01',
        stale: 'ro',
        past: true,
        asOf: '2022-01-01',
      },
    ],
  },
  {
    kind: 'project facts',
    facts: [
      { id: 'py38', text: 'The ML pipeline uses Python 3.8.', date: '2021-01-01', slot: 'ml-pipeline/python-version' },
      {
        id: 'py311',
        text: 'We bumped the ML pipeline to Python 3.11.',
        date: '2023-08-01',
        slot: 'ml-pipeline/python-version',
      },
    ],
    questions: [{ query: 'What Python version is the ML pipeline on?', answer: 'py311', stale: 'py38' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'repo',
        text: 'The mobile app code is in the acme/mobile repo on GitHub.',
        date: '2022-01-01',
        slot: 'mobile/repo',
      },
      {
        id: 'mono',
        text: 'Mobile moved into the monorepo under apps/mobile.',
        date: '2024-02-01',
        slot: 'mobile/repo',
      },
    ],
    questions: [{ query: "Where is the mobile app's code?", answer: 'mono', stale: 'repo' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'rl100',
        text: 'The public API rate limit is 100 requests per minute.',
        date: '2023-01-01',
        slot: 'public-api/rate-limit',
      },
      {
        id: 'rl300',
        text: 'Public API limit is 300/min as of today.',
        date: '2024-01-01',
        slot: 'public-api/rate-limit',
      },
    ],
    questions: [{ query: "What's the rate limit on the public API?", answer: 'rl300', stale: 'rl100' }],
  },
  {
    kind: 'project facts',
    facts: [
      {
        id: 'sendgrid',
        text: 'The notifications service sends email through SendGrid.',
        date: '2022-01-01',
        slot: 'notifications/email-provider',
      },
      {
        id: 'ses',
        text: 'Notifications switched its email provider to Amazon SES.',
        date: '2023-11-01',
        slot: 'notifications/email-provider',
      },
    ],
    questions: [
      { query: 'Which email provider do notifications use?', answer: 'ses', stale: 'sendgrid' },
      { query: 'What did notifications use for email before SES?', answer: 'sendgrid', stale: 'ses', past: true },
    ],
  },

  // ───────────────────────────── tooling ─────────────────────────────
  {
    kind: 'tooling',
    facts: [
      { id: 'npm', text: 'The repo uses npm.', date: '2021-01-01', slot: 'repo/package-manager' },
      { id: 'docs', text: 'The docs site uses yarn.', date: '2022-01-01', slot: 'docs/package-manager' },
      {
        id: 'pnpm',
        text: 'We replaced npm with pnpm in the main repo.',
        date: '2023-03-01',
        slot: 'repo/package-manager',
      },
    ],
    questions: [
      { query: 'Which package manager does the repo use?', answer: 'pnpm', stale: 'npm' },
      { query: 'what does the docs site use for packages', answer: 'docs', stale: 'pnpm' },
    ],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'jenkins', text: 'Our CI runs on Jenkins.', date: '2020-01-01', slot: 'team/ci' },
      {
        id: 'gha',
        text: 'We migrated to GitHub Actions and shut down the old build box.',
        date: '2022-05-01',
        slot: 'team/ci',
      },
    ],
    questions: [
      { query: 'What CI do we use?', answer: 'gha', stale: 'jenkins' },
      { query: 'Which CI did we use before GitHub Actions?', answer: 'jenkins', stale: 'gha', past: true },
    ],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'sublime', text: 'I code in Sublime Text.', date: '2019-01-01', slot: 'me/editor' },
      {
        id: 'vscode',
        text: 'Switched to VS Code, mostly for the remote containers extension.',
        date: '2021-01-01',
        slot: 'me/editor',
      },
    ],
    questions: [{ query: 'What editor does the user code in?', answer: 'vscode', stale: 'sublime' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'angular', text: 'The dashboard is built with Angular.', date: '2020-01-01', slot: 'dashboard/framework' },
      {
        id: 'svelte',
        text: 'We dropped Angular for Svelte in the dashboard rewrite.',
        date: '2023-01-01',
        slot: 'dashboard/framework',
      },
    ],
    questions: [
      { query: 'What framework is the dashboard built with?', answer: 'svelte', stale: 'angular' },
      { query: 'Which framework did the dashboard use before Svelte?', answer: 'angular', stale: 'svelte', past: true },
    ],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'heroku', text: 'We host everything on Heroku.', date: '2019-06-01', slot: 'infra/hosting' },
      {
        id: 'fly',
        text: 'We moved off Heroku to Fly.io after the free tier went away.',
        date: '2022-12-01',
        slot: 'infra/hosting',
      },
    ],
    questions: [{ query: 'where do we host our apps', answer: 'fly', stale: 'heroku' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'jira', text: 'The team tracks work in Jira.', date: '2021-01-01', slot: 'team/issue-tracker' },
      {
        id: 'linear',
        text: "We ditched Jira; everything's in Linear now.",
        date: '2023-04-01',
        slot: 'team/issue-tracker',
      },
    ],
    questions: [{ query: 'What do we use for issue tracking?', answer: 'linear', stale: 'jira' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'jest', text: 'Unit tests run on Jest.', date: '2022-01-01', slot: 'tests/runner' },
      {
        id: 'vitest',
        text: 'We swapped Jest out for Vitest — the suite is way faster.',
        date: '2024-01-01',
        slot: 'tests/runner',
      },
    ],
    order: ['vitest', 'jest'],
    questions: [{ query: 'Which test runner do we use?', answer: 'vitest', stale: 'jest' }],
  },
  {
    kind: 'tooling',
    facts: [
      {
        id: 'evernote',
        text: 'Ines writes all her notes in Evernote.',
        date: '2019-01-01',
        entities: ['Ines'],
        slot: 'ines/notes-app',
      },
      {
        id: 'obsidian',
        text: 'She switched to Obsidian and exported everything out of the old app.',
        date: '2022-01-01',
        entities: ['Ines'],
        slot: 'ines/notes-app',
      },
    ],
    questions: [{ query: 'What app does Ines use for notes?', answer: 'obsidian', stale: 'evernote' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'eslint', text: 'The frontend uses ESLint with Prettier.', date: '2022-01-01', slot: 'frontend/linter' },
      { id: 'flake8', text: 'The Python backend uses flake8 and black.', date: '2022-01-01', slot: 'backend/linter' },
      {
        id: 'ruff',
        text: 'Backend linting is all Ruff now; flake8 and black are gone.',
        date: '2024-02-01',
        slot: 'backend/linter',
      },
    ],
    questions: [
      { query: 'What linter does the backend use?', answer: 'ruff', stale: 'flake8' },
      { query: 'Which linter is set up on the frontend?', answer: 'eslint', stale: 'ruff' },
    ],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'slack', text: 'Our team chat is Slack.', date: '2020-01-01', slot: 'company/chat' },
      {
        id: 'teams',
        text: 'The company switched from Slack to Microsoft Teams to save on licences.',
        date: '2023-07-01',
        slot: 'company/chat',
      },
    ],
    questions: [{ query: 'Which chat tool does the team use?', answer: 'teams', stale: 'slack' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'webpack', text: 'The app bundles with webpack.', date: '2020-01-01', slot: 'app/bundler' },
      { id: 'vite', text: 'Migrated the build to Vite.', date: '2023-01-01', slot: 'app/bundler' },
    ],
    questions: [
      { query: 'What does the app use for bundling?', answer: 'vite', stale: 'webpack' },
      { query: 'What bundler does the app use?', answer: 'webpack', stale: 'vite', past: true, asOf: '2021-06-01' },
    ],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'cfn', text: 'Infrastructure is managed with CloudFormation.', date: '2021-01-01', slot: 'infra/iac' },
      {
        id: 'tf',
        text: 'We rewrote infra in Terraform; the CloudFormation stacks are being deleted.',
        date: '2023-03-01',
        slot: 'infra/iac',
      },
    ],
    questions: [{ query: 'what IaC tool do we use', answer: 'tf', stale: 'cfn' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'win', text: 'The user runs Windows 10 on their desktop.', date: '2020-01-01', slot: 'user/desktop-os' },
      {
        id: 'fedora',
        text: 'The user wiped the desktop and installed Fedora.',
        date: '2024-01-01',
        slot: 'user/desktop-os',
      },
    ],
    questions: [{ query: 'What operating system is the user running?', answer: 'fedora', stale: 'win' }],
  },
  {
    kind: 'tooling',
    facts: [
      { id: 'pd', text: 'Alerts go through PagerDuty.', date: '2021-01-01', slot: 'team/paging' },
      {
        id: 'og',
        text: 'We replaced PagerDuty with Opsgenie for on-call paging.',
        date: '2024-05-01',
        slot: 'team/paging',
      },
    ],
    questions: [
      { query: 'What do we use for alerting?', answer: 'og', stale: 'pd' },
      { query: 'What did we use for on-call alerts before Opsgenie?', answer: 'pd', stale: 'og', past: true },
    ],
  },

  // ───────────────────────────── chains ─────────────────────────────
  {
    kind: 'chains',
    facts: [
      {
        id: 'pune',
        text: 'Rhea grew up in Pune and still lives there.',
        date: '2019-02-01',
        entities: ['Rhea'],
        slot: 'rhea/residence',
      },
      {
        id: 'blr',
        text: 'Rhea moved to Bangalore for her first job.',
        date: '2020-07-01',
        entities: ['Rhea'],
        slot: 'rhea/residence',
      },
      {
        id: 'sg',
        text: "She's in Singapore now; her company relocated her.",
        date: '2023-01-01',
        entities: ['Rhea'],
        slot: 'rhea/residence',
      },
    ],
    questions: [
      { query: 'Where does Rhea live?', answer: 'sg', stale: 'blr' },
      { query: 'Where did Rhea live before Singapore?', answer: 'blr', stale: 'sg', past: true },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'google', text: "I'm an intern at Google this summer.", date: '2019-06-01', slot: 'me/employer' },
      { id: 'airbnb', text: 'I joined Airbnb as a software engineer.', date: '2020-09-01', slot: 'me/employer' },
      {
        id: 'loomly',
        text: "Now at a tiny startup called Loomly — I'm employee number nine.",
        date: '2023-03-01',
        slot: 'me/employer',
      },
    ],
    questions: [{ query: 'where do I work', answer: 'loomly', stale: 'airbnb' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 's9', text: 'My phone is a Samsung Galaxy S9.', date: '2019-01-01', slot: 'me/phone' },
      { id: 's21', text: 'Upgraded to a Galaxy S21.', date: '2021-03-01', slot: 'me/phone' },
      { id: 'p8', text: 'Switched to a Pixel 8 — the camera is ridiculous.', date: '2024-01-01', slot: 'me/phone' },
    ],
    questions: [
      { query: 'What phone is the user using?', answer: 'p8', stale: 's21' },
      { query: 'What phone do I have?', answer: 's21', stale: 'p8', past: true, asOf: '2022-01-01' },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'travis', text: 'We use Travis CI for builds.', date: '2019-01-01', slot: 'team/ci' },
      {
        id: 'circle',
        text: 'Moved CI to CircleCI when Travis changed their pricing.',
        date: '2020-12-01',
        slot: 'team/ci',
      },
      {
        id: 'gha',
        text: 'CI is on GitHub Actions now; the CircleCI config is deleted.',
        date: '2023-02-01',
        slot: 'team/ci',
      },
    ],
    questions: [{ query: 'Which CI provider do we build with?', answer: 'gha', stale: 'circle' }],
  },
  {
    kind: 'chains',
    facts: [
      {
        id: 'dating',
        text: 'Maya started going out with Jordan.',
        date: '2020-02-01',
        entities: ['Maya', 'Jordan'],
        slot: 'maya/relationship',
      },
      {
        id: 'engaged',
        text: 'Maya and Jordan got engaged on her birthday.',
        date: '2021-10-01',
        entities: ['Maya', 'Jordan'],
        slot: 'maya/relationship',
      },
      {
        id: 'married',
        text: 'Maya and Jordan are married — the wedding was in Cape Town.',
        date: '2022-11-20',
        entities: ['Maya', 'Jordan'],
        slot: 'maya/relationship',
      },
    ],
    questions: [{ query: 'Is Maya married?', answer: 'married', stale: 'engaged' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'r1200', text: 'Rent is £1,200/month.', date: '2021-01-01', slot: 'me/rent' },
      { id: 'r1350', text: 'Rent went up to £1,350.', date: '2022-01-01', slot: 'me/rent' },
      { id: 'r1500', text: 'New lease signed: £1,500 a month from February.', date: '2023-02-01', slot: 'me/rent' },
    ],
    questions: [
      { query: 'How much rent do I pay?', answer: 'r1500', stale: 'r1350' },
      { query: 'How much is my rent?', answer: 'r1350', stale: 'r1500', past: true, asOf: '2022-06-01' },
    ],
  },
  {
    kind: 'chains',
    facts: [
      {
        id: 'swe',
        text: 'Lucia is a software engineer at Datadog.',
        date: '2019-03-01',
        entities: ['Lucia', 'Datadog'],
        slot: 'lucia/title',
      },
      {
        id: 'senior',
        text: 'Lucia got promoted to senior engineer.',
        date: '2021-03-01',
        entities: ['Lucia'],
        slot: 'lucia/title',
      },
      {
        id: 'staff',
        text: "Lucia's a staff engineer now, leading the tracing team.",
        date: '2024-03-01',
        entities: ['Lucia'],
        slot: 'lucia/title',
      },
    ],
    questions: [{ query: 'What level is Lucia at Datadog?', answer: 'staff', stale: 'senior' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'npm', text: 'The monorepo uses npm.', date: '2019-01-01', slot: 'monorepo/package-manager' },
      { id: 'yarn', text: 'We moved the monorepo to yarn.', date: '2020-06-01', slot: 'monorepo/package-manager' },
      {
        id: 'pnpm',
        text: "Yarn's out, pnpm is in — workspaces install so much faster.",
        date: '2023-01-01',
        slot: 'monorepo/package-manager',
      },
      {
        id: 'mkt',
        text: 'The old marketing site still uses npm.',
        date: '2023-01-02',
        slot: 'marketing-site/package-manager',
      },
    ],
    questions: [
      { query: 'What package manager does the monorepo use?', answer: 'pnpm', stale: 'yarn' },
      { query: 'which package manager is the marketing site on?', answer: 'mkt', stale: 'pnpm' },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'a021', text: 'The SDK depends on axios 0.21.', date: '2021-01-01', slot: 'sdk/axios-version' },
      { id: 'a027', text: 'The SDK bumped axios to 0.27.', date: '2022-05-01', slot: 'sdk/axios-version' },
      { id: 'a16', text: 'SDK is on axios 1.6 now.', date: '2024-01-01', slot: 'sdk/axios-version' },
    ],
    order: ['a021', 'a16', 'a027'],
    questions: [{ query: 'Which axios version does the SDK use?', answer: 'a16', stale: 'a027' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'bos', text: 'Chris lives in Boston.', date: '2019-01-01', entities: ['Chris'], slot: 'chris/residence' },
      {
        id: 'nyc',
        text: 'Chris moved to New York for grad school.',
        date: '2020-08-01',
        entities: ['Chris'],
        slot: 'chris/residence',
      },
      {
        id: 'chi',
        text: 'He took a job in Chicago after graduating.',
        date: '2022-06-01',
        entities: ['Chris'],
        slot: 'chris/residence',
      },
      {
        id: 'den',
        text: 'Chris moved again, to Denver.',
        date: '2024-04-01',
        entities: ['Chris'],
        slot: 'chris/residence',
      },
    ],
    questions: [
      { query: 'Where is Chris living?', answer: 'den', stale: 'chi' },
      { query: 'Where did Chris live before Denver?', answer: 'chi', stale: 'den', past: true },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'k78', text: 'Max weighs 78 kg.', date: '2020-01-01', entities: ['Max'], slot: 'max/weight' },
      {
        id: 'k85',
        text: 'Max bulked up to 85 kg over the winter.',
        date: '2021-01-01',
        entities: ['Max'],
        slot: 'max/weight',
      },
      {
        id: 'k80',
        text: "Max is cutting and he's down to 80 kg.",
        date: '2022-01-01',
        entities: ['Max'],
        slot: 'max/weight',
      },
    ],
    questions: [{ query: 'How much does Max weigh?', answer: 'k80', stale: 'k85' }],
  },
  {
    kind: 'chains',
    facts: [
      {
        id: 'lis10',
        text: 'The team offsite is set for 10 March in Lisbon.',
        date: '2025-01-05',
        slot: 'offsite/plan',
      },
      { id: 'lis24', text: 'Offsite moved to 24 March, still Lisbon.', date: '2025-02-01', slot: 'offsite/plan' },
      {
        id: 'opo',
        text: "The offsite's now on 7 April and it's in Porto instead.",
        date: '2025-02-25',
        slot: 'offsite/plan',
      },
    ],
    questions: [{ query: 'when and where is the offsite?', answer: 'opo', stale: 'lis24' }],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'fiesta', text: 'The user drives a Ford Fiesta.', date: '2019-01-01', slot: 'user/car' },
      { id: 'golf', text: 'The user swapped the Fiesta for a VW Golf.', date: '2021-01-01', slot: 'user/car' },
      {
        id: 'mazda',
        text: "The Golf got written off; they're driving a Mazda CX-5 now.",
        date: '2024-01-01',
        slot: 'user/car',
      },
    ],
    questions: [
      { query: "What's the user's car?", answer: 'mazda', stale: 'golf' },
      { query: 'What did the user drive before the Mazda?', answer: 'golf', stale: 'mazda', past: true },
    ],
  },
  {
    kind: 'chains',
    facts: [
      { id: 'meat', text: 'Noah is a big meat eater.', date: '2019-01-01', entities: ['Noah'], slot: 'noah/diet' },
      {
        id: 'veg',
        text: 'Noah went vegetarian for climate reasons.',
        date: '2021-01-01',
        entities: ['Noah'],
        slot: 'noah/diet',
      },
      { id: 'vegan', text: 'Noah is vegan now.', date: '2023-01-01', entities: ['Noah'], slot: 'noah/diet' },
    ],
    questions: [{ query: "What's Noah's diet?", answer: 'vegan', stale: 'veg' }],
  },
];
