import { writeFileAtomic } from '../../shared/files/atomic-write.js';
import type { Memory } from '../../spec/memory.js';
import { generatedBody, writeGeneratedSection } from '../../workspace-format/generated-section.js';
import { BANK_PAGES, bankFacts, renderBankPage } from '../bank-pages.js';
import { pageAt, type ReflectPass } from './reflect-pass.js';

/** The bank pages step: `bank/world.md` and `bank/experience.md`, what holds now, written whatever the budget (no model). */
export async function writeBankPages(pass: ReflectPass, all: readonly Memory[]): Promise<void> {
  const { root, realRoot, report } = pass;
  for (const bank of BANK_PAGES) {
    const facts = bankFacts(bank, all);
    const { path, page } = pageAt(root, realRoot, bank.segments);
    if ('skipped' in page) {
      report.warnings.push(`${bank.file} ${page.skipped}, so it was left as it is`);
      report.bankPages.push({ file: bank.file, status: 'skipped' });
      continue;
    }
    // No page is made just to say it has nothing.
    if (facts.length === 0 && generatedBody(page.text ?? '', bank.section) === undefined) continue;
    const written = writeGeneratedSection(page.text ?? bank.title, bank.section, renderBankPage(bank, facts));
    if (written.status === 'hand-edited')
      report.warnings.push(`${bank.file}: the generated section was edited by hand, so it was left as it is`);
    else if (written.status !== 'unchanged') await writeFileAtomic(path, written.text);
    report.bankPages.push({ file: bank.file, status: written.status });
  }
}
