/**
 * 系统设置: what the session's `sys` carries (favicon, logo, company name, filing number, home
 * image, title), read and written by holders of the keys, and the favicon at /favicon.ico.
 *   GET /api/system/sysConfig        sysConfig:list   the settings as stored (defaults filled in)
 *   PUT /api/system/sysConfig        sysConfig:edit   any of the fields; '' clears a picture
 *   GET /favicon.ico                 public           the uploaded favicon, else the default icon
 * Pictures are uploaded first through POST /api/pictures; a setting holds the answer's url
 * (/api/files/<key>), which must name a stored picture. The values are answered in `sys` of
 * api/info and by the public api/system/sysConfigInit/anon/pc.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SETTINGS_RECORD_ID, TABLE_HISTORY } from '../../../shared/table-history.ts';
import type { RevisionAction } from '../../crud/history/revisions.ts';
import { registerTableHistory } from '../../crud/history/table-history-routes.ts';
import { trackChange, type TrackedTable } from '../../crud/history/table-revisions.ts';
import { deflateSync } from 'node:zlib';
import { badRequest } from '../../errors.ts';
import { createStorage } from '../../providers/storage.ts';
import { getPublicSettings, setPublicSetting, PUBLIC_SETTING_KEYS, type PublicSettings } from './public-settings.ts';

/** the picture settings: each holds the url of an uploaded picture, or '' */
export const PICTURE_SETTINGS: Array<keyof PublicSettings> = ['favicon', 'logo', 'sysHomeImg'];

const LABELS: Record<keyof PublicSettings, string> = {
  favicon: '网站图标',
  logo: '系统Logo',
  compName: '公司名称',
  recordNumber: '备案号',
  sysHomeImg: '首页图片',
  title: '系统名称',
};

const MAX_TEXT: Partial<Record<keyof PublicSettings, number>> = { compName: 50, recordNumber: 50, title: 30 };
const FILE_URL = /^\/api\/files\/([0-9a-f]{32})$/;

/** The stored-file key of a picture setting's url, or null when the url is not one of ours. */
export function fileKeyOf(url: string): string | null {
  return FILE_URL.exec(url)?.[1] ?? null;
}

export async function registerSystemSettings(app: FastifyInstance): Promise<void> {
  const storage = await createStorage(app.database, { kind: app.config.storage, dataDir: app.config.dataDir });
  const db = () => app.database.db;
  /** the settings as one record (id 1) of record history: every key with its value, defaults filled in */
  const SETTINGS_TABLE: TrackedTable = {
    spec: TABLE_HISTORY.settings,
    read: async (d, ids) =>
      ids.includes(SETTINGS_RECORD_ID) ? new Map([[SETTINGS_RECORD_ID, { ...(await getPublicSettings(d, app.config)) }]]) : new Map(),
  };

  app.get('/api/system/sysConfig', { preHandler: app.requirePermission('sysConfig:list') }, async () =>
    getPublicSettings(db(), app.config),
  );

  app.put('/api/system/sysConfig', { preHandler: app.requirePermission('sysConfig:edit') }, async (request, reply) => {
    await editSettings(request, request.body, 'update');
    return reply.status(204).send();
  });

  /** The edit of the settings: each value checked, then the writes and their revision. */
  const editSettings = async (request: FastifyRequest, body: unknown, action: RevisionAction) => {
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('请求内容不能为空');
    const changes: Array<[keyof PublicSettings, string]> = [];
    for (const [name, raw] of Object.entries(body as Record<string, unknown>)) {
      if (name === 'id') continue;
      const key = name as keyof PublicSettings;
      if (!PUBLIC_SETTING_KEYS.includes(key)) throw badRequest(`未知的设置项：${name.slice(0, 40)}`);
      if (raw === null || raw === undefined) continue;
      if (typeof raw !== 'string') throw badRequest(`${LABELS[key]}格式不正确`);
      const value = raw.trim();
      if (PICTURE_SETTINGS.includes(key)) {
        if (value) {
          const fileKey = fileKeyOf(value);
          const found = fileKey ? await storage.get(fileKey) : null;
          if (!found || !found.file.contentType.startsWith('image/')) throw badRequest(`${LABELS[key]}请上传图片`);
        }
      } else {
        if (key === 'compName' && !value) throw badRequest('公司名称不能为空');
        if (key === 'title' && !value) throw badRequest('系统名称不能为空');
        const max = MAX_TEXT[key] ?? 50;
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u001f\u007f<>]/.test(value)) throw badRequest(`${LABELS[key]}不能包含特殊字符`);
        if ([...value].length > max) throw badRequest(`${LABELS[key]}不能超过${max}个字符`);
      }
      changes.push([key, value]);
    }
    if (!changes.length) throw badRequest('请求内容不能为空');
    await app.database.db.transaction().execute((trx) =>
      trackChange(trx, app.database.dialect, SETTINGS_TABLE, request, action, [SETTINGS_RECORD_ID], async () => {
        for (const [key, value] of changes) await setPublicSetting(trx, key, value);
      }),
    );
  };

  registerTableHistory(app, {
    key: 'settings',
    table: SETTINGS_TABLE,
    restore: (request, _id, state) => editSettings(request, state, 'restore'),
  });

  app.get('/favicon.ico', { config: { rateLimit: { max: 600, timeWindow: 60_000 } } }, async (_request, reply) => {
    const { favicon } = await getPublicSettings(db(), app.config);
    const key = favicon ? fileKeyOf(favicon) : null;
    const found = key ? await storage.get(key) : null;
    // a short cache: a new favicon shows within minutes even where the link is not refreshed
    reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
    if (found) return reply.type(found.file.contentType).send(found.content);
    return reply.type('image/png').send(defaultFavicon());
  });
}

let defaultIcon: Buffer | undefined;

/** The icon served before one is set: a 32×32 PNG, a white car on the console's blue. */
export function defaultFavicon(): Buffer {
  defaultIcon ??= drawDefaultIcon();
  return defaultIcon;
}

function drawDefaultIcon(): Buffer {
  const size = 32;
  const px = Buffer.alloc(size * size * 4);
  const set = (x: number, y: number, [r, g, b, a]: number[]) => px.set([r, g, b, a], (y * size + x) * 4);
  const BLUE = [0x18, 0x90, 0xff, 255];
  const WHITE = [255, 255, 255, 255];
  const DARK = [0x0b, 0x3d, 0x73, 255];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // rounded square (radius 6)
      const cx = Math.min(Math.max(x, 6), 25);
      const cy = Math.min(Math.max(y, 6), 25);
      const inside = (x - cx) ** 2 + (y - cy) ** 2 <= 36.5;
      if (!inside) continue;
      let colour = BLUE;
      const cabin = y >= 9 && y <= 14 && x >= 10 + (14 - y) / 2 && x <= 21 - (14 - y) / 2;
      const body = y >= 15 && y <= 21 && x >= 5 && x <= 26;
      if (cabin || body) colour = WHITE;
      for (const wx of [10, 21]) if ((x - wx) ** 2 + (y - 22) ** 2 <= 9) colour = (x - wx) ** 2 + (y - 22) ** 2 <= 2 ? WHITE : DARK;
      set(x, y, colour);
    }
  }
  return encodePng(size, size, px);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** An RGBA image as a PNG file. */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
