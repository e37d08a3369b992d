/**
 * Text recognition of photographed documents behind one interface.
 * - BaiduOcr: Baidu AI Cloud's OCR REST API (文字识别), configured by BAIDU_OCR_API_KEY and
 *   BAIDU_OCR_SECRET_KEY (and BAIDU_OCR_API_BASE, default https://aip.baidubce.com). An access
 *   token is taken from `POST /oauth/2.0/token?grant_type=client_credentials&client_id&client_secret`
 *   and kept until shortly before `expires_in`; each recognition is
 *   `POST /rest/2.0/ocr/v1/{license_plate|driving_license|vehicle_license|vin_code|bankcard}?access_token=`
 *   with the form body `image=<base64>`; the answer's `words_result` / `result` is turned into
 *   the flat fields below, an `error_code` into a Chinese 4xx or 503.
 * - without keys every call answers 503 OCR服务未配置, after the upload itself has been checked.
 * Every call to the service is bounded in time (OCR_TIMEOUT_SECONDS) and in answer size.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { providerFetch } from '../tracing/scope.ts';
import { ApiError } from '../errors.ts';

/** cph 车牌号, jz 驾驶证, xsz 行驶证, vin 车架号, yhk 银行卡 */
export type OcrKind = 'cph' | 'jz' | 'xsz' | 'vin' | 'yhk';

/**
 * What each recognition answers (absent fields are '' when the service did not read them):
 *   cph  {plate, color}
 *   jz   {licenseNo, name, sex, nationality, address, birthday, firstIssueDate, vehicleClass, validFrom, validTo}
 *   xsz  {plate, vehicleType, owner, address, useCharacter, model, vin, engineNo, registerDate, issueDate}
 *   vin  {vin}
 *   yhk  {cardNumber, bankName, cardType, validDate, holderName}
 */
export type OcrResult = Record<string, string>;

export interface OcrProvider {
  readonly kind: 'baidu' | 'none';
  recognize(kind: OcrKind, image: Buffer, contentType: string): Promise<OcrResult>;
}

export const OCR_NOT_CONFIGURED = 'OCR服务未配置';
export const OCR_UNAVAILABLE = '识别服务暂时不可用，请稍后重试';
export const OCR_AUTH_FAILED = 'OCR服务鉴权失败，请联系管理员检查OCR配置';
export const OCR_BUSY = '识别请求过于频繁或已达今日上限，请稍后再试';
export const OCR_BAD_IMAGE = '图片格式或尺寸不符合识别要求，请上传清晰的jpg、png或bmp图片';

/** what was looked for, for "未识别到X，请重新拍摄清晰的照片" */
export const OCR_NOUNS: Record<OcrKind, string> = { cph: '车牌号', jz: '驾驶证', xsz: '行驶证', vin: '车架号', yhk: '银行卡号' };
export const notRecognised = (kind: OcrKind) => `未识别到${OCR_NOUNS[kind]}，请重新拍摄清晰的照片`;

export const notConfiguredOcr: OcrProvider = {
  kind: 'none',
  recognize() {
    return Promise.reject(new ApiError(503, OCR_NOT_CONFIGURED));
  },
};

/** Baidu's endpoint for each kind. */
export const BAIDU_PATHS: Record<OcrKind, string> = {
  cph: 'license_plate',
  jz: 'driving_license',
  xsz: 'vehicle_license',
  vin: 'vin_code',
  yhk: 'bankcard',
};

/** Largest answer read from the service (a recognition answer is a few kilobytes). */
const MAX_ANSWER_BYTES = 1024 * 1024;

class OcrTransportError extends Error {}

async function readJson(res: Response): Promise<unknown> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_ANSWER_BYTES) throw new OcrTransportError('answer too large');
  const reader = res.body?.getReader();
  if (!reader) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new OcrTransportError('answer too large');
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new OcrTransportError(`answer is not JSON (HTTP ${res.status})`);
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
/** `{"姓名": {"words": "张三"}}` -> '张三' */
const words = (result: Record<string, unknown>, key: string): string => str(obj(result[key]).words);

/** Baidu's dates come as 20150512; the forms take 2015-05-12. */
function dateOf(v: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : v;
}

const BANK_CARD_TYPES: Record<string, string> = { '0': '', '1': '借记卡', '2': '信用卡', '3': '预付费卡', '4': '准贷记卡' };

/** The flat fields of a successful Baidu answer, or null when nothing usable was read. */
export function baiduFields(kind: OcrKind, answer: Record<string, unknown>): OcrResult | null {
  if (kind === 'yhk') {
    const r = obj(answer.result);
    const cardNumber = str(r.bank_card_number).replace(/\s+/g, '');
    if (!/^\d{12,19}$/.test(cardNumber)) return null;
    return {
      cardNumber,
      bankName: str(r.bank_name),
      cardType: BANK_CARD_TYPES[str(r.bank_card_type)] ?? '',
      validDate: str(r.valid_date).replace(/^NO VALID$/i, ''),
      holderName: str(r.holder_name),
    };
  }
  if (kind === 'vin') {
    const list = Array.isArray(answer.words_result) ? answer.words_result : [];
    const vin = list.map((w) => str(obj(w).words).toUpperCase().replace(/\s+/g, '')).find((w) => /^[A-HJ-NPR-Z0-9]{17}$/.test(w));
    return vin ? { vin } : null;
  }
  if (kind === 'cph') {
    // one plate (an object), or several with multi_detect (an array): the first
    const first = Array.isArray(answer.words_result) ? obj(answer.words_result[0]) : obj(answer.words_result);
    const plate = str(first.number).replace(/[\s·•]/g, '');
    return plate ? { plate, color: str(first.color) } : null;
  }
  const r = obj(answer.words_result);
  if (kind === 'jz') {
    const out = {
      licenseNo: words(r, '证号'),
      name: words(r, '姓名'),
      sex: words(r, '性别'),
      nationality: words(r, '国籍'),
      address: words(r, '住址'),
      birthday: dateOf(words(r, '出生日期')),
      firstIssueDate: dateOf(words(r, '初次领证日期')),
      vehicleClass: words(r, '准驾车型'),
      validFrom: dateOf(words(r, '有效起始日期')),
      validTo: dateOf(words(r, '有效期限') || words(r, '失效日期')),
    };
    return out.licenseNo || out.name ? out : null;
  }
  const out = {
    plate: words(r, '号牌号码').replace(/[\s·•]/g, ''),
    vehicleType: words(r, '车辆类型'),
    owner: words(r, '所有人'),
    address: words(r, '住址'),
    useCharacter: words(r, '使用性质'),
    model: words(r, '品牌型号'),
    vin: words(r, '车辆识别代号').toUpperCase().replace(/\s+/g, ''),
    engineNo: words(r, '发动机号码'),
    registerDate: dateOf(words(r, '注册日期')),
    issueDate: dateOf(words(r, '发证日期')),
  };
  return out.plate || out.vin ? out : null;
}

/** Baidu error codes -> the answer to the caller; null = token invalid (fetch a new one). */
function baiduError(kind: OcrKind, code: number): ApiError | null {
  if (code === 110 || code === 111) return null;
  if (code === 17 || code === 18 || code === 19 || code === 4) return new ApiError(429, OCR_BUSY);
  if (code === 6 || code === 14 || code === 100) return new ApiError(503, OCR_AUTH_FAILED);
  if ([216200, 216201, 216202, 216203, 282810, 282809].includes(code)) return new ApiError(400, OCR_BAD_IMAGE);
  if ([216630, 216631, 216633, 216634, 282102, 282103, 282110, 282114].includes(code)) return new ApiError(422, notRecognised(kind));
  return new ApiError(503, OCR_UNAVAILABLE);
}

export interface BaiduOcrOptions {
  apiKey: string;
  secretKey: string;
  apiBase: string;
  timeoutMs: number;
  now?: () => number;
}

export class BaiduOcr implements OcrProvider {
  readonly kind = 'baidu' as const;
  private token: { value: string; until: number } | null = null;
  private pending: Promise<string> | null = null;
  private readonly base: string;
  private readonly now: () => number;

  constructor(private readonly options: BaiduOcrOptions) {
    this.base = options.apiBase.replace(/\/+$/, '');
    this.now = options.now ?? Date.now;
  }

  private async post(url: string, body: string | undefined): Promise<{ status: number; json: Record<string, unknown> }> {
    let res: Response;
    try {
      res = await providerFetch('ocr', url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      throw new OcrTransportError((err as Error).message);
    }
    try {
      return { status: res.status, json: obj(await readJson(res)) };
    } catch (err) {
      throw err instanceof OcrTransportError ? err : new OcrTransportError((err as Error).message);
    }
  }

  private async fetchToken(): Promise<string> {
    const q = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: this.options.apiKey,
      client_secret: this.options.secretKey,
    });
    const { json } = await this.post(`${this.base}/oauth/2.0/token?${q}`, undefined);
    const value = str(json.access_token);
    if (!value) {
      // {"error": "invalid_client", "error_description": "unknown client id"}
      throw new ApiError(503, OCR_AUTH_FAILED);
    }
    const seconds = Number(json.expires_in);
    const lifetime = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 3600_000;
    // renewed a day (or a tenth of its life) before it ends
    this.token = { value, until: this.now() + lifetime - Math.min(86_400_000, lifetime / 10) };
    return value;
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > this.now()) return this.token.value;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  async recognize(kind: OcrKind, image: Buffer): Promise<OcrResult> {
    const body = new URLSearchParams({ image: image.toString('base64') });
    if (kind === 'jz') body.set('detect_direction', 'true');
    if (kind === 'xsz') body.set('vehicle_license_side', 'front');
    try {
      for (let attempt = 0; ; attempt++) {
        const token = await this.accessToken();
        const { json } = await this.post(
          `${this.base}/rest/2.0/ocr/v1/${BAIDU_PATHS[kind]}?access_token=${encodeURIComponent(token)}`,
          body.toString(),
        );
        if (json.error_code !== undefined && json.error_code !== 0) {
          const problem = baiduError(kind, Number(json.error_code));
          if (problem) throw problem;
          // the token was revoked or expired early: one more try with a new one
          this.token = null;
          if (attempt >= 1) throw new ApiError(503, OCR_AUTH_FAILED);
          continue;
        }
        const fields = baiduFields(kind, json);
        if (!fields) throw new ApiError(422, notRecognised(kind));
        return fields;
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      if ((err as Error).name === 'TimeoutError' || err instanceof OcrTransportError) throw new ApiError(503, OCR_UNAVAILABLE);
      throw err;
    }
  }
}

export function createOcrProvider(
  config: Pick<Config, 'baiduOcrApiKey' | 'baiduOcrSecretKey' | 'baiduOcrApiBase' | 'ocrTimeoutMs'>,
): OcrProvider {
  if (!config.baiduOcrApiKey) return notConfiguredOcr;
  return new BaiduOcr({
    apiKey: config.baiduOcrApiKey,
    secretKey: config.baiduOcrSecretKey,
    apiBase: config.baiduOcrApiBase,
    timeoutMs: config.ocrTimeoutMs,
  });
}

const providers = new WeakMap<FastifyInstance, OcrProvider>();

export function setOcrProvider(app: FastifyInstance, provider: OcrProvider): void {
  providers.set(app, provider);
}

export function ocrProviderOf(app: FastifyInstance): OcrProvider {
  let provider = providers.get(app);
  if (!provider) {
    provider = createOcrProvider(app.config);
    providers.set(app, provider);
  }
  return provider;
}
