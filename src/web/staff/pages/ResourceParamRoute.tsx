/** `#/{resource}:{param}`: a resource list narrowed by its route parameter (e.g. sysQuestion:销售). */
import { useParams } from 'react-router-dom';
import { resourceByName } from '../../../generated/resources.ts';
import { resourceOverrides } from '../resources/index.ts';
import { SchemaList } from '../schema/SchemaList.tsx';
import { NotFoundPage } from './ErrorPages.tsx';

export function splitResourceParam(segment: string | undefined): { name: string; param: string } | null {
  if (!segment) return null;
  const at = segment.indexOf(':');
  if (at <= 0) return null;
  return { name: segment.slice(0, at), param: segment.slice(at + 1) };
}

export function ResourceParamRoute() {
  const { segment } = useParams();
  const parts = splitResourceParam(segment);
  const spec = parts ? resourceByName[parts.name] : undefined;
  const overrides = parts ? resourceOverrides[parts.name] : undefined;
  if (!parts || !spec || !overrides?.routeParam) return <NotFoundPage />;
  return <SchemaList key={segment} spec={spec} overrides={overrides} routeParam={parts.param} />;
}
