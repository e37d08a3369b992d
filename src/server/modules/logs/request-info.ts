/**
 * What the operation log records about a request besides its outcome: the parameters with
 * secrets left out and ID numbers and mobiles masked (the log is no copy of personal data),
 * the address kind of the IP (no outside look-up) and the browser.
 */
import { mask, maskPersonalText } from '../../../shared/masks.ts';
import type { MaskKind } from '../../../shared/resource-spec.ts';

/** Parameter names whose values are personal data, with the mask each takes (personal-keys.ts). */
export type PersonalKeys = ReadonlyMap<string, MaskKind>;
const NO_KEYS: PersonalKeys = new Map();

/** Keys whose values are never written to the log (passwords, codes, tokens, secrets). */
export const SECRET_KEY = /pass|pwd|code|token|secret|captcha|uuid/i;
export const MASK = '******';
export const PARAMS_MAX = 2000;

function maskValue(value: unknown, depth: number, keys: PersonalKeys): unknown {
  if (depth > 5) return '…';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => maskValue(v, depth + 1, keys));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const kind = keys.get(k);
      if (SECRET_KEY.test(k)) out[k] = MASK;
      else if (kind && (typeof v === 'string' || typeof v === 'number')) out[k] = mask(kind, v);
      else if (kind && Array.isArray(v))
        out[k] = v.slice(0, 50).map((x) => (typeof x === 'string' || typeof x === 'number' ? mask(kind, x) : MASK));
      else out[k] = maskValue(v, depth + 1, keys);
    }
    return out;
  }
  if (typeof value === 'string') return maskPersonalText(value.length > 500 ? `${value.slice(0, 500)}…` : value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    // a mobile sent as a number
    const text = String(value);
    return maskPersonalText(text) === text ? value : maskPersonalText(text);
  }
  return value;
}

/**
 * The request's query, route parameters and JSON body as one JSON text, at most PARAMS_MAX
 * characters: secrets left out, the values of personal keys masked by their kind, and ID
 * numbers, bank cards, mobiles and e-mails masked wherever else they stand.
 */
export function maskedParams(parts: { query?: unknown; params?: unknown; body?: unknown }, keys: PersonalKeys = NO_KEYS): string {
  const merged: Record<string, unknown> = {};
  for (const part of [parts.params, parts.query, parts.body]) {
    if (part && typeof part === 'object' && !Array.isArray(part)) Object.assign(merged, part);
    else if (Array.isArray(part)) merged.body = part;
  }
  const text = JSON.stringify(maskValue(merged, 0, keys));
  return text.length > PARAMS_MAX ? `${text.slice(0, PARAMS_MAX - 1)}…` : text;
}

/**
 * Recorded parameters masked again as they are read, by the personal keys in force now for the
 * entry's route: a property that gained `x-mask` after the entry was written is masked in it from
 * then on (masks are idempotent, so what was masked stays as it was). A text cut at PARAMS_MAX is
 * no JSON: its quoted values of personal keys are masked where they stand.
 */
export function maskStoredParams(text: string, keys: PersonalKeys): string {
  try {
    return JSON.stringify(maskValue(JSON.parse(text), 0, keys));
  } catch {
    let out = maskPersonalText(text);
    for (const [key, kind] of keys) {
      // a quoted value, also the one the cut left without its closing quote, or a number
      const quoted = new RegExp(`("${key.replace(/[^A-Za-z0-9_]/g, '')}":)("(?:[^"\\\\]|\\\\.)*(?:"|…$)|-?\\d+)`, 'g');
      out = out.replace(quoted, (_m, head: string, value: string) => {
        const cut = value.endsWith('…');
        const plain = value.replace(/…$/, '').replace(/^"|"$/g, '');
        return `${head}${JSON.stringify(mask(kind, plain))}${cut ? '…' : ''}`;
      });
    }
    return out;
  }
}

/** 内网IP for loopback and private addresses; empty otherwise (no outside look-up is made). */
export function addressOf(ip: string): string {
  const v4 = ip.replace(/^::ffff:/i, '');
  if (/^(127\.|10\.|192\.168\.|169\.254\.)/.test(v4) || /^172\.(1[6-9]|2\d|3[01])\./.test(v4)) return '内网IP';
  if (/^(::1$|fe80:|fc|fd)/i.test(ip)) return '内网IP';
  return '';
}

/** "Chrome 120", "Edge 121", "Firefox 115", "Safari 17", "企业微信 4.1", or the first words of the agent. */
export function browserOf(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const pick = (re: RegExp, name: string) => {
    const m = re.exec(ua);
    return m ? `${name} ${m[1]}` : null;
  };
  return (
    pick(/wxwork\/([\d.]+)/i, '企业微信') ??
    pick(/MicroMessenger\/([\d.]+)/, '微信') ??
    pick(/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge') ??
    pick(/OPR\/(\d+)/, 'Opera') ??
    pick(/Firefox\/(\d+)/, 'Firefox') ??
    pick(/(?:Chrome|CriOS|HeadlessChrome)\/(\d+)/, 'Chrome') ??
    pick(/Version\/(\d+)[\d.]*.*Safari\//, 'Safari') ??
    (ua.slice(0, 60) || '未知')
  );
}
