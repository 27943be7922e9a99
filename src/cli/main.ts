/** Entry point of the `memoir` executable (bin/memoir.mjs loads it, or its build dist/cli.js). */
import { main } from './index.js';

main().catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
