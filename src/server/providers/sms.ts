/**
 * SMS sending behind one interface:
 * - AliyunSms: the Aliyun SMS HTTP API (RPC style, HMAC-SHA1 signed GET, action SendSms,
 *   answer Code "OK"), at SMS_API_URL with the key, sign name and template of the configuration;
 *   the template receives {"code": "123456"};
 * - OutboxSms: writes the message to the development outbox (nothing leaves the server).
 */
import type { Db } from '../types.ts';
import { createHmac, randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { providerFetch } from '../tracing/scope.ts';
import { writeOutbox } from './outbox.ts';

export interface SmsProvider {
  readonly kind: 'aliyun' | 'outbox';
  /** sends a verification code; throws when the provider refuses */
  sendCode(phone: string, code: string): Promise<void>;
}

export class SmsSendError extends Error {}

/** Aliyun's percent-encoding: RFC 3986 unreserved characters kept, everything else %XX. */
export function percentEncode(v: string): string {
  return encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The signed query string of an Aliyun RPC GET call. */
export function signedAliyunQuery(params: Record<string, string>, secret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k])}`)
    .join('&');
  const toSign = `GET&${percentEncode('/')}&${percentEncode(canonical)}`;
  const signature = createHmac('sha1', `${secret}&`).update(toSign).digest('base64');
  return `Signature=${percentEncode(signature)}&${canonical}`;
}

export class AliyunSms implements SmsProvider {
  readonly kind = 'aliyun' as const;
  constructor(
    private readonly config: Pick<Config, 'smsApiUrl' | 'smsAccessKeyId' | 'smsAccessKeySecret' | 'smsSignName' | 'smsTemplateCode'>,
  ) {}

  async sendCode(phone: string, code: string): Promise<void> {
    const params: Record<string, string> = {
      AccessKeyId: this.config.smsAccessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: phone,
      SignName: this.config.smsSignName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: this.config.smsTemplateCode,
      TemplateParam: JSON.stringify({ code }),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    };
    const base = this.config.smsApiUrl.replace(/\/?$/, '/');
    let answer: { Code?: string; Message?: string };
    try {
      const res = await providerFetch('sms', `${base}?${signedAliyunQuery(params, this.config.smsAccessKeySecret)}`, {
        signal: AbortSignal.timeout(10_000),
      });
      answer = (await res.json()) as typeof answer;
    } catch (err) {
      throw new SmsSendError(`SMS service unreachable: ${(err as Error).message}`);
    }
    if (answer?.Code !== 'OK') throw new SmsSendError(`SMS refused: ${answer?.Code ?? ''} ${answer?.Message ?? ''}`);
  }
}

export class OutboxSms implements SmsProvider {
  readonly kind = 'outbox' as const;
  constructor(private readonly db: Db) {}

  async sendCode(phone: string, code: string): Promise<void> {
    await writeOutbox(this.db, { channel: 'sms', target: phone, content: `您的验证码为：${code}，有效期5分钟，请勿泄露给他人。` });
  }
}

export function createSmsProvider(config: Config, db: Db): SmsProvider {
  return config.smsApiUrl ? new AliyunSms(config) : new OutboxSms(db);
}
