/**
 * 首页's summary (modules/home/summary.ts) in the OpenAPI document: the schema is proved equal to
 * the shared type the server builds and the home screen reads (shared/home-summary.ts).
 */
import { Type } from '@sinclair/typebox';
import type { Summary } from '../../shared/home-summary.ts';
import { json, same, type Json, type Static } from './shapes.ts';

const HomeSummarySchema = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        key: Type.String({ description: '如 pendingCarRequests、openFeedback、unreadMessages' }),
        title: Type.String({ description: '如 待审核代步车申请' }),
        count: Type.Integer({ minimum: 0 }),
        resource: Type.Union([Type.String(), Type.Null()], { description: '点击打开的列表（实体名）；null 为本人的系统消息' }),
        filter: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]), {
          description: '打开列表时带的筛选条件',
        }),
      }),
      { description: '待办：仅含调用者持有列表权限的项，数量按其数据范围计算' },
    ),
    charts: Type.Array(
      Type.Object({
        key: Type.String(),
        title: Type.String(),
        resource: Type.String(),
        days: Type.Array(Type.Object({ date: Type.String({ description: 'YYYY-MM-DD' }), count: Type.Integer({ minimum: 0 }) })),
      }),
      { description: '近30天每天新增的数量' },
    ),
    from: Type.String({ description: '图表的第一天 YYYY-MM-DD' }),
    to: Type.String({ description: '图表的最后一天（今天）' }),
  },
  { title: '首页摘要' },
);
same<Static<typeof HomeSummarySchema>, Summary>(true);

export const HOME_COMPONENTS: Record<string, Json> = { HomeSummary: HomeSummarySchema };

export const HOME_ROUTES: Record<string, Json> = {
  'GET /api/home/summary': {
    summary: '首页：待办数量（按权限与数据范围）和近30天的新增数量',
    response: { 200: json({ $ref: '#/components/schemas/HomeSummary' }, '待办与图表') },
  },
};
