/** Calls of the roster's row buttons (api/staff/...) and their answers. */
import { request } from '../../../common/http.ts';

export interface JobHistoryRow {
  id: number;
  kind: '调岗' | '离职';
  fromDeptName: string | null;
  toDeptName: string | null;
  fromJob: string | null;
  toJob: string | null;
  fromJpTypeName: string | null;
  toJpTypeName: string | null;
  roles: string | null;
  leaveDate: string | null;
  remark: string | null;
  createUser: string | null;
  createTime: string | null;
}

export interface JpTypeOption {
  id: number;
  name: string;
  enabled?: boolean;
}

export interface RoleOption {
  id: number;
  name: string;
  level: number;
}

export const staffApi = {
  editJob: (body: { id: number; deptId: number; job: string; jpTypeId: number | null; roleIds?: number[]; remark?: string }) =>
    request('/api/staff/editJob', { method: 'PUT', body }),
  leave: (body: { id: number; leaveDate: string; cause: string }) => request('/api/staff/staffLeave', { method: 'PUT', body }),
  history: async (id: number) => (await request<JobHistoryRow[]>('/api/staff/jobHistory', { query: { id }, quiet: true })).data,
  createMember: (id: number, userid?: string) => request('/api/staff/qywx', { method: 'POST', body: userid ? { id, userid } : { id } }),
  pushMember: (id: number) => request('/api/staff/updateQywx', { method: 'PUT', body: { id } }),
  setMail: (id: number, email: string) => request('/api/staff/qywxEmail', { method: 'PUT', body: { id, email } }),
  deleteMember: (id: number) => request('/api/staff/deleteQywx', { method: 'DELETE', query: { id } }),
};
