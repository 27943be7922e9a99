import { ensureHost, HOST_VERSIONS } from './openclaw-host.js';

// Install the OpenClaw host (Node 26 and openclaw, into the cache) and nothing else. CI runs this
// first, while `npm ci` and the build run, so the gateway test starts on a ready host; it imports
// only Node's own modules, so it runs before this checkout's node_modules exist.
const started = Date.now();
await ensureHost();
console.log(
  `openclaw-host: Node ${HOST_VERSIONS.node} and openclaw ${HOST_VERSIONS.openclaw} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
