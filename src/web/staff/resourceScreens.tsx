/**
 * The resource screens: the generated list of `#/{name}` (with the resource's adjustments from
 * ./resources) and the narrowed list of `#/{name}:{param}`. Their own chunk, with the list's
 * grid, filters, dialogs and forms: the console's frame does not wait for them. A visit that
 * opens on a list fetches them beside the console's code (see ./resourceScreensLoader.ts).
 */
import { resourceByName } from '../../generated/resources.ts';
import { resourceOverrides } from './resources/index.ts';
import { SchemaList } from './schema/SchemaList.tsx';

export { ResourceParamRoute } from './pages/ResourceParamRoute.tsx';

export function ResourceList({ name }: { name: string }) {
  return <SchemaList spec={resourceByName[name]} overrides={resourceOverrides[name] ?? {}} />;
}
