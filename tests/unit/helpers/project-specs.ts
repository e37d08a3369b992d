/** The project's specs from schemas/, read once per test file (reading all of them compiles every schema). */
import { loadSpecs } from '../../../codegen/main.ts';
import type { ResourceSpec } from '../../../src/shared/resource-spec.ts';

let specs: ResourceSpec[] | undefined;

export function projectSpec(name: string): ResourceSpec {
  specs ??= loadSpecs('schemas');
  const spec = specs.find((s) => s.name === name);
  if (!spec) throw new Error(`no schema ${name}`);
  return spec;
}
