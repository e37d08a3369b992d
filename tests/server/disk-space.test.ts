/**
 * Free space of DATA_DIR, read with statfs:
 * - the thresholds (DISK_MIN_FREE_MB, DISK_WARN_FREE_MB) are capped at a share of the volume,
 *   so a small volume is not refused or warned about while mostly empty (the refusal of imports
 *   and exports on a really full volume is in disk-full.test.ts);
 * - under DISK_WARN_FREE_MB the log gets a warning and the administrators one notice (a switched-off system message,
 *   so not every staff member's bell, and an INFO on the admin's open socket), again only after
 *   RENOTIFY_MS or after space came back.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MIB, MIN_SHARE, WARN_SHARE, thresholdBytes, volumeSpace, type VolumeSpace } from '../../src/server/disk/free-space.ts';
import { DiskSpaceWatch, LOW_SPACE_TITLE, RENOTIFY_MS } from '../../src/server/disk/space-watch.ts';
import { loginAs } from './auth-helpers.ts';
import { listen, openSocket } from './ws-helpers.ts';
import { ADMIN_PASSWORD, testApps, type TestApp } from './helpers.ts';

const GIB = 1024 * MIB;

describe('free-space thresholds', () => {
  it('are the configured MiB, at most a share of the volume', async () => {
    expect(thresholdBytes(100, 500 * GIB, MIN_SHARE)).toBe(100 * MIB);
    expect(thresholdBytes(100, 40 * MIB, MIN_SHARE)).toBe(2 * MIB);
    expect(thresholdBytes(500, 40 * MIB, WARN_SHARE)).toBe(4 * MIB);
    expect(thresholdBytes(0, 500 * GIB, MIN_SHARE)).toBe(0);
    const real = await volumeSpace('.');
    expect(real!.total).toBeGreaterThan(0);
    expect(real!.free).toBeLessThanOrEqual(real!.total);
  });
});

describe.each(testApps())('free disk space on %s', (_name, start) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await start({ diskWarnFreeMb: 0, diskMinFreeMb: 0 });
    token = await loginAs(t.app, 'admin', ADMIN_PASSWORD);
  }, 60_000);
  afterAll(() => t?.close());

  it('warns the administrators once while space is low', async () => {
    t.app.config.diskWarnFreeMb = 500;
    let clock = Date.now();
    let space: VolumeSpace = { free: 100 * MIB, total: 100 * GIB };
    const watch = new DiskSpaceWatch(t.app, { now: () => clock, space: () => Promise.resolve(space) });
    // the server's log is warned each time the administrators are
    const warn = vi.spyOn(t.app.log, 'warn');
    const logged = () => warn.mock.calls.filter((c) => c[1] === 'free disk space of DATA_DIR is below DISK_WARN_FREE_MB');
    const notices = async () =>
      (
        await t.app.database.db.selectFrom('sys_socket').select(['title', 'msg', 'enabled']).where('title', '=', LOW_SPACE_TITLE).execute()
      ).map((r) => ({ ...r, enabled: Boolean(r.enabled) }));
    // the signed-in admin hears of it at once
    const socket = await openSocket(`${await listen(t.app)}/webSocket/${token}`);
    try {
      expect(await watch.checkOnce()).toBe('low');
      const info = await socket.next((m) => m.msgType === 'INFO' && m.msg.startsWith(LOW_SPACE_TITLE));
      expect(info.msg).toMatch(/^存储空间不足：服务器.+的数据目录剩余空间100MB，低于告警线500MB/);
      expect(await notices()).toEqual([expect.objectContaining({ title: LOW_SPACE_TITLE, enabled: false })]);
      expect(logged()).toEqual([[expect.objectContaining({ freeMb: 100, warnMb: 500 }), expect.any(String)]]);
      // still low: no second notice until RENOTIFY_MS
      expect(await watch.checkOnce()).toBe('low');
      expect(await notices()).toHaveLength(1);
      clock += RENOTIFY_MS;
      expect(await watch.checkOnce()).toBe('low');
      expect(await notices()).toHaveLength(2);
      // space back, then low again: told again at once
      space = { free: 600 * MIB, total: 100 * GIB };
      expect(await watch.checkOnce()).toBe('ok');
      space = { free: 10 * MIB, total: 100 * GIB };
      expect(await watch.checkOnce()).toBe('low');
      expect(await notices()).toHaveLength(3);
      expect(logged()).toHaveLength(3);
      // a 40 MB volume with 30 MB free is no cause for alarm (the threshold is 10 % of it)
      space = { free: 30 * MIB, total: 40 * MIB };
      expect(await watch.checkOnce()).toBe('ok');
      // switched off, the notice is in no staff member's list of notices
      const bell = await t.app.inject({ method: 'GET', url: '/api/sysSocket/getNotRead', headers: { authorization: `Bearer ${token}` } });
      expect(bell.json<{ content: Array<{ title: string }> }>().content.map((n) => n.title)).not.toContain(LOW_SPACE_TITLE);
    } finally {
      warn.mockRestore();
      socket.close();
      t.app.config.diskWarnFreeMb = 0;
    }
  });
});
