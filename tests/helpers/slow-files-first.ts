import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that took 40 s or more in CI (two workers beside the gateway test and the Node
 * matrix), slowest first. Vitest runs unknown files by size, and on a fresh clone every file is
 * unknown, so a small file that runs the S3 contract could start last and run alone for minutes
 * while the other worker sat idle. Starting these first leaves the short files for the end.
 */
const SLOW_FILES = [
  'tests/adapters/lancedb-store-s3.test.ts',
  'tests/core/backup-streaming.test.ts',
  'tests/package/package-exports.test.ts',
  'tests/adapters/bulk-change-kill.test.ts',
  'tests/integrations/mcp-server.test.ts',
  // Mostly waiting for the minute its schedule names: starting it first costs no core.
  'tests/integrations/mcp-schedule.test.ts',
  'tests/cli/cli-maintenance.test.ts',
  'tests/core/model-json.test.ts',
  'tests/property/public-api.property.test.ts',
  'tests/core/nothing-lost.test.ts',
  'tests/adapters/lancedb-kill-s3.test.ts',
  'tests/recorder/record-cli.test.ts',
  'tests/recorder/screen-recorder.test.ts',
  'tests/adapters/lancedb-store.test.ts',
  'tests/core/retention.test.ts',
  'tests/ui/ui-browser.test.ts',
  'tests/core/lone-surrogates.test.ts',
];

/** Vitest's order (failed, then longest, from its cache), with the known slow files moved to the front. */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FILES.findIndex((file) => spec.moduleId.replaceAll('\\', '/').endsWith(file));
      return index === -1 ? SLOW_FILES.length : index;
    };
    return sorted
      .map((spec, position) => ({ spec, position }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.position - b.position)
      .map(({ spec }) => spec);
  }
}
