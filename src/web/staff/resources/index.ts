/**
 * Hand-written adjustments of generated screens, one folder per resource. A resource
 * without an entry here gets the plain generated screen. Loaded with the list screens, not
 * with the console's frame: a resource's menu icon and record page are in ./shellParts.ts.
 */
import type { ResourceOverrides } from '../schema/overrides.ts';
import sysQuestion from './sysQuestion/index.tsx';
import dj from './dj/index.tsx';
import applicant from './applicant/index.tsx';
import dbcCompany from './dbcCompany/index.tsx';
import dbcInfo from './dbcInfo/index.tsx';
import dbcUserInfo from './dbcUserInfo/index.tsx';
import staff from './staff/index.tsx';
import sysSocket from './sysSocket/index.tsx';

export const resourceOverrides: Record<string, ResourceOverrides> = {
  sysQuestion,
  dj,
  applicant,
  dbcCompany,
  dbcInfo,
  dbcUserInfo,
  staff,
  sysSocket,
};
