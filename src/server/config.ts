/**
 * Every setting of the server, read from the environment in one place, with safe defaults.
 * The README's configuration table lists the same variables.
 */
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** folder for the SQLite database, RSA keys, secrets and uploads */
  dataDir: string;
  /** postgres://... switches to PostgreSQL; empty means SQLite in dataDir */
  databaseUrl: string;
  captchaEnabled: boolean;
  /** initial password of the admin user created on first start */
  adminInitialPassword: string;
  /** seed demo data on first start */
  seedDemo: boolean;
  /** session lifetime without remember-me, minutes of inactivity */
  sessionIdleMinutes: number;
  /** session lifetime with remember-me, days */
  rememberMeDays: number;
  /** largest JSON body, bytes */
  bodyLimit: number;
  /** largest import file, bytes */
  importMaxBytes: number;
  /** serve the built web app from dist/ */
  serveWeb: boolean;
  logLevel: string;
  /** filing (ICP record) number shown in footers; also editable in public settings */
  recordNumber: string;
  /** data decision centre: base address of the SSO entry, empty = not configured */
  ssoLinkUrl: string;
  /** secret that signs SSO links (HMAC-SHA256); required with ssoLinkUrl */
  ssoSecret: string;
  /** replacement-car daily price in yuan for self-paid days (countPrice = zfts × this + foregift) */
  dbcDailyPrice: number;
  /** contract PDF: a TrueType/OpenType CJK font file (.ttf/.otf/.ttc) embedded in generated contracts */
  contractFontPath: string;
}

export const DEFAULT_ADMIN_PASSWORD = 'Admin@123456';

export class ConfigError extends Error {}

function int(env: NodeJS.ProcessEnv, name: string, dflt: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return n;
}

function bool(env: NodeJS.ProcessEnv, name: string, dflt: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return dflt;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const databaseUrl = env.DATABASE_URL ?? '';
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// (or be empty for SQLite), got "${databaseUrl}"`);
  }
  const config: Config = {
    port: int(env, 'PORT', 8000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || 'data'),
    databaseUrl,
    captchaEnabled: bool(env, 'CAPTCHA_ENABLED', true),
    adminInitialPassword: env.ADMIN_INITIAL_PASSWORD || DEFAULT_ADMIN_PASSWORD,
    seedDemo: bool(env, 'SEED_DEMO', true),
    sessionIdleMinutes: int(env, 'SESSION_IDLE_MINUTES', 240, 1, 60 * 24 * 30),
    rememberMeDays: int(env, 'REMEMBER_ME_DAYS', 7, 1, 365),
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024, 50 * 1024 * 1024),
    importMaxBytes: int(env, 'IMPORT_MAX_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    serveWeb: bool(env, 'SERVE_WEB', true),
    logLevel: env.LOG_LEVEL || 'info',
    recordNumber: env.RECORD_NUMBER ?? '豫ICP备00000000号',
    ssoLinkUrl: env.SSO_LINK_URL ?? '',
    ssoSecret: env.SSO_SECRET ?? '',
    dbcDailyPrice: int(env, 'DBC_DAILY_PRICE', 200, 0, 100_000),
    contractFontPath: env.CONTRACT_FONT_PATH || '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    ...overrides,
  };
  if (config.ssoLinkUrl) {
    if (!/^https?:\/\//.test(config.ssoLinkUrl)) throw new ConfigError(`SSO_LINK_URL must start with http:// or https://, got "${config.ssoLinkUrl}"`);
    if (config.ssoSecret.length < 16) throw new ConfigError('SSO_SECRET must hold at least 16 characters when SSO_LINK_URL is set');
  }
  return config;
}
