/**
 * Two departments below the root, made through the API as admin: the caller's own (本部门) and
 * another (其他部门), for tests that put records inside and outside a data scope.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer, submitId } from './helpers.ts';
import type { Created } from '../support/answers.ts';

export async function twoDepartments(app: FastifyInstance, admin: string): Promise<{ mine: number; other: number }> {
  const root = Number((await app.database.db.selectFrom('sys_dept').select('id').where('pid', 'is', null).executeTakeFirstOrThrow()).id);
  const dept = async (name: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/dept',
      headers: { ...bearer(admin), submit_id: submitId() },
      payload: { name, pid: root, sort: 1, enabled: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json<Created>().id);
  };
  return { mine: await dept('本部门'), other: await dept('其他部门') };
}
