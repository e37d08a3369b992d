/**
 * Free space of DATA_DIR, read with statfs:
 * - imports and exports refuse to start with 507 存储空间不足，请联系管理员清理后重试 when less than
 *   DISK_MIN_FREE_MB is free (here a threshold above any real volume's free space), and start
 *   when enough is;
 * - under DISK_WARN_FREE_MB the administrators get one notice (a switched-off system message,
 *   so not every staff member's bell, and an INFO on the admin's open socket), again only after
 *   RENOTIFY_MS or after space came back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_LOW, MIB, freeBytes } from '../../src/server/disk/free-space.ts';
import { DiskSpaceWatch, LOW_SPACE_TITLE, RENOTIFY_MS } from '../../src/server/disk/space-watch.ts';
import { loginAs } from './auth-helpers.ts';
import { multipartFile, XLSX_TYPE } from './multipart.ts';
import { listen, openSocket } from './ws-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';

const HUGE_MB = 100_000_000; // 95 TiB: more than any test machine has free

describe.each(testApps())('free disk space on %s', (_name, start) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await start({ diskWarnFreeMb: 0, diskMinFreeMb: 0 });
    token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  const exportOnce = () => t.app.inject({ method: 'GET', url: '/api/sysQuestion/download', headers: bearer(token) });
  const importOnce = () => {
    const body = multipartFile('问题反馈.xlsx', Buffer.from('not really a workbook'), XLSX_TYPE);
    return t.app.inject({ method: 'POST', url: '/api/sysQuestion/import', ...body, headers: { ...bearer(token), ...body.headers } });
  };

  it('imports and exports refuse to start when too little is free', async () => {
    expect(await freeBytes(t.config.dataDir)).toBeGreaterThan(0);
    t.app.config.diskMinFreeMb = HUGE_MB;
    try {
      for (const res of [await exportOnce(), await importOnce()]) {
        expect(res.statusCode).toBe(507);
        expect(errorOf(res).message).toBe(STORAGE_LOW);
      }
    } finally {
      t.app.config.diskMinFreeMb = 1;
    }
    expect((await exportOnce()).statusCode).toBe(200);
    // with room, the import goes on to read the file (which is no workbook)
    expect((await importOnce()).statusCode).toBe(400);
  });

  it('warns the administrators once while space is low', async () => {
    t.app.config.diskWarnFreeMb = HUGE_MB;
    let clock = Date.now();
    let free: number | null = null;
    const watch = new DiskSpaceWatch(t.app, { now: () => clock, free: async (dir) => free ?? freeBytes(dir) });
    const notices = async () =>
      (
        await t.app.database.db.selectFrom('sys_socket').select(['title', 'msg', 'enabled']).where('title', '=', LOW_SPACE_TITLE).execute()
      ).map((r) => ({ ...r, enabled: Boolean(r.enabled) }));
    // the signed-in admin hears of it at once
    const socket = await openSocket(`${await listen(t.app)}/webSocket/${token}`);
    try {
      // the real volume, against a threshold above it
      expect(await watch.checkOnce()).toBe('low');
      const info = await socket.next((m) => m.msgType === 'INFO' && m.msg.startsWith(LOW_SPACE_TITLE));
      expect(info.msg).toMatch(/^存储空间不足：服务器.+的数据目录剩余空间\d+MB/);
      expect(await notices()).toEqual([expect.objectContaining({ title: LOW_SPACE_TITLE, enabled: false })]);
      expect((await notices())[0].msg).toMatch(/数据目录剩余空间\d+MB，低于告警线100000000MB/);
      // still low: no second notice until RENOTIFY_MS
      expect(await watch.checkOnce()).toBe('low');
      expect(await notices()).toHaveLength(1);
      clock += RENOTIFY_MS;
      expect(await watch.checkOnce()).toBe('low');
      expect(await notices()).toHaveLength(2);
      // space back, then low again: told again at once
      free = (HUGE_MB + 1) * MIB;
      expect(await watch.checkOnce()).toBe('ok');
      free = 10 * MIB;
      expect(await watch.checkOnce()).toBe('low');
      expect(await notices()).toHaveLength(3);
      // switched off, the notice is in no staff member's list of notices
      const bell = await t.app.inject({ method: 'GET', url: '/api/sysSocket/getNotRead', headers: bearer(token) });
      expect(bell.json<{ content: Array<{ title: string }> }>().content.map((n) => n.title)).not.toContain(LOW_SPACE_TITLE);
    } finally {
      socket.close();
      t.app.config.diskWarnFreeMb = 0;
    }
  });
});
