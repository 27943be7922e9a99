import { z } from 'zod';
import { isSlug } from '../../procedure-files/procedure-file.js';

/** A procedure id: its file's name without `.md`. */
export const slugSchema = z
  .string()
  .min(1)
  .max(200)
  .refine(isSlug, 'expected a procedure id: the file name without .md (letters, digits, ".", "_", "-")');

/** A request procedures are looked up for. */
export const querySchema = z.string().trim().min(1, 'expected a non-empty request').max(20_000);
