import type { Procedure } from '../../spec/records.js';
import type { BrokenProcedureFile } from '../procedure-index.js';
import type { LibraryContext } from './library-context.js';
import { syncLibrary } from './library-index.js';

/** `procedures.list`: every readable procedure of the client's scope, by id. */
export async function listProcedures(ctx: LibraryContext): Promise<Procedure[]> {
  return (await syncLibrary(ctx)).procedures.map((entry) => entry.procedure);
}

/** `procedures.invalidFiles`: the files of the directory that are not readable procedures, and why. */
export async function invalidProcedureFiles(ctx: LibraryContext): Promise<BrokenProcedureFile[]> {
  return (await syncLibrary(ctx)).broken;
}
