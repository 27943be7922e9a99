/** Words a job title ends in ("engineer", "director"), by lemma. */
export const TITLE_WORDS: ReadonlySet<string> = new Set([
  ...'engineer developer programmer manager designer director lead scientist analyst teacher nurse doctor physician consultant architect intern'.split(
    ' ',
  ),
  ...'ceo cto cfo coo cmo cpo vp president founder co-founder cofounder accountant lawyer attorney writer editor researcher professor lecturer'.split(
    ' ',
  ),
  ...'student chef cook pharmacist therapist specialist administrator admin officer coordinator associate assistant technician mechanic'.split(
    ' ',
  ),
  ...'electrician plumber pilot driver principal recruiter salesperson representative marketer strategist economist journalist photographer'.split(
    ' ',
  ),
  ...'artist musician dentist surgeon veterinarian vet paralegal clerk cashier barista waiter waitress librarian freelancer contractor sre devops'.split(
    ' ',
  ),
  ...'tester owner partner head chief staff fellow postdoc resident instructor coach trainer advisor adviser counselor counsellor supervisor'.split(
    ' ',
  ),
  ...'executive producer director analyst operator agent broker banker auditor underwriter actuary nanny caretaker firefighter paramedic officer'.split(
    ' ',
  ),
  ...'translator interpreter illustrator animator copywriter ux ui pm tpm em sde swe qa'.split(' '),
]);
