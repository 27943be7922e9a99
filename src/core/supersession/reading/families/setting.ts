/**
 * A project's facts: a service's URL, port, host, database, region, owner. "The API base URL is
 * https://…", "the API moved to https://…", "billing runs on port 8080", "Dana owns the ingest service now".
 */
import type { Family } from '../family.js';

export const setting: Family = {
  name: 'setting',
  keyMatch: 'subset',
  value: 'literal',
  key: 'noun',
  states: {
    move: ['to'],
    run: ['on', 'at'],
    live: ['at', 'on'],
    point: ['to', 'at'],
    serve: ['from', 'at', 'on'],
    listen: ['on'],
    host: ['on', 'at'],
    deploy: ['to', 'on'],
    change: ['to'],
    set: ['to'],
  },
  afterBe: ['', 'at', 'on', 'now', 'now at', 'now on', 'set to', 'changed to'],
  nouns: [
    ...['url', 'base url', 'endpoint', 'port', 'host', 'hostname', 'domain', 'address', 'ip', 'region', 'zone'],
    ...['database', 'db', 'bucket', 'cluster', 'server', 'owner', 'maintainer', 'lead', 'on-call', 'oncall', 'contact'],
    ...['channel', 'branch', 'namespace', 'timeout', 'rate limit', 'api key', 'account', 'email', 'tier'],
    ...['instance', 'topic', 'schema', 'version', 'slack channel', 'webhook', 'dashboard', 'staging', 'production'],
  ],
  shared: true,
  onNegation: 'skip',
};
