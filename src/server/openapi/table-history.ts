/**
 * 历史记录, 恢复到此版本 and 回收站 of the hand-written tables (src/shared/table-history.ts) in the
 * OpenAPI document, one set of routes per table, shaped like a generated entity's
 * (crud/history/history-docs.ts). Merged by api-docs-routes.ts.
 */
import { LABELLED, TABLE_BINS, TABLE_HISTORY } from '../../shared/table-history.ts';
import { arrayOf, empty, errorAnswer, idsBody, json, noBody, nullable, object, pageOf, ref, type Json } from './shapes.ts';

const HISTORY_ENTRY = object({
  id: { type: 'integer', description: '历史版本ID' },
  action: { type: 'string', enum: ['create', 'update', 'delete', 'restore'] },
  actorKind: { type: 'string', enum: ['user', 'system'] },
  actorName: nullable('string'),
  time: { type: 'string', description: 'yyyy-MM-dd HH:mm:ss' },
  changes: arrayOf(
    object({
      field: { type: 'string', description: '字段名' },
      title: { type: 'string', description: '字段中文名' },
      old: { description: '修改前的值（其他表的 ID 显示为“名称（ID n）”；无 :sensitive 权限时个人信息已脱敏）' },
      new: { description: '修改后的值（同上）' },
    }),
  ),
});

/** 历史记录 and 恢复到此版本 of the hand-written tables (src/server/crud/history/table-history-routes.ts). */
export const TABLE_HISTORY_ROUTES: Record<string, Json> = Object.fromEntries(
  Object.values(TABLE_HISTORY).flatMap((spec): Array<[string, Json]> => [
    [
      `GET /${spec.path}/{id}/history`,
      {
        summary: `${spec.title}：历史记录（新的在前，逐字段对比；${spec.permission}:list）`,
        response: { 200: json(pageOf(HISTORY_ENTRY), '历史版本'), 404: json(ref('Error'), '数据不存在') },
      },
    ],
    [
      `POST /${spec.path}/{id}/restore/{revisionId}`,
      {
        summary: `${spec.title}：恢复到此版本（作为一次新的修改，校验与权限同修改；${spec.permission}:edit）`,
        ...noBody('记录与版本由路径指定，不带请求体'),
        response: {
          204: empty('已恢复'),
          400: json(ref('Error'), '当前数据与该版本一致，无需恢复；或该版本的值已被占用（如：用户名已存在）'),
          404: json(ref('Error'), '历史版本不存在'),
        },
      },
    ],
  ]),
);

/** A deleted record of a hand-written table as its 回收站 answers it (ids of other tables named). */
function binRecord(key: (typeof TABLE_BINS)[number]): Json {
  const spec = TABLE_HISTORY[key];
  const named = LABELLED[key] ?? {};
  const type = (t: string) => (t === 'integer' || t === 'boolean' ? t : 'string');
  return object(
    Object.fromEntries(
      spec.fields.map((f) => [
        f.name,
        f.auto === 'id'
          ? { type: 'integer', description: 'ID' }
          : nullable(named[f.name] ? 'string' : type(f.type), {
              description: named[f.name]
                ? `${f.title}（名称（ID n），多个以、分隔）`
                : f.mask
                  ? `${f.title}（无 :sensitive 权限时已脱敏）`
                  : f.title,
            }),
      ]),
    ),
    ['id'],
  );
}

/** 回收站 of the hand-written tables (src/server/crud/history/table-recycle-bin.ts), shaped like a generated entity's. */
export const TABLE_BIN_ROUTES: Record<string, Json> = Object.fromEntries(
  TABLE_BINS.flatMap((key): Array<[string, Json]> => {
    const spec = TABLE_HISTORY[key];
    const perm = `${spec.permission}:del`;
    const ids = idsBody('记录 ID（最多 10000 个）');
    return [
      [
        `GET /${spec.path}/recycleBin`,
        {
          summary: `${spec.title}：回收站（已删除的记录，删除人和时间；${perm}）`,
          querystring: object(
            {
              page: { type: 'integer', minimum: 0, default: 0 },
              size: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
            },
            [],
          ),
          response: {
            200: json(
              pageOf(
                object({
                  id: { type: 'integer', description: '记录 ID' },
                  revisionId: { type: 'integer', description: '删除的历史版本ID' },
                  deleteUser: nullable('string'),
                  actorKind: { type: 'string', enum: ['user', 'system'] },
                  deleteTime: { type: 'string', description: 'yyyy-MM-dd HH:mm:ss' },
                  record: binRecord(key),
                }),
              ),
              '一页已删除的记录，新删除的在前',
            ),
            400: errorAnswer(400, '分页参数不正确', '每页条数必须在1到100之间'),
          },
        },
      ],
      [
        `POST /${spec.path}/recycleBin/restore`,
        {
          summary: `${spec.title}：从回收站恢复（保留原 ID 及关联，全部成功或全部不恢复；${perm}）`,
          body: ids,
          response: {
            200: json(object({ count: { type: 'integer' } }), '恢复的条数'),
            400: errorAnswer(
              400,
              '引用的数据已删除、值已被占用或 ID 已存在，未做任何修改',
              '「部门」引用的部门（ID 12）已被删除，无法恢复，请先恢复或修改相关数据',
            ),
            404: errorAnswer(404, '不在回收站中', '回收站中没有该数据（ID 12）'),
          },
        },
      ],
      [
        `DELETE /${spec.path}/recycleBin`,
        {
          summary: `${spec.title}：彻底删除（记录及其历史记录；${perm}）`,
          body: ids,
          response: {
            200: json(object({ count: { type: 'integer' } }), '删除的条数'),
            404: errorAnswer(404, '不在回收站中', '回收站中没有该数据（ID 12）'),
          },
        },
      ],
    ];
  }),
);
