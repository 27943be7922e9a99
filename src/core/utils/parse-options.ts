import type { z } from 'zod';
import { ConfigError } from '../spec/errors.js';
import { toValidationIssues } from './validate.js';

/**
 * Parse a factory's options once, when it runs. The first problem becomes a ConfigError
 * naming the option (`option dimensions: expected …`), the component and what to do.
 */
export function parseOptions<S extends z.ZodType>(
  schema: S,
  options: unknown,
  component: string,
  suggestion: string | ((field: string) => string),
): z.output<S> {
  const input = options === undefined ? {} : options;
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const [issue] = toValidationIssues(parsed.error, input, '');
  const field = issue?.field ?? '';
  throw new ConfigError(`option ${field || 'options'}: ${issue?.message ?? 'invalid'}`, {
    component,
    field,
    suggestion: typeof suggestion === 'function' ? suggestion(field) : suggestion,
  });
}
