/**
 * 备份管理 (modules/backup) in the OpenAPI document: the list, the running task, backing up,
 * downloading, deleting and restoring. The record shapes are TypeBox schemas proved equal to the
 * module's own types (BackupInfo, TaskState), so the document cannot drift from the code.
 */
import { Type } from '@sinclair/typebox';
import { BUSY } from '../modules/backup/create.ts';
import { NO_SUCH_BACKUP, type TaskState } from '../modules/backup/index.ts';
import type { BackupInfo } from '../modules/backup/store.ts';
import { STORAGE_LOW } from '../disk/free-space.ts';
import { errorAnswer, fileAnswer, json, noBody, pageOf, ref, same, uploadBody, type Json, type Static } from './shapes.ts';

const BackupInfoSchema = Type.Object(
  {
    name: Type.String({ description: '文件名：backup-YYYYMMDD-HHmmss-<原因>.tar.gz' }),
    size: Type.Integer({ minimum: 0, description: '字节' }),
    createdAt: Type.String({ description: 'YYYY-MM-DD HH:mm:ss' }),
    reason: Type.Union([Type.Literal('manual'), Type.Literal('schedule'), Type.Literal('cli'), Type.Literal('pre-restore')], {
      description: '手动、定时、命令行、恢复前自动备份',
    }),
  },
  { title: '备份' },
);
same<Static<typeof BackupInfoSchema>, BackupInfo>(true);

const TaskStateSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('backup'), Type.Literal('restore')]),
    stage: Type.String({ description: '当前步骤，如 正在备份、已完成、失败' }),
    startedAt: Type.String(),
    finishedAt: Type.Optional(Type.String()),
    ok: Type.Optional(Type.Boolean({ description: '完成后：是否成功' })),
    message: Type.Optional(Type.String({ description: '完成后：结果或失败原因' })),
  },
  { title: '备份或恢复任务' },
);
same<Static<typeof TaskStateSchema>, TaskState>(true);

const RestoredSchema = Type.Object({
  restored: Type.String({ description: '恢复的备份（文件名或上传的文件名）' }),
  createdAt: Type.String({ description: '该备份的时间' }),
  rows: Type.Integer({ description: '恢复的行数' }),
  tables: Type.Integer({ description: '恢复的表数' }),
  before: BackupInfoSchema,
});

export const BACKUP_COMPONENTS: Record<string, Json> = {
  BackupInfo: BackupInfoSchema,
  BackupTask: TaskStateSchema,
};

const task = ref('BackupTask');
const nullableTask = { anyOf: [task, { type: 'null' }] };
const running = json(
  Type.Object({ running: Type.Literal(true), task: Type.Unsafe<TaskState>(task) }),
  '接近请求时限仍在进行：转入后台，用 GET /api/backups/task 查看进度',
);
const busy = errorAnswer(409, '已有备份或恢复任务在进行，或同一 submit_id 的重复提交', BUSY);
const missing = errorAnswer(404, '备份不存在', NO_SUCH_BACKUP);

export const BACKUP_ROUTES: Record<string, Json> = {
  'GET /api/backups': {
    summary: '备份列表（最新在前）、进行中的任务和最近一次定时备份',
    response: {
      200: json(
        {
          allOf: [
            pageOf(ref('BackupInfo')),
            Type.Object({
              dir: Type.String({ description: '备份目录（BACKUP_DIR）' }),
              keep: Type.Integer({ description: '定时备份保留的份数（BACKUP_KEEP）' }),
              task: Type.Unsafe<TaskState | null>(nullableTask),
              lastScheduled: Type.Union([
                Type.Object({ time: Type.String(), success: Type.Boolean(), message: Type.String() }),
                Type.Null(),
              ]),
            }),
          ],
        },
        '备份与任务',
      ),
    },
  },
  'GET /api/backups/task': {
    summary: '本实例进行中（或最近一次）的备份或恢复任务',
    response: { 200: json(Type.Object({ task: Type.Unsafe<TaskState | null>(nullableTask) }), '任务；没有时为 null') },
  },
  'POST /api/backups': {
    summary: '立即备份数据库和上传的文件',
    ...noBody('只触发一次备份，不带请求体'),
    response: {
      200: json(ref('BackupInfo'), '备份完成'),
      202: running,
      409: busy,
      507: errorAnswer(507, '备份目录所在磁盘空间不足', STORAGE_LOW),
    },
  },
  'GET /api/backups/{name}/download': {
    summary: '下载备份文件',
    response: { 200: fileAnswer('application/gzip', '备份文件（.tar.gz）'), 404: missing },
  },
  'DELETE /api/backups/{name}': {
    summary: '删除备份',
    response: { 200: json(Type.Object({ deleted: Type.String({ description: '删除的文件名' }) }), '已删除'), 404: missing },
  },
  'POST /api/backups/{name}/restore': {
    summary: '恢复到列表中的一个备份（恢复前自动备份当前数据）',
    ...noBody('备份由路径中的文件名指定，不带请求体'),
    response: {
      200: json(RestoredSchema, '已恢复'),
      202: running,
      400: errorAnswer(400, '备份无法恢复，现有数据未改变', '备份无法恢复，现有数据未改变：文件不完整'),
      404: missing,
      409: busy,
      507: errorAnswer(507, '磁盘空间不足以先备份当前数据', STORAGE_LOW),
    },
  },
  'POST /api/backups/restore': {
    summary: '上传备份文件并恢复（恢复前自动备份当前数据）',
    ...uploadBody('备份文件（.tar.gz，最大 20 GB）', ['application/gzip']),
    response: {
      200: json(RestoredSchema, '已恢复'),
      202: running,
      400: errorAnswer(400, '没有文件、文件过大或空，或备份无法恢复（现有数据未改变）', '请选择要恢复的备份文件（.tar.gz）'),
      409: busy,
      507: errorAnswer(507, '磁盘空间不足以先备份当前数据', STORAGE_LOW),
    },
  },
};
