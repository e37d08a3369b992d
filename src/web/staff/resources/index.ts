/**
 * Hand-written adjustments of generated screens, one folder per resource. A resource
 * without an entry here gets the plain generated screen.
 */
import type { ResourceOverrides } from '../schema/overrides.ts';
import sysQuestion from './sysQuestion/index.tsx';
import staffunZp from './staffunZp/index.tsx';
import dj from './dj/index.tsx';
import sysSocket from './sysSocket/index.tsx';
import applicant from './applicant/index.tsx';
import dbcCompany from './dbcCompany/index.tsx';
import dbcInfo from './dbcInfo/index.tsx';
import menuPage from './menuPage/index.tsx';
import jobExplain from './jobExplain/index.tsx';
import dbcUserInfo from './dbcUserInfo/index.tsx';
import staff from './staff/index.tsx';

export const resourceOverrides: Record<string, ResourceOverrides> = {
  sysQuestion,
  staffunZp,
  dj,
  sysSocket,
  applicant,
  dbcCompany,
  dbcInfo,
  menuPage,
  jobExplain,
  dbcUserInfo,
  staff,
};
