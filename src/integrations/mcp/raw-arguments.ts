/**
 * Tool arguments as the peer sent them. The SDK parses every message with zod, which drops a
 * `__proto__` key from `arguments` without a word (JSON.parse had kept it as data), so a
 * call would run on arguments other than the ones sent. The transports look at the raw
 * message first: a `tools/call` whose arguments hold such a key has its arguments replaced by
 * a marker carrying the validation issue, and the server answers that call with the
 * ValidationError the library gives, the way it answers any bad argument.
 */
import type { ValidationIssue } from '../../core/spec/errors.js';
import { findProtoKey, PROTO_KEY, protoKeyError, protoKeyIssue } from '../agent-tools/argument-keys.js';

/**
 * The one key of arguments the transports put in place of arguments that held `__proto__`.
 * A NUL starts it, so no tool's schema has it; a peer that sends it only refuses its own call.
 */
export const REFUSED_ARGUMENTS_KEY = '\u0000memoir:refused-arguments';

const PROTO_BYTES = Buffer.from(`"${PROTO_KEY}"`);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A message (one JSON text) with any `tools/call` arguments that hold a `__proto__` key
 * replaced by the refusal marker; the same bytes when there is nothing to replace. Only texts
 * that contain the key at all are parsed, so ordinary traffic costs one byte search.
 *
 * @param text - The raw message.
 * @returns The message to hand to the SDK.
 */
export function markProtoArguments(text: Buffer): Buffer {
  if (text.indexOf(PROTO_BYTES) === -1) return text;
  let message: unknown;
  try {
    message = JSON.parse(text.toString('utf8'));
  } catch {
    return text; // not JSON: the SDK answers it as it would
  }
  const changed = Array.isArray(message) ? message.map(markOne).some(Boolean) : markOne(message);
  return changed ? Buffer.from(JSON.stringify(message), 'utf8') : text;
}

// Replace the arguments of one tools/call in place; true when it did.
function markOne(message: unknown): boolean {
  if (!isRecord(message) || message.method !== 'tools/call' || !isRecord(message.params)) return false;
  const args = message.params.arguments;
  const path = findProtoKey(args);
  if (!path) return false;
  const issue: ValidationIssue = protoKeyIssue(args, path);
  message.params.arguments = { [REFUSED_ARGUMENTS_KEY]: { field: issue.field, message: issue.message } };
  return true;
}

/**
 * The error for arguments a transport marked as refused, or undefined for ordinary ones.
 *
 * @param tool - The tool called.
 * @param args - The arguments the SDK handed over.
 * @returns The ValidationError to answer the call with.
 */
export function refusedArgumentsError(tool: string, args: unknown): Error | undefined {
  if (!isRecord(args) || !Object.hasOwn(args, REFUSED_ARGUMENTS_KEY)) return undefined;
  const marker = args[REFUSED_ARGUMENTS_KEY];
  const issue: ValidationIssue =
    isRecord(marker) && typeof marker.field === 'string' && typeof marker.message === 'string'
      ? { field: marker.field, message: marker.message }
      : { field: PROTO_KEY, message: `the key "${PROTO_KEY}" is not allowed in tool arguments` };
  return protoKeyError(tool, issue);
}
