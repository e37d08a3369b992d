/**
 * Every setting of the server, read from the environment in one place, with safe defaults.
 * docs/configuration.md lists the same variables.
 */
import { join, resolve, sep } from 'node:path';
import type { S3Target } from './modules/backup/s3-copy.ts';
import { parseBackupKey, type BackupKey } from './modules/backup/crypto.ts';

export interface Config {
  port: number;
  host: string;
  /** folder for the SQLite database, RSA keys, secrets and uploads */
  dataDir: string;
  /** postgres://... switches to PostgreSQL; empty means SQLite in dataDir */
  databaseUrl: string;
  /** committed schema migrations (npm run schema:plan writes them), applied at start */
  migrationsDir: string;
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
  /** an import's parts may unpack to at most this many bytes in all (zip bombs) */
  importMaxUnpackedBytes: number;
  /** proxies whose X-Forwarded-For is believed: false (none), true (any), a hop count, or addresses/CIDRs */
  trustProxy: boolean | number | string[];
  /** longest time in ms a request may take before it is answered 503 (downloads and sockets excepted) */
  requestTimeoutMs: number;
  /** Strict-Transport-Security max-age in seconds; 0 sends none */
  hstsMaxAge: number;
  /** SIGTERM: how long requests in flight may take to finish before they are answered 503 and the process exits, ms */
  shutdownGraceMs: number;
  /** PostgreSQL: longest run of one statement, ms (statement_timeout of every pool connection); 0 = none */
  dbStatementTimeoutMs: number;
  /** below this much free space in DATA_DIR (MiB, at most 10 % of the volume) the log and the admins are warned; 0 = never */
  diskWarnFreeMb: number;
  /** below this much free space in DATA_DIR (MiB, at most 5 % of the volume) imports and exports are refused with 507; 0 = never */
  diskMinFreeMb: number;
  /** most PostgreSQL connections this instance opens */
  databasePoolSize: number;
  /** PostgreSQL: SELECTs run again and again become named statements (db/pg-prepared.ts) */
  databasePreparedStatements: boolean;
  /** serve the built web app from dist/ */
  serveWeb: boolean;
  /** serve the OpenAPI document (/api/docs/openapi.json) and its interactive page (/api/docs) */
  apiDocsEnabled: boolean;
  /** the bearer token a Prometheus scrape of GET /metrics presents; empty = metrics off (nothing collected, /metrics answers 401) */
  metricsToken: string;
  /** METRICS_PORT: serve /metrics on a listener of its own at metricsHost:metricsPort (and not on the main port); null = on the main port */
  metricsPort: number | null;
  /** METRICS_HOST: the address the metrics listener binds to (127.0.0.1) */
  metricsHost: string;
  /** where OpenTelemetry traces are sent (OTLP over HTTP, JSON): OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces; empty = tracing off */
  tracesEndpoint: string;
  /** OTEL_SERVICE_NAME: the service.name of the traces (dealer-console) */
  serviceName: string;
  logLevel: string;
  /** filing (ICP record) number shown in footers; also editable in public settings */
  recordNumber: string;
  /** data decision centre: base address of the SSO entry, empty = not configured */
  ssoLinkUrl: string;
  /** secret that signs SSO links (HMAC-SHA256); required with ssoLinkUrl */
  ssoSecret: string;
  /** run scheduled jobs on this instance */
  jobsEnabled: boolean;
  /** how often an instance re-reads the job rows to see changes made through other instances */
  jobsPollSeconds: number;
  /** SMS: Aliyun-style HTTP API; empty url = development outbox */
  smsApiUrl: string;
  smsAccessKeyId: string;
  smsAccessKeySecret: string;
  smsSignName: string;
  smsTemplateCode: string;
  /** e-mail: SMTP connection URL (smtp[s]://user:pass@host:port); empty = development outbox */
  smtpUrl: string;
  mailFrom: string;
  /** WeCom QR sign-in: corp id (appid), agent id, app secret; empty corp id = not configured */
  wecomCorpId: string;
  wecomAgentId: string;
  wecomSecret: string;
  /** WeCom member management (通讯录同步): the contacts secret; defaults to wecomSecret */
  wecomContactSecret: string;
  wecomApiBase: string;
  wecomLoginUrl: string;
  /** operation logs older than this many days are deleted by the clean-up job */
  logRetentionDays: number;
  /** record revisions (history, recycle bin) older than this many days are deleted by the clean-up job */
  revisionRetentionDays: number;
  /** largest avatar image, bytes */
  avatarMaxBytes: number;
  /** an export of more rows than this runs in the background (299, progress over the socket) */
  exportAsyncThreshold: number;
  /** an import of more rows than this runs in the background (299, progress over the socket) */
  importAsyncThreshold: number;
  /** list and look-up reads a minute per user (READ_LIMIT_PER_MINUTE; docs/read-limits.md) */
  readLimitPerMinute: number;
  /** exports a minute per user (EXPORT_LIMIT_PER_MINUTE) */
  exportLimitPerMinute: number;
  /** the window both read limits count in, ms (READ_LIMIT_WINDOW_SECONDS, 60: "a minute") */
  readLimitWindowMs: number;
  /** how long a background export's file can be downloaded, minutes */
  downloadTtlMinutes: number;
  /** seconds between websocket pings; a socket silent for two of them is closed */
  wsHeartbeatSeconds: number;
  /** where uploaded files are kept: the database (every instance sees them) or DATA_DIR/uploads */
  storage: 'database' | 'disk';
  /** largest uploaded document (uploadFileApi, qiNiuContent, work-messaging files), bytes */
  uploadMaxBytes: number;
  /** replacement-car daily price in yuan for self-paid days (countPrice = zfts × this + foregift) */
  dbcDailyPrice: number;
  /** OCR (plate, licences, VIN, bank card): Baidu AI Cloud OCR API key and secret key; empty = not configured */
  baiduOcrApiKey: string;
  baiduOcrSecretKey: string;
  /** base address of the Baidu OCR API (token and recognition endpoints) */
  baiduOcrApiBase: string;
  /** longest wait for the OCR service, ms */
  ocrTimeoutMs: number;
  /** contract PDF: a TrueType/OpenType CJK font file (.ttf/.otf/.ttc) embedded in generated contracts */
  contractFontPath: string;
  /** where backups are written (npm run backup, the schedule, 备份管理); default DATA_DIR/backups */
  backupDir: string;
  /** the scheduled backup keeps this many newest backups in backupDir and deletes older ones */
  backupKeep: number;
  /** an S3-compatible store receiving a second copy of each scheduled backup (BACKUP_S3_*); null = none */
  backupS3: S3Target | null;
  /** BACKUP_ENCRYPTION_KEY: the key new backups are encrypted with (null: none set, see modules/backup/keys.ts) */
  backupKey: BackupKey | null;
  /** BACKUP_DECRYPTION_KEYS: older keys, comma-separated, accepted for reading backups after a rotation */
  backupOldKeys: BackupKey[];
  /** BACKUP_MAX_UNPACKED_MB: the most an archive may unpack to on a restore (see modules/backup/archive.ts) */
  backupMaxUnpackedMb: number;
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

/**
 * TRUST_PROXY: empty or `false` (default) believes no proxy, so the client address is the
 * socket's; `true` any; a number the hops to trust; otherwise a comma-separated list of proxy
 * addresses or CIDRs (`127.0.0.1,10.0.0.0/8`), as Fastify's trustProxy takes them.
 */
function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const v = (raw ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const a of list) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(a))
      throw new ConfigError(`TRUST_PROXY must be true, false, a hop count or proxy addresses/CIDRs separated by commas, got "${raw}"`);
  }
  return list;
}

function storageKind(raw: string | undefined): Config['storage'] {
  if (raw === undefined || raw === '' || raw === 'database') return 'database';
  if (raw === 'disk') return 'disk';
  throw new ConfigError(`STORAGE_PROVIDER must be database or disk, got "${raw}"`);
}

/**
 * DB_STATEMENT_TIMEOUT_SECONDS: a PostgreSQL statement is cut after this long (57014, answered
 * 503), below the request deadline so that a stalled database frees its connection before the
 * request is answered 503 anyway. Default: 5 s below REQUEST_TIMEOUT_SECONDS (90 % of it when
 * that is under 10 s); 0 switches it off; a value not below the request deadline is refused.
 */
function statementTimeoutMs(env: NodeJS.ProcessEnv, requestTimeoutMs: number): number {
  const raw = env.DB_STATEMENT_TIMEOUT_SECONDS;
  if (raw === undefined || raw === '') return requestTimeoutMs >= 10_000 ? requestTimeoutMs - 5000 : Math.floor(requestTimeoutMs * 0.9);
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) {
    throw new ConfigError(`DB_STATEMENT_TIMEOUT_SECONDS must be a number of seconds between 0 and 3600, got "${raw}"`);
  }
  const ms = Math.round(seconds * 1000);
  if (ms >= requestTimeoutMs) {
    throw new ConfigError(
      `DB_STATEMENT_TIMEOUT_SECONDS (${raw}) must be below REQUEST_TIMEOUT_SECONDS (${requestTimeoutMs / 1000}), or 0 for no limit`,
    );
  }
  return ms;
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
    migrationsDir: resolve(env.MIGRATIONS_DIR || 'migrations'),
    captchaEnabled: bool(env, 'CAPTCHA_ENABLED', true),
    adminInitialPassword: env.ADMIN_INITIAL_PASSWORD || DEFAULT_ADMIN_PASSWORD,
    seedDemo: bool(env, 'SEED_DEMO', true),
    sessionIdleMinutes: int(env, 'SESSION_IDLE_MINUTES', 240, 1, 60 * 24 * 30),
    rememberMeDays: int(env, 'REMEMBER_ME_DAYS', 7, 1, 365),
    bodyLimit: int(env, 'BODY_LIMIT', 1024 * 1024, 1024, 50 * 1024 * 1024),
    importMaxBytes: int(env, 'IMPORT_MAX_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    importMaxUnpackedBytes: int(
      env,
      'IMPORT_MAX_UNPACKED_BYTES',
      10 * int(env, 'IMPORT_MAX_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024),
      1024,
      2 * 1024 * 1024 * 1024,
    ),
    trustProxy: trustProxy(env.TRUST_PROXY),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
    hstsMaxAge: int(env, 'HSTS_MAX_AGE', 0, 0, 2 * 365 * 24 * 3600),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_SECONDS', 15, 1, 3600) * 1000,
    dbStatementTimeoutMs: 0,
    diskWarnFreeMb: int(env, 'DISK_WARN_FREE_MB', 500, 0, 100_000_000),
    diskMinFreeMb: int(env, 'DISK_MIN_FREE_MB', 100, 0, 100_000_000),
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 20, 2, 500),
    databasePreparedStatements: bool(env, 'DB_PREPARED_STATEMENTS', true),
    serveWeb: bool(env, 'SERVE_WEB', true),
    apiDocsEnabled: bool(env, 'API_DOCS_ENABLED', true),
    metricsToken: env.METRICS_TOKEN ?? '',
    metricsPort: env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? null : int(env, 'METRICS_PORT', 0, 0, 65535),
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    tracesEndpoint: tracesEndpoint(env),
    serviceName: env.OTEL_SERVICE_NAME || 'dealer-console',
    logLevel: env.LOG_LEVEL || 'info',
    recordNumber: env.RECORD_NUMBER ?? '豫ICP备00000000号',
    ssoLinkUrl: env.SSO_LINK_URL ?? '',
    ssoSecret: env.SSO_SECRET ?? '',
    jobsEnabled: bool(env, 'JOBS_ENABLED', true),
    jobsPollSeconds: int(env, 'JOBS_POLL_SECONDS', 10, 1, 3600),
    smsApiUrl: env.SMS_API_URL ?? '',
    smsAccessKeyId: env.SMS_ACCESS_KEY_ID ?? '',
    smsAccessKeySecret: env.SMS_ACCESS_KEY_SECRET ?? '',
    smsSignName: env.SMS_SIGN_NAME ?? '',
    smsTemplateCode: env.SMS_TEMPLATE_CODE ?? '',
    smtpUrl: env.SMTP_URL ?? '',
    mailFrom: env.MAIL_FROM ?? '',
    wecomCorpId: env.WECOM_CORP_ID ?? '',
    wecomAgentId: env.WECOM_AGENT_ID ?? '',
    wecomSecret: env.WECOM_SECRET ?? '',
    wecomContactSecret: env.WECOM_CONTACT_SECRET || env.WECOM_SECRET || '',
    wecomApiBase: env.WECOM_API_BASE || 'https://qyapi.weixin.qq.com',
    wecomLoginUrl: env.WECOM_LOGIN_URL || 'https://login.work.weixin.qq.com/wwlogin/sso/login',
    logRetentionDays: int(env, 'LOG_RETENTION_DAYS', 180, 1, 3650),
    revisionRetentionDays: int(env, 'REVISION_RETENTION_DAYS', 365, 1, 36500),
    avatarMaxBytes: int(env, 'AVATAR_MAX_BYTES', 2 * 1024 * 1024, 1024, 10 * 1024 * 1024),
    exportAsyncThreshold: int(env, 'EXPORT_ASYNC_THRESHOLD', 10_000, 0, 100_000_000),
    importAsyncThreshold: int(env, 'IMPORT_ASYNC_THRESHOLD', 2_000, 0, 100_000_000),
    readLimitPerMinute: int(env, 'READ_LIMIT_PER_MINUTE', 600, 1, 1_000_000_000),
    exportLimitPerMinute: int(env, 'EXPORT_LIMIT_PER_MINUTE', 30, 1, 1_000_000_000),
    readLimitWindowMs: int(env, 'READ_LIMIT_WINDOW_SECONDS', 60, 1, 3600) * 1000,
    downloadTtlMinutes: int(env, 'DOWNLOAD_TTL_MINUTES', 60, 1, 60 * 24 * 30),
    wsHeartbeatSeconds: int(env, 'WS_HEARTBEAT_SECONDS', 30, 1, 3600),
    storage: storageKind(env.STORAGE_PROVIDER),
    uploadMaxBytes: int(env, 'UPLOAD_MAX_BYTES', 20 * 1024 * 1024, 1024, 200 * 1024 * 1024),
    dbcDailyPrice: int(env, 'DBC_DAILY_PRICE', 200, 0, 100_000),
    baiduOcrApiKey: env.BAIDU_OCR_API_KEY ?? '',
    baiduOcrSecretKey: env.BAIDU_OCR_SECRET_KEY ?? '',
    baiduOcrApiBase: env.BAIDU_OCR_API_BASE || 'https://aip.baidubce.com',
    ocrTimeoutMs: int(env, 'OCR_TIMEOUT_SECONDS', 10, 1, 120) * 1000,
    contractFontPath: env.CONTRACT_FONT_PATH || '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
    backupDir: '',
    backupKeep: int(env, 'BACKUP_KEEP', 7, 1, 1000),
    backupS3: backupS3(env),
    backupKey: backupKey(env.BACKUP_ENCRYPTION_KEY),
    backupOldKeys: (env.BACKUP_DECRYPTION_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k, i) => backupKey(k, `BACKUP_DECRYPTION_KEYS (key ${i + 1})`)!),
    backupMaxUnpackedMb: int(env, 'BACKUP_MAX_UNPACKED_MB', 20_480, 64, 10_000_000),
    ...overrides,
  };
  if (overrides.dbStatementTimeoutMs === undefined) config.dbStatementTimeoutMs = statementTimeoutMs(env, config.requestTimeoutMs);
  if (config.diskMinFreeMb > 0 && config.diskWarnFreeMb > 0 && config.diskWarnFreeMb < config.diskMinFreeMb) {
    throw new ConfigError(
      `DISK_WARN_FREE_MB (${config.diskWarnFreeMb}) must not be below DISK_MIN_FREE_MB (${config.diskMinFreeMb}): the warning comes first`,
    );
  }
  config.backupDir = backupDir(env.BACKUP_DIR, overrides.backupDir, config.dataDir);
  if (config.ssoLinkUrl) {
    if (!/^https?:\/\//.test(config.ssoLinkUrl))
      throw new ConfigError(`SSO_LINK_URL must start with http:// or https://, got "${config.ssoLinkUrl}"`);
    if (config.ssoSecret.length < 16) throw new ConfigError('SSO_SECRET must hold at least 16 characters when SSO_LINK_URL is set');
  }
  if (config.metricsToken && (config.metricsToken.length < 16 || /\s/.test(config.metricsToken)))
    throw new ConfigError('METRICS_TOKEN must hold at least 16 characters and no spaces');
  if (config.metricsPort !== null) {
    if (config.metricsPort !== 0 && config.metricsPort === config.port)
      throw new ConfigError(`METRICS_PORT (${config.metricsPort}) must differ from PORT: the metrics have a listener of their own`);
    if (!config.metricsToken && !isLoopback(config.metricsHost))
      throw new ConfigError(`METRICS_HOST (${config.metricsHost}) is not a loopback address: set METRICS_TOKEN too, or bind to 127.0.0.1`);
  }
  if (config.tracesEndpoint && !/^https?:\/\/[^/]/.test(config.tracesEndpoint))
    throw new ConfigError(`OTEL_EXPORTER_OTLP_ENDPOINT must start with http:// or https://, got "${config.tracesEndpoint}"`);
  checkProviders(config);
  return config;
}

/** Whether the Prometheus metrics are collected: a token protects /metrics, or it has a port of its own. */
export const metricsOn = (config: Pick<Config, 'metricsToken' | 'metricsPort'>): boolean =>
  !!config.metricsToken || config.metricsPort !== null;

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * The OTLP/HTTP traces address, with the standard variables' meaning: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
 * as it is, else OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces appended; empty (tracing off) when
 * neither is set, OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER is none.
 */
function tracesEndpoint(env: NodeJS.ProcessEnv): string {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return '';
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return '';
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : '';
}

/** A backup key: 32 bytes as base64 or 64 hex digits; empty: none. */
function backupKey(raw: string | undefined, name = 'BACKUP_ENCRYPTION_KEY'): BackupKey | null {
  if (!raw?.trim()) return null;
  const key = parseBackupKey(raw);
  if (!key) throw new ConfigError(`${name} must be 32 random bytes as base64 (openssl rand -base64 32) or 64 hex digits`);
  return key;
}

/** BACKUP_S3_*: all of endpoint, bucket and keys, or none. */
function backupS3(env: NodeJS.ProcessEnv): S3Target | null {
  const endpoint = env.BACKUP_S3_ENDPOINT?.trim() ?? '';
  if (!endpoint) return null;
  if (!/^https?:\/\/[^/]/.test(endpoint))
    throw new ConfigError(`BACKUP_S3_ENDPOINT must start with http:// or https://, got "${endpoint}"`);
  const target: S3Target = {
    endpoint,
    bucket: env.BACKUP_S3_BUCKET?.trim() ?? '',
    region: env.BACKUP_S3_REGION?.trim() || 'us-east-1',
    accessKeyId: env.BACKUP_S3_ACCESS_KEY_ID?.trim() ?? '',
    secretAccessKey: env.BACKUP_S3_SECRET_ACCESS_KEY ?? '',
    prefix: env.BACKUP_S3_PREFIX?.trim().replace(/^\/+/, '') ?? '',
  };
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(target.bucket))
    throw new ConfigError(
      `BACKUP_S3_BUCKET must name the bucket (3-63 lower-case letters, digits, dots, hyphens) when BACKUP_S3_ENDPOINT is set`,
    );
  if (!target.accessKeyId || !target.secretAccessKey)
    throw new ConfigError('BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY are needed when BACKUP_S3_ENDPOINT is set');
  return target;
}

/**
 * BACKUP_DIR: default DATA_DIR/backups. Not the data folder itself nor its uploads (a restore
 * replaces those), nor a folder that holds the data folder.
 */
function backupDir(raw: string | undefined, override: string | undefined, dataDir: string): string {
  const dir = override || (raw ? resolve(raw) : join(dataDir, 'backups'));
  const uploads = join(dataDir, 'uploads');
  const inside = (child: string, parent: string) => child === parent || child.startsWith(parent + sep);
  if (inside(dir, uploads) || inside(dataDir, dir))
    throw new ConfigError(
      `BACKUP_DIR must be a folder of its own (not DATA_DIR, its uploads, or a folder above DATA_DIR), got "${raw ?? dir}"`,
    );
  return dir;
}

/** The outside services: each one is either fully configured or not at all. */
function checkProviders(config: Config): void {
  const url = (name: string, v: string) => {
    if (v && !/^https?:\/\//.test(v)) throw new ConfigError(`${name} must start with http:// or https://, got "${v}"`);
  };
  url('SMS_API_URL', config.smsApiUrl);
  url('WECOM_API_BASE', config.wecomApiBase);
  url('WECOM_LOGIN_URL', config.wecomLoginUrl);
  url('BAIDU_OCR_API_BASE', config.baiduOcrApiBase);
  if (!!config.baiduOcrApiKey !== !!config.baiduOcrSecretKey) {
    throw new ConfigError('BAIDU_OCR_API_KEY and BAIDU_OCR_SECRET_KEY must be set together');
  }
  if (config.smsApiUrl) {
    for (const [name, v] of [
      ['SMS_ACCESS_KEY_ID', config.smsAccessKeyId],
      ['SMS_ACCESS_KEY_SECRET', config.smsAccessKeySecret],
      ['SMS_SIGN_NAME', config.smsSignName],
      ['SMS_TEMPLATE_CODE', config.smsTemplateCode],
    ]) {
      if (!v) throw new ConfigError(`${name} must be set when SMS_API_URL is set`);
    }
  }
  if (config.smtpUrl) {
    if (!/^smtps?:\/\//.test(config.smtpUrl)) throw new ConfigError('SMTP_URL must start with smtp:// or smtps://');
    if (!config.mailFrom) throw new ConfigError('MAIL_FROM must be set when SMTP_URL is set');
  }
  if (config.wecomCorpId && (!config.wecomAgentId || !config.wecomSecret)) {
    throw new ConfigError('WECOM_AGENT_ID and WECOM_SECRET must be set when WECOM_CORP_ID is set');
  }
}
