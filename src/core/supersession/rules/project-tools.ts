/**
 * Tools of a project: "we switched from jest to vitest", "migrated the API to Fastify",
 * "replaced webpack with Vite", "we use pnpm", "the test runner is now vitest", "using
 * Postgres instead of MySQL". A tool's role (test runner, package manager, database…) comes
 * from a small catalogue; a switch between two tools supersedes what named the old one even
 * when neither is catalogued.
 */
import type { ClaimRule, RuleMatch } from '../claim.js';
import { containsAny, normaliseValue } from '../phrases.js';

const ROLES: Record<string, readonly string[]> = {
  'test runner': [
    'jest',
    'vitest',
    'mocha',
    'ava',
    'jasmine',
    'tap',
    'node:test',
    'pytest',
    'unittest',
    'rspec',
    'karma',
  ],
  'e2e tests': ['playwright', 'cypress', 'puppeteer', 'selenium', 'webdriverio'],
  'package manager': ['npm', 'yarn', 'pnpm', 'bun', 'pip', 'poetry', 'uv', 'pipenv', 'cargo'],
  bundler: ['webpack', 'vite', 'rollup', 'esbuild', 'parcel', 'tsup', 'turbopack', 'rspack', 'rolldown', 'snowpack'],
  linter: ['eslint', 'biome', 'tslint', 'oxlint', 'ruff', 'flake8', 'pylint', 'standard', 'xo'],
  formatter: ['prettier', 'black', 'dprint', 'gofmt', 'rustfmt'],
  database: [
    'postgres',
    'postgresql',
    'mysql',
    'mariadb',
    'sqlite',
    'mongodb',
    'dynamodb',
    'cassandra',
    'supabase',
    'planetscale',
    'cockroachdb',
    'neon',
    'firestore',
    'couchdb',
  ],
  cache: ['redis', 'memcached', 'valkey', 'keydb'],
  ci: ['github actions', 'circleci', 'travis', 'jenkins', 'gitlab ci', 'buildkite', 'drone', 'teamcity'],
  hosting: [
    'aws',
    'gcp',
    'azure',
    'vercel',
    'netlify',
    'heroku',
    'fly.io',
    'render',
    'railway',
    'cloudflare',
    'digitalocean',
    'hetzner',
  ],
  orm: ['prisma', 'drizzle', 'typeorm', 'sequelize', 'kysely', 'mikro-orm', 'sqlalchemy', 'knex'],
  'web framework': [
    'express',
    'fastify',
    'hono',
    'koa',
    'nestjs',
    'django',
    'flask',
    'fastapi',
    'rails',
    'laravel',
    'spring',
  ],
  'ui framework': [
    'react',
    'vue',
    'svelte',
    'angular',
    'solid',
    'preact',
    'next.js',
    'nextjs',
    'nuxt',
    'remix',
    'astro',
    'sveltekit',
  ],
  'state library': ['redux', 'zustand', 'mobx', 'jotai', 'recoil', 'pinia', 'xstate'],
  styling: ['tailwind', 'bootstrap', 'styled-components', 'emotion', 'sass', 'css modules', 'vanilla-extract'],
  editor: ['vscode', 'vs code', 'vim', 'neovim', 'emacs', 'cursor', 'zed', 'sublime', 'webstorm', 'intellij'],
  'message queue': ['kafka', 'rabbitmq', 'sqs', 'nats', 'pulsar', 'bullmq'],
  monitoring: ['sentry', 'datadog', 'new relic', 'grafana', 'prometheus', 'honeycomb'],
  'version control host': ['github', 'gitlab', 'bitbucket', 'gitea'],
  'issue tracker': ['jira', 'linear', 'asana', 'trello', 'github issues', 'clickup', 'notion'],
  chat: ['slack', 'discord', 'teams', 'mattermost', 'zulip'],
  runtime: ['node', 'node.js', 'nodejs', 'deno'],
  language: ['typescript', 'javascript', 'python', 'golang', 'rust', 'java', 'kotlin', 'ruby', 'elixir', 'c#'],
  'auth provider': ['auth0', 'clerk', 'okta', 'cognito', 'firebase auth', 'supertokens', 'keycloak'],
  'llm provider': ['openai', 'anthropic', 'ollama', 'lm studio', 'vllm', 'gemini', 'mistral'],
};

const ROLE_OF = new Map(Object.entries(ROLES).flatMap(([role, tools]) => tools.map((tool) => [tool, role] as const)));
const ROLE_NAMES = Object.keys(ROLES)
  .concat([
    'test framework',
    'testing framework',
    'tests',
    'database engine',
    'db',
    'framework',
    'frontend framework',
    'backend framework',
    'ide',
    'ci provider',
    'cloud',
    'host',
  ])
  .sort((a, b) => b.length - a.length);
const ROLE_ALIASES: Record<string, string> = {
  'test framework': 'test runner',
  'testing framework': 'test runner',
  tests: 'test runner',
  'database engine': 'database',
  db: 'database',
  ide: 'editor',
  'ci provider': 'ci',
  cloud: 'hosting',
  host: 'hosting',
};

/** The role of a tool ("vitest" → "test runner"), or undefined when it is not catalogued. */
export function roleOf(tool: string): string | undefined {
  return ROLE_OF.get(tool) ?? ROLE_OF.get(tool.replace(/\s*(?:js|\.js)$/u, ''));
}

const TOOL = String.raw`([\p{L}\p{N}][\p{L}\p{N}.:+#/-]{0,30}(?:\s(?:actions|ci|code|auth|studio|issues|modules|relic|deck))?)`;
const SWITCH = new RegExp(
  String.raw`\b(?:switched|switching|switches|moved|moving|migrated|migrating|changed|changing|went|transitioned|ported|porting|converted)\s+(?:(?:the|our|my)\s+[\p{L} -]{1,30}?\s+)?(?:over\s+)?from\s+${TOOL}\s+(?:over\s+)?to\s+${TOOL}`,
  'giu',
);
const SWITCH_TO = new RegExp(
  String.raw`\b(?:switched|switching|moved|migrated|migrating|changed|transitioned|ported|converted)\s+(?:(?:the|our|my)\s+[\p{L} -]{1,30}?\s+)?(?:over\s+)?to\s+${TOOL}(?:\s+from\s+${TOOL})?`,
  'giu',
);
const REPLACED = new RegExp(
  String.raw`\b(?:replaced|replacing|swapped|swapping|swapped\s+out|ditched)\s+${TOOL}\s+(?:with|for|by)\s+${TOOL}`,
  'giu',
);
const REPLACES = new RegExp(
  String.raw`\b${TOOL}\s+(?:replaced|replaces|has\s+replaced|is\s+replacing)\s+${TOOL}`,
  'giu',
);
const USES = new RegExp(
  String.raw`\b(?:use|uses|using|used|run|runs|rely\s+on|relies\s+on|built\s+(?:with|on)|is\s+built\s+(?:with|on)|(?:is|are)\s+(?:bundled|tested|built|linted|formatted|deployed|hosted|written)\s+(?:with|in|on|to|using)|(?:bundled|tested|linted|formatted|hosted|deployed)\s+(?:with|on|to|using)|are\s+built\s+(?:with|on)|chose|picked|went\s+with|settled\s+on|adopted|standardi[sz]ed\s+on)\s+${TOOL}(?:\s+(?:instead\s+of|rather\s+than|over)\s+${TOOL})?(?:\s+(?:for|as)\s+(?:the\s+|our\s+|a\s+)?([\p{L} -]{2,30}))?`,
  'giu',
);
const ROLE_IS = new RegExp(
  String.raw`\b(?:the|our|my)\s+(${ROLE_NAMES.map((name) => name.replace(/\s/g, '\\s+')).join('|')})\s+(?:is|is\s+now|now\s+is|will\s+be|became|has\s+become)\s+(?:now\s+)?${TOOL}`,
  'giu',
);

function tool(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const value = normaliseValue(name).replace(/[.,;:]+$/u, '');
  return /^(?:it|them|that|this|the|a|an|our|my|we|i|you|they|he|she|us|version|v?\d[\d.]*|more|less|again|here|there|now)$/iu.test(
    value,
  )
    ? undefined
    : value;
}

function role(explicit: string | undefined, ...tools: Array<string | undefined>): string | undefined {
  if (explicit) {
    const name = normaliseValue(explicit).replace(/\s+/g, ' ');
    const known = ROLE_NAMES.find((candidate) => name === candidate || name.startsWith(`${candidate} `));
    if (known) return ROLE_ALIASES[known] ?? known;
  }
  for (const name of tools) {
    const found = name ? roleOf(name) : undefined;
    if (found) return found;
  }
  return undefined;
}

function switched(index: number, from: string | undefined, to: string | undefined): RuleMatch[] {
  const value = tool(to);
  const old = tool(from);
  if (!value) return [];
  const key = role(undefined, value, old);
  // A switch between tools we cannot place still names what it replaces.
  if (!key && !old) return [];
  return [{ index, family: 'tool', key: key ?? `replacing ${old}`, value, ...(old ? { from: old } : {}) }];
}

/** Tools and services a project uses. */
export const projectToolsRule: ClaimRule = {
  name: 'project tools',
  families: { tool: { keyMatch: 'exact' } },
  onNegation: 'negate',
  // SWITCH, SWITCH_TO, REPLACED, REPLACES and USES open with one of these verbs; ROLE_IS names a role.
  mayMatch: containsAny([
    ...['switch', 'mov', 'migrat', 'chang', 'went', 'transition', 'port', 'convert', 'replac', 'swap', 'ditch'],
    ...['use', 'using', 'run', 'rely', 'relies', 'built', 'bundled', 'tested', 'linted', 'formatted', 'deployed'],
    ...['hosted', 'written', 'chose', 'picked', 'settled', 'adopted', 'standardi'],
    ...ROLE_NAMES,
  ]),
  match(clause) {
    const out: RuleMatch[] = [];
    for (const match of clause.matchAll(SWITCH)) out.push(...switched(match.index, match[1], match[2]));
    for (const match of clause.matchAll(SWITCH_TO)) out.push(...switched(match.index, match[2], match[1]));
    for (const match of clause.matchAll(REPLACED)) out.push(...switched(match.index, match[1], match[2]));
    for (const match of clause.matchAll(REPLACES)) out.push(...switched(match.index, match[2], match[1]));
    for (const match of clause.matchAll(USES)) {
      const value = tool(match[1]);
      if (!value) continue;
      if (match[2]) {
        out.push(...switched(match.index, match[2], match[1]));
        continue;
      }
      const key = role(match[3], value);
      if (key) out.push({ index: match.index, family: 'tool', key, value });
    }
    out.push(
      ...[...clause.matchAll(ROLE_IS)].flatMap((match) => {
        const value = tool(match[2]);
        const key = role(match[1]);
        return value && key ? [{ index: match.index, family: 'tool', key, value }] : [];
      }),
    );
    return out;
  },
};
