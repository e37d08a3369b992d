/**
 * Warns before the disk is full: every CHECK_EVERY_MS the free space of DATA_DIR is read
 * (statfs); under DISK_WARN_FREE_MB (at most WARN_SHARE of the volume) the log gets a warning and the administrators a notice
 * (modules/messages/admin-notice.ts), once when it falls under and again every RENOTIFY_MS while
 * it stays there; the log says so when space is back. 0 switches the watch off.
 */
import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { notifyAdmins } from '../modules/messages/admin-notice.ts';
import { MIB, WARN_SHARE, thresholdBytes, volumeSpace, type VolumeSpace } from './free-space.ts';

export const CHECK_EVERY_MS = 60_000;
export const RENOTIFY_MS = 6 * 3600_000;
export const LOW_SPACE_TITLE = '存储空间不足';

export const lowSpaceText = (freeMb: number, warnMb: number, host: string) =>
  `服务器${host}的数据目录剩余空间${freeMb}MB，低于告警线${warnMb}MB。空间用尽后将无法保存数据，请尽快清理或扩容。`;

export interface SpaceWatchOptions {
  /** free and total bytes of a folder's volume (tests); statfs by default */
  space?: (dir: string) => Promise<VolumeSpace | null>;
  now?: () => number;
}

export class DiskSpaceWatch {
  private timer?: NodeJS.Timeout;
  /** when the administrators were last told, while space is low */
  private lastNotice?: number;
  private readonly space: (dir: string) => Promise<VolumeSpace | null>;
  private readonly now: () => number;

  constructor(
    private readonly app: FastifyInstance,
    opts: SpaceWatchOptions = {},
  ) {
    this.space = opts.space ?? volumeSpace;
    this.now = opts.now ?? Date.now;
  }

  /** One look: 'low' (warned or already warned), 'ok', or 'unknown' (statfs failed). */
  async checkOnce(): Promise<'low' | 'ok' | 'unknown'> {
    const { dataDir, diskWarnFreeMb } = this.app.config;
    const space = await this.space(dataDir);
    if (space === null) return 'unknown';
    const freeMb = Math.floor(space.free / MIB);
    const warnMb = Math.floor(thresholdBytes(diskWarnFreeMb, space.total, WARN_SHARE) / MIB);
    if (space.free >= thresholdBytes(diskWarnFreeMb, space.total, WARN_SHARE)) {
      if (this.lastNotice !== undefined) this.app.log.info({ freeMb, warnMb }, 'free disk space is back above DISK_WARN_FREE_MB');
      this.lastNotice = undefined;
      return 'ok';
    }
    const now = this.now();
    if (this.lastNotice === undefined || now - this.lastNotice >= RENOTIFY_MS) {
      this.lastNotice = now;
      this.app.log.warn({ freeMb, warnMb, dataDir }, 'free disk space of DATA_DIR is below DISK_WARN_FREE_MB');
      await notifyAdmins(this.app, LOW_SPACE_TITLE, lowSpaceText(freeMb, warnMb, hostname()));
    }
    return 'low';
  }

  start(everyMs = CHECK_EVERY_MS): void {
    if (this.timer) return;
    const tick = () => {
      this.checkOnce().catch((err: unknown) => this.app.log.warn({ err }, 'free disk space not checked'));
    };
    this.timer = setInterval(tick, everyMs);
    this.timer.unref();
    tick();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** Starts the watch when the app is ready (DISK_WARN_FREE_MB > 0), stops it with the app. */
export function registerDiskSpaceWatch(app: FastifyInstance): void {
  if (app.config.diskWarnFreeMb <= 0) return;
  const watch = new DiskSpaceWatch(app);
  app.addHook('onReady', (done) => {
    watch.start();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    watch.stop();
    done();
  });
}
