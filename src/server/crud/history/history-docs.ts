/**
 * The OpenAPI parts of the history and recycle-bin routes (history-routes.ts): which routes a
 * resource has, and each one's summary, body and answers. api-docs.ts adds them to the document
 * like the other generic routes.
 */
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { NOTHING_TO_RESTORE, REVISION_NOT_FOUND } from './history.ts';
import { NOT_IN_BIN } from './history-routes.ts';

export type HistoryKind = 'history' | 'restore' | 'binList' | 'binRestore' | 'binPurge';
type Json = Record<string, unknown>;
type ErrorAnswer = (status: number, description: string, message: string) => Json;

/** `METHOD url` (Fastify's form) -> kind, for the routes the resource has. */
export function historyRouteKinds(spec: ResourceSpec): Array<[string, HistoryKind]> {
  const base = `/${spec.path}`;
  const out: Array<[string, HistoryKind]> = [[`GET ${base}/:id/history`, 'history']];
  if (spec.actions.includes('edit')) out.push([`POST ${base}/:id/restore/:revisionId`, 'restore']);
  if (spec.actions.includes('del')) {
    out.push(
      [`GET ${base}/recycleBin`, 'binList'],
      [`POST ${base}/recycleBin/restore`, 'binRestore'],
      [`DELETE ${base}/recycleBin`, 'binPurge'],
    );
  }
  return out;
}

const json = (schema: Json) => ({ 'application/json': { schema } });

const FIELD_CHANGE: Json = {
  type: 'object',
  properties: {
    field: { type: 'string', description: '字段名' },
    title: { type: 'string', description: '字段中文名' },
    old: { description: '修改前的值（无 :sensitive 权限时个人信息已脱敏）' },
    new: { description: '修改后的值（同上）' },
  },
};

const ENTRY: Json = {
  type: 'object',
  properties: {
    id: { type: 'integer', description: '历史版本ID' },
    action: { type: 'string', enum: ['create', 'update', 'delete', 'import', 'restore', 'status'] },
    actorKind: { type: 'string', enum: ['user', 'dealer', 'applicant', 'system'] },
    actorName: { type: ['string', 'null'] },
    time: { type: 'string', description: 'yyyy-MM-dd HH:mm:ss' },
    changes: { type: 'array', items: FIELD_CHANGE },
  },
};

const IDS: Json = { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 10000, description: '记录 ID' };
const COUNT: Json = { type: 'object', properties: { count: { type: 'integer' } } };

export function historySchema(spec: ResourceSpec, kind: HistoryKind, record: Json, errorAnswer: ErrorAnswer): Json {
  const title = spec.title;
  switch (kind) {
    case 'history':
      return {
        summary: `${title}：历史记录（新的在前，逐字段对比）`,
        response: {
          200: {
            description: '历史版本',
            content: json({ type: 'object', properties: { content: { type: 'array', items: ENTRY }, totalElements: { type: 'integer' } } }),
          },
          404: errorAnswer(404, '记录不存在', '数据不存在'),
        },
        badRequest: 'ID必须是正整数',
      };
    case 'restore':
      return {
        summary: `${title}：恢复到此版本（作为一次新的修改，校验同修改）`,
        response: {
          200: {
            description: '已恢复：改动的字段（调用者可见的字段）',
            content: json({ type: 'object', properties: { changes: { type: 'array', items: FIELD_CHANGE } } }),
          },
          404: errorAnswer(404, '记录或历史版本不存在', REVISION_NOT_FOUND),
        },
        badRequest: NOTHING_TO_RESTORE,
      };
    case 'binList':
      return {
        summary: `${title}：回收站（已删除的记录，删除人和时间）`,
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 0, default: 0 },
            size: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
          },
        },
        response: {
          200: {
            description: '一页已删除的记录',
            content: json({
              type: 'object',
              properties: {
                content: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      id: { type: 'integer', description: '记录 ID' },
                      revisionId: { type: 'integer' },
                      deleteUser: { type: ['string', 'null'] },
                      deleteTime: { type: 'string' },
                      record: record,
                    },
                  },
                },
                totalElements: { type: 'integer' },
              },
            }),
          },
        },
        badRequest: '每页条数必须在1到100之间',
      };
    case 'binRestore':
      return {
        summary: `${title}：从回收站恢复（保留原 ID，全部成功或全部不恢复）`,
        body: IDS,
        response: { 200: { description: '恢复的条数', content: json(COUNT) }, 404: errorAnswer(404, '不在回收站中', NOT_IN_BIN) },
        badRequest: '「所属公司」引用的部门（ID 12）已被删除，无法恢复，请先恢复或修改相关数据',
      };
    case 'binPurge':
      return {
        summary: `${title}：彻底删除（记录及其历史记录）`,
        body: IDS,
        response: { 200: { description: '删除的条数', content: json(COUNT) }, 404: errorAnswer(404, '不在回收站中', NOT_IN_BIN) },
        badRequest: '请至少选择一条数据',
      };
  }
}
