// A TypeDoc plugin that fails the docs build when a public type's page would not show
// its fields: a type alias left as a reference to another package's type (such as zod's
// `z.input<typeof schema>`, which typedoc-plugin-zod should have expanded), or an object
// shape — an interface, an object type alias, or an object inside a union, an intersection,
// an array or a field — with a field or method that has no comment.
//
// Loaded from typedoc.base.json ("plugin", through typedoc.config.mjs); tests/package/docs-fields.test.ts runs it on the
// real entry points and on a fixture that must fail.

import { Application, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.on(Application.EVENT_VALIDATE_PROJECT, (project) => {
    for (const problem of findFieldProblems(project)) app.logger.error(problem);
  });
}

/**
 * Every problem in a converted project, one sentence each.
 *
 * @param {import('typedoc').ProjectReflection} project
 * @returns {string[]}
 */
export function findFieldProblems(project) {
  const problems = [];
  const types = project.getReflectionsByKind(ReflectionKind.TypeAlias | ReflectionKind.Interface);
  for (const reflection of types) {
    const name = reflection.getFriendlyFullName();
    const type = reflection.type;
    if (reflection.kindOf(ReflectionKind.TypeAlias) && type?.type === 'reference' && isForeign(type)) {
      problems.push(
        `${name} is documented as a bare reference to ${type.package}'s ${type.qualifiedName}, with no fields: ` +
          'expand it (typedoc-plugin-zod for zod types) or declare it as an interface.',
      );
      continue;
    }
    if (reflection.kindOf(ReflectionKind.Interface)) checkMembers(reflection.children ?? [], name, problems);
    else if (type) checkType(type, name, problems);
  }
  return problems;
}

/** A reference that resolves to nothing in the project and does not come from TypeScript's lib. */
function isForeign(type) {
  return !type.reflection && type.package !== undefined && type.package !== 'typescript';
}

function checkMembers(members, owner, problems) {
  for (const member of members) {
    const path = `${owner}.${member.name}`;
    if (!isDocumented(member)) problems.push(`${path} has no comment: document the field where it is declared.`);
    if (member.type) checkType(member.type, path, problems);
  }
}

function checkType(type, path, problems) {
  switch (type.type) {
    case 'reflection':
      checkMembers(type.declaration.children ?? [], path, problems);
      break;
    case 'union':
    case 'intersection':
      for (const member of type.types) checkType(member, path, problems);
      break;
    case 'array':
      checkType(type.elementType, path, problems);
      break;
    case 'optional':
    case 'rest':
      checkType(type.elementType, path, problems);
      break;
    case 'reference':
      for (const argument of type.typeArguments ?? []) checkType(argument, path, problems);
      break;
    default:
      break;
  }
}

function isDocumented(member) {
  if (member.hasComment()) return true;
  const signatures = [
    ...(member.signatures ?? []),
    ...(member.getSignature ? [member.getSignature] : []),
    ...(member.setSignature ? [member.setSignature] : []),
    ...(member.type?.type === 'reflection' ? (member.type.declaration.signatures ?? []) : []),
  ];
  return signatures.some((signature) => signature.hasComment());
}
