/**
 * 备份管理 (modules/backup) in the OpenAPI document: the list, the running task, backing up,
 * downloading, deleting and restoring. The record shapes are TypeBox schemas proved equal to the
 * module's own types (BackupInfo, TaskState), so the document cannot drift from the code.
 */
import { Type } from '@sinclair/typebox';
import { BUSY } from '../modules/backup/create.ts';
import { NO_SUCH_BACKUP, STEP_UP_PROMPT, STEP_UP_WRONG, type TaskState } from '../modules/backup/index.ts';
import { NO_KEY } from '../modules/backup/keys.ts';
import type { BackupInfo } from '../modules/backup/store.ts';
import { STORAGE_LOW } from '../disk/free-space.ts';
import { errorAnswer, fileAnswer, json, noBody, object, pageOf, ref, same, uploadBody, type Json, type Static } from './shapes.ts';

const BackupInfoSchema = Type.Object(
  {
    name: Type.String({ description: '文件名：backup-YYYYMMDD-HHmmss-SSS-<原因>.tar.gz.enc（加密；.tar.gz 为旧的未加密格式）' }),
    size: Type.Integer({ minimum: 0, description: '字节' }),
    createdAt: Type.String({ description: 'YYYY-MM-DD HH:mm:ss' }),
    reason: Type.Union(
      [Type.Literal('manual'), Type.Literal('schedule'), Type.Literal('cli'), Type.Literal('pre-restore'), Type.Literal('pre-migration')],
      {
        description: '手动、定时、命令行、恢复前自动备份、迁移前自动备份',
      },
    ),
    encrypted: Type.Boolean({ description: '是否加密（false：旧的未加密格式，只能用命令行恢复）' }),
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
const PASSWORD = {
  type: 'string',
  description: '当前登录账号的密码，与登录时一样用 GET /api/publicKey 的公钥 RSA-OAEP(SHA-256) 加密后 base64',
};
const noKey = errorAnswer(503, '未设置备份加密密钥 BACKUP_ENCRYPTION_KEY，不备份也不恢复', NO_KEY);
const stepUp = errorAnswer(400, '没有再次输入密码、密码错误，或备份无法恢复（现有数据未改变）', STEP_UP_WRONG);
const level = errorAnswer(
  403,
  '没有 backup:restore 权限（没有权限，请联系管理员），或角色级别低于管理员（角色权限不足，你的角色级别：3，低于操作的角色级别：1）',
  '没有权限，请联系管理员',
);
const busy = errorAnswer(409, '已有备份或恢复任务在进行，或同一 submit_id 的重复提交', BUSY);
const missing = errorAnswer(404, '备份不存在', NO_SUCH_BACKUP);

/** the upload of a restore: the password, then the file */
const upload = (() => {
  const u = uploadBody('加密的备份文件（.tar.gz.enc，最大 20 GB）') as { consumes: string[]; body: Json & { properties: Json } };
  return { ...u, body: object({ password: PASSWORD, file: u.body.properties.file }) };
})();

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
              encryption: Type.Object({
                state: Type.Union([Type.Literal('configured'), Type.Literal('demo'), Type.Literal('missing')], {
                  description: '备份加密密钥：已设置、演示环境自动生成、未设置（不备份）',
                }),
                message: Type.Union([Type.String(), Type.Null()], { description: '未设置或演示密钥时给管理员的提示' }),
              }),
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
      503: noKey,
      507: errorAnswer(507, '备份目录所在磁盘空间不足', STORAGE_LOW),
    },
  },
  'GET /api/backups/{name}/download': {
    summary: '下载备份文件',
    response: { 200: fileAnswer('application/octet-stream', '加密的备份文件（.tar.gz.enc）'), 404: missing },
  },
  'DELETE /api/backups/{name}': {
    summary: '删除备份',
    response: { 200: json(Type.Object({ deleted: Type.String({ description: '删除的文件名' }) }), '已删除'), 404: missing },
  },
  'POST /api/backups/{name}/restore': {
    summary: '恢复到列表中的一个备份（恢复前自动备份当前数据；需管理员级别并再次输入密码）',
    body: object({ password: PASSWORD }),
    response: {
      200: json(RestoredSchema, '已恢复'),
      202: running,
      400: stepUp,
      403: level,
      404: missing,
      409: busy,
      503: noKey,
      507: errorAnswer(507, '磁盘空间不足以先备份当前数据', STORAGE_LOW),
    },
  },
  'POST /api/backups/restore': {
    summary: '上传备份文件并恢复（恢复前自动备份当前数据；需管理员级别并再次输入密码，password 字段在 file 之前）',
    ...upload,
    response: {
      200: json(RestoredSchema, '已恢复'),
      202: running,
      400: errorAnswer(400, '没有文件、文件过大或空、没有再次输入密码或密码错误，或备份无法恢复（现有数据未改变）', STEP_UP_PROMPT),
      403: level,
      409: busy,
      503: noKey,
      507: errorAnswer(507, '磁盘空间不足以先备份当前数据', STORAGE_LOW),
    },
  },
};
