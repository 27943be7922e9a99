import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LoadConfigOptions, loadConfig } from '../../src/config/load-config.js';
import { DEFAULT_CONFIG } from '../../src/config/memoir-config.js';
import { ConfigError } from '../../src/core/spec/errors.js';
import type { LogLevel } from '../../src/core/spec/runtime.js';

let dir: string;
let home: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'memoir-config-'));
  home = join(dir, 'home');
  mkdirSync(home);
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeJson(path: string, value: unknown): string {
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

function configError(options: LoadConfigOptions): ConfigError {
  try {
    loadConfig(options);
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).component).toBe('config');
    expect((error as ConfigError).suggestion).toBeTruthy();
    return error as ConfigError;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('uses the defaults when nothing is configured', () => {
    const { config, sources } = loadConfig({ env: { MEMOIR_HOME: home } });
    expect(config).toEqual({ ...DEFAULT_CONFIG, home });
    expect(config).toMatchObject({
      retentionDays: 30,
      maxSizeMb: 500,
      maxMemories: null,
      recallK: 10,
      recallMinScore: 0,
      tokenBudget: null,
      logLevel: 'warn',
      captureEnabled: false,
      embedderProvider: 'local',
      embedderModel: null,
      embedderBaseUrl: null,
      embedderDimensions: null,
      embedderApiKeyEnv: null,
    });
    expect(sources.home).toEqual({ kind: 'env', variable: 'MEMOIR_HOME' });
    expect(sources.retentionDays).toEqual({ kind: 'default' });
  });

  it('defaults home to ~/.memoir, expanded', () => {
    expect(DEFAULT_CONFIG.home).toBe('~/.memoir');
    // The real ~/.memoir/config.json may exist on this machine, so only check the path.
    const file = writeJson(join(dir, 'empty.json'), {});
    const { config, sources } = loadConfig({ env: {}, file });
    expect(config.home).toBe(join(homedir(), '.memoir'));
    expect(sources.home).toEqual({ kind: 'default' });
  });

  it('reads <home>/config.json', () => {
    const path = writeJson(join(home, 'config.json'), { retentionDays: 7, captureEnabled: true, tokenBudget: 2000 });
    const { config, sources } = loadConfig({ env: { MEMOIR_HOME: home } });
    expect(config.retentionDays).toBe(7);
    expect(config.captureEnabled).toBe(true);
    expect(config.tokenBudget).toBe(2000);
    expect(sources.retentionDays).toEqual({ kind: 'file', path });
    expect(sources.recallK).toEqual({ kind: 'default' });
  });

  it('reads the file named by the option or by MEMOIR_CONFIG', () => {
    const a = writeJson(join(dir, 'a.json'), { recallK: 3 });
    const b = writeJson(join(dir, 'b.json'), { recallK: 4 });
    expect(loadConfig({ env: { MEMOIR_CONFIG: b }, file: a }).config.recallK).toBe(3);
    expect(loadConfig({ env: { MEMOIR_CONFIG: b, MEMOIR_HOME: home } }).config.recallK).toBe(4);
  });

  it('finds the file under a home given by override', () => {
    writeJson(join(home, 'config.json'), { recallK: 5 });
    const { config } = loadConfig({ env: {}, overrides: { home } });
    expect(config.recallK).toBe(5);
  });

  it('lets the environment win over the file', () => {
    writeJson(join(home, 'config.json'), { retentionDays: 7, recallMinScore: 0.1 });
    const { config, sources } = loadConfig({
      env: {
        MEMOIR_HOME: home,
        MEMOIR_RETENTION_DAYS: '14',
        MEMOIR_MAX_SIZE_MB: '1.5',
        MEMOIR_CAPTURE_ENABLED: 'yes',
        MEMOIR_LOG_LEVEL: 'DEBUG',
        MEMOIR_MAX_MEMORIES: '1000',
      },
    });
    expect(config.retentionDays).toBe(14);
    expect(sources.retentionDays).toEqual({ kind: 'env', variable: 'MEMOIR_RETENTION_DAYS' });
    expect(config.recallMinScore).toBe(0.1);
    expect(config.maxSizeMb).toBe(1.5);
    expect(config.captureEnabled).toBe(true);
    expect(config.logLevel).toBe('debug');
    expect(config.maxMemories).toBe(1000);
  });

  it.each([
    ['true', true],
    ['1', true],
    ['YES', true],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('parses MEMOIR_CAPTURE_ENABLED=%s', (raw, expected) => {
    const { config } = loadConfig({ env: { MEMOIR_HOME: home, MEMOIR_CAPTURE_ENABLED: raw } });
    expect(config.captureEnabled).toBe(expected);
  });

  it('reads null or empty as "no limit" for nullable settings, and empty as unset otherwise', () => {
    writeJson(join(home, 'config.json'), { maxMemories: 10, tokenBudget: 500, retentionDays: 9 });
    const { config, sources } = loadConfig({
      env: { MEMOIR_HOME: home, MEMOIR_MAX_MEMORIES: 'null', MEMOIR_TOKEN_BUDGET: '', MEMOIR_RETENTION_DAYS: '' },
    });
    expect(config.maxMemories).toBeNull();
    expect(config.tokenBudget).toBeNull();
    expect(sources.tokenBudget).toEqual({ kind: 'env', variable: 'MEMOIR_TOKEN_BUDGET' });
    expect(config.retentionDays).toBe(9);
  });

  it('lets overrides win over the environment', () => {
    const { config, sources } = loadConfig({
      env: { MEMOIR_HOME: home, MEMOIR_RECALL_K: '20' },
      overrides: { recallK: 50, logLevel: undefined },
    });
    expect(config.recallK).toBe(50);
    expect(sources.recallK).toEqual({ kind: 'override' });
    expect(sources.logLevel).toEqual({ kind: 'default' });
  });

  it('takes home from the MEMORY_STORAGE_PATH alias', () => {
    const custom = join(dir, 'custom');
    const { config, sources } = loadConfig({ env: { MEMORY_STORAGE_PATH: custom } });
    expect(config.home).toBe(custom);
    expect(sources.home).toEqual({ kind: 'env', variable: 'MEMORY_STORAGE_PATH' });
  });

  it('prefers MEMOIR_HOME over the alias, and warns that the alias is ignored', () => {
    const lines: [LogLevel, string][] = [];
    const { config, sources } = loadConfig({
      env: { MEMOIR_HOME: home, MEMORY_STORAGE_PATH: join(dir, 'other') },
      logger: { log: (level, message) => lines.push([level, message]) },
    });
    expect(config.home).toBe(home);
    expect(sources.home).toEqual({ kind: 'env', variable: 'MEMOIR_HOME' });
    expect(lines).toContainEqual(['warn', expect.stringContaining('MEMORY_STORAGE_PATH is ignored')]);
  });

  it('expands ~ and resolves a relative home in a file against the file', () => {
    const inFile = writeJson(join(dir, 'rel.json'), { home: 'data/memoir' });
    expect(loadConfig({ env: {}, file: inFile }).config.home).toBe(join(dir, 'data', 'memoir'));
    const tilde = writeJson(join(dir, 'tilde.json'), { home: '~/elsewhere' });
    expect(loadConfig({ env: {}, file: tilde }).config.home).toBe(join(homedir(), 'elsewhere'));
  });

  it('explains a negative retention in the file', () => {
    const path = writeJson(join(home, 'config.json'), { retentionDays: -5 });
    const error = configError({ env: { MEMOIR_HOME: home } });
    expect(error.field).toBe('retentionDays');
    expect(error.message).toContain(
      `retentionDays must be a positive number of days, e.g. 30; got -5 from file ${path}`,
    );
    expect(error.suggestion).toContain('"retentionDays": 30');
    expect(error.suggestion).toContain(path);
  });

  it('reports a bad value in the file even when a higher source overrides it', () => {
    writeJson(join(home, 'config.json'), { recallMinScore: 2 });
    const error = configError({ env: { MEMOIR_HOME: home, MEMOIR_RECALL_MIN_SCORE: '0.5' } });
    expect(error.field).toBe('recallMinScore');
    expect(error.message).toContain('from file');
  });

  it.each([
    ['MEMOIR_RETENTION_DAYS', 'thirty', 'retentionDays', 'a positive number of days'],
    ['MEMOIR_RETENTION_DAYS', '0', 'retentionDays', 'a positive number of days'],
    ['MEMOIR_RECALL_K', '0x10', 'recallK', 'a whole number from 1 to 1000'],
    ['MEMOIR_RECALL_K', '5000', 'recallK', 'a whole number from 1 to 1000'],
    ['MEMOIR_RECALL_MIN_SCORE', '1.5', 'recallMinScore', 'a number from 0 to 1'],
    ['MEMOIR_MAX_SIZE_MB', '-1', 'maxSizeMb', 'a positive number of megabytes'],
    ['MEMOIR_CAPTURE_ENABLED', 'maybe', 'captureEnabled', 'true or false'],
    ['MEMOIR_LOG_LEVEL', 'verbose', 'logLevel', 'one of "error", "warn", "info", "debug"'],
    ['MEMOIR_RETENTION_DAYS', 'null', 'retentionDays', 'a positive number of days'],
  ])('rejects %s=%s', (variable, raw, field, expects) => {
    const error = configError({ env: { MEMOIR_HOME: home, [variable]: raw } });
    expect(error.field).toBe(field);
    expect(error.message).toContain(`${field} must be ${expects}`);
    expect(error.message).toContain(`got ${JSON.stringify(raw)} from env ${variable}`);
    expect(error.suggestion).toContain(`${variable}=`);
  });

  it('rejects a bad override', () => {
    const error = configError({ env: { MEMOIR_HOME: home }, overrides: { tokenBudget: 0 } });
    expect(error.field).toBe('tokenBudget');
    expect(error.message).toContain('got 0 from overrides');
  });

  it('rejects a value of the wrong type in the file', () => {
    writeJson(join(home, 'config.json'), { captureEnabled: 'true' });
    const error = configError({ env: { MEMOIR_HOME: home } });
    expect(error.field).toBe('captureEnabled');
    expect(error.message).toContain('got "true" from file');
  });

  it('rejects unknown keys in the file, naming them', () => {
    const path = writeJson(join(home, 'config.json'), { retention_days: 30, colour: 'blue', recallK: 3 });
    expect(
      configError({
        env: { MEMOIR_HOME: home, MEMOIR_CONFIG: writeJson(join(dir, 'proto.json'), '{"constructor": 1}') },
      }).field,
    ).toBe('constructor');
    const error = configError({ env: { MEMOIR_HOME: home } });
    expect(error.message).toContain('"retention_days", "colour"');
    expect(error.message).toContain(path);
    expect(error.field).toBe('retention_days');
    expect(error.suggestion).toContain('"retention_days" → "retentionDays"');
  });

  it('rejects unknown override keys', () => {
    const error = configError({ env: { MEMOIR_HOME: home }, overrides: { recall_k: 3 } as never });
    expect(error.message).toContain('"recall_k"');
  });

  it('rejects unparsable JSON, naming the file and the JSON error', () => {
    const path = writeJson(join(home, 'config.json'), '{"retentionDays": 30,}');
    const error = configError({ env: { MEMOIR_HOME: home } });
    expect(error.message).toContain(path);
    expect(error.message).toMatch(/not valid JSON: .+/);
  });

  it('rejects a file that is not a JSON object', () => {
    writeJson(join(home, 'config.json'), '[1, 2]');
    expect(configError({ env: { MEMOIR_HOME: home } }).message).toContain('must hold a JSON object');
  });

  it('accepts a missing default file but not a missing named one', () => {
    expect(() => loadConfig({ env: { MEMOIR_HOME: join(dir, 'nowhere') } })).not.toThrow();
    const missing = join(dir, 'missing.json');
    expect(configError({ env: {}, file: missing }).message).toContain(`${missing} does not exist`);
    expect(configError({ env: { MEMOIR_CONFIG: missing } }).message).toContain(`${missing} does not exist`);
  });

  it('reports every source and logs each setting not left at its default', () => {
    const path = writeJson(join(home, 'config.json'), { maxSizeMb: 100 });
    const lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
    const { sources } = loadConfig({
      env: { MEMOIR_HOME: home, MEMOIR_RECALL_K: '7' },
      overrides: { captureEnabled: true },
      logger: { log: (level, message, fields) => lines.push({ level, message, fields }) },
    });
    expect(sources).toEqual({
      home: { kind: 'env', variable: 'MEMOIR_HOME' },
      store: { kind: 'default' },
      userId: { kind: 'default' },
      agentId: { kind: 'default' },
      namespace: { kind: 'default' },
      retentionDays: { kind: 'default' },
      maxSizeMb: { kind: 'file', path },
      maxMemories: { kind: 'default' },
      scheduleCleanup: { kind: 'default' },
      scheduleConsolidate: { kind: 'default' },
      recallK: { kind: 'env', variable: 'MEMOIR_RECALL_K' },
      recallMinScore: { kind: 'default' },
      tokenBudget: { kind: 'default' },
      logLevel: { kind: 'default' },
      captureEnabled: { kind: 'override' },
      mcpTools: { kind: 'default' },
      mcpToken: { kind: 'default' },
      embedderProvider: { kind: 'default' },
      embedderModel: { kind: 'default' },
      embedderBaseUrl: { kind: 'default' },
      embedderDimensions: { kind: 'default' },
      embedderApiKeyEnv: { kind: 'default' },
      model: { kind: 'default' },
      baseUrl: { kind: 'default' },
      apiKeyEnv: { kind: 'default' },
      visionModel: { kind: 'default' },
      visionBaseUrl: { kind: 'default' },
      proceduresEnabled: { kind: 'default' },
      proceduresReflectionModel: { kind: 'default' },
      proceduresMinToolCalls: { kind: 'default' },
      proceduresSimilarityThreshold: { kind: 'default' },
      proceduresUpdateThreshold: { kind: 'default' },
      proceduresMaxPerPrompt: { kind: 'default' },
    });
    const info = lines.filter((line) => line.level === 'info').map((line) => line.message);
    expect(info).toEqual([
      `configuration override: home = ${JSON.stringify(home)} from env MEMOIR_HOME`,
      `configuration override: maxSizeMb = 100 from file ${path}`,
      'configuration override: recallK = 7 from env MEMOIR_RECALL_K',
      'configuration override: captureEnabled = true from overrides',
    ]);
    expect(lines.find((line) => line.message.includes('recallK'))?.fields).toMatchObject({
      setting: 'recallK',
      value: 7,
    });
  });
});

describe('loadConfig: the embedder settings', () => {
  it('reads the embedder from the file, and lets MEMOIR_EMBEDDER_* variables win', () => {
    const path = writeJson(join(home, 'config.json'), {
      embedderProvider: 'openai',
      embedderModel: 'nomic-embed-text',
      embedderBaseUrl: 'http://127.0.0.1:11434/v1',
      embedderDimensions: 768,
      embedderApiKeyEnv: 'OLLAMA_KEY',
    });
    const fromFile = loadConfig({ env: { MEMOIR_HOME: home } });
    expect(fromFile.config).toMatchObject({
      embedderProvider: 'openai',
      embedderModel: 'nomic-embed-text',
      embedderBaseUrl: 'http://127.0.0.1:11434/v1',
      embedderDimensions: 768,
      embedderApiKeyEnv: 'OLLAMA_KEY',
    });
    expect(fromFile.sources.embedderModel).toEqual({ kind: 'file', path });

    const fromEnv = loadConfig({
      env: {
        MEMOIR_HOME: home,
        MEMOIR_EMBEDDER_PROVIDER: 'OpenAI',
        MEMOIR_EMBEDDER_MODEL: '1024',
        MEMOIR_EMBEDDER_BASE_URL: 'null',
        MEMOIR_EMBEDDER_DIMENSIONS: '1024',
        MEMOIR_EMBEDDER_API_KEY_ENV: '',
      },
    });
    expect(fromEnv.config).toMatchObject({
      embedderProvider: 'openai',
      // A model name made of digits stays a name.
      embedderModel: '1024',
      embedderBaseUrl: null,
      embedderDimensions: 1024,
      embedderApiKeyEnv: null,
    });
    expect(fromEnv.sources.embedderDimensions).toEqual({ kind: 'env', variable: 'MEMOIR_EMBEDDER_DIMENSIONS' });
  });

  it.each([
    ['MEMOIR_EMBEDDER_PROVIDER', 'cohere', 'embedderProvider', /one of "local", "openai"/],
    ['MEMOIR_EMBEDDER_BASE_URL', 'localhost:11434', 'embedderBaseUrl', /an http\(s\) URL/],
    ['MEMOIR_EMBEDDER_DIMENSIONS', '0', 'embedderDimensions', /whole number from 1 to 65536/],
  ])('rejects %s=%s, naming the setting', (variable, raw, field, expects) => {
    const error = configError({ env: { MEMOIR_HOME: home, [variable]: raw } });
    expect(error.field).toBe(field);
    expect(error.message).toMatch(expects);
    expect(error.message).toContain(`from env ${variable}`);
  });

  it('never echoes a key pasted where the name of its variable belongs', () => {
    const key = 'sk-proj-abc123DEF456';
    writeJson(join(home, 'config.json'), { embedderApiKeyEnv: key });
    const error = configError({ env: { MEMOIR_HOME: home } });
    expect(error.field).toBe('embedderApiKeyEnv');
    expect(error.message).toMatch(/name of the environment variable holding the API key \(never the key itself\)/);
    expect(`${error.message} ${error.suggestion}`).not.toContain(key);
  });

  it('refuses an API key in the file, and says to reference an environment variable instead', () => {
    writeJson(join(home, 'config.json'), { embedderProvider: 'openai', apiKey: 'sk-secret' });
    const error = configError({ env: { MEMOIR_HOME: home } });
    expect(error.field).toBe('apiKey');
    expect(error.suggestion).toMatch(/put the key in an environment variable.*"embedderApiKeyEnv"/);
    expect(`${error.message} ${error.suggestion}`).not.toContain('sk-secret');
  });
});

describe('loadConfig: a home that is a file', () => {
  it('says the home is a file, not that config.json cannot be read', () => {
    const file = join(dir, 'afile');
    writeFileSync(file, 'not a directory');
    const error = configError({ env: { MEMOIR_HOME: file } });
    expect(error.field).toBe('home');
    expect(error.message).toBe(`[memoir] config: home ${file} is a file, not a directory (home from env MEMOIR_HOME)`);
    expect(error.message).not.toMatch(/ENOTDIR|config\.json/);
    expect(error.suggestion).toMatch(/^Point MEMOIR_HOME \(or --home\) at a directory/);
  });

  it('names the file when the home lies under one', () => {
    const file = join(dir, 'afile');
    writeFileSync(file, '');
    const error = configError({ env: {}, overrides: { home: join(file, 'memoir') } });
    expect(error.message).toContain(`lies under ${file}, which is a file`);
  });

  it('accepts a home that does not exist yet', () => {
    expect(loadConfig({ env: { MEMOIR_HOME: join(dir, 'new', 'home') } }).config.home).toBe(join(dir, 'new', 'home'));
  });
});
