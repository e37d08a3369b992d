/**
 * A local fake of Baidu AI Cloud's OCR REST API, a real HTTP server speaking its documented
 * requests and answers:
 *   POST /oauth/2.0/token?grant_type=client_credentials&client_id=&client_secret=
 *        -> {access_token, expires_in, scope, session_key, ...}; wrong keys -> 401 {error: 'invalid_client', ...}
 *   POST /rest/2.0/ocr/v1/{license_plate|driving_license|vehicle_license|vin_code|bankcard}?access_token=
 *        form body image=<base64> -> the documented answer shapes (words_result / result, log_id);
 *        errors as {error_code, error_msg, log_id} (110 token invalid, 216201 image format, 282102 nothing found, 18 QPS)
 * What it "reads" is chosen by the picture: the bytes after the image header are a text such as
 * `plate:豫A12345` (see fakeImage); `nothing`, `badformat`, `qps` and `slow` give those failures.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { elapse } from './wait.ts';

export const FAKE_API_KEY = 'fake-api-key';
export const FAKE_SECRET_KEY = 'fake-secret-key';

const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);

/** A picture whose "content" the fake reads back, e.g. fakeImage('plate:豫A12345'). */
export function fakeImage(text: string): Buffer {
  return Buffer.concat([JPEG_HEAD, Buffer.from(`JFIF\n${text}`)]);
}

export interface FakeBaiduOcr {
  url: string;
  /** paths called, in order (without the query) */
  calls: string[];
  /** tokens issued so far */
  tokensIssued: number;
  /** forgets every token (as if they were revoked): the next call answers 110 */
  revokeTokens(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const logId = () => Math.floor(Math.random() * 1e15);
const w = (words: string) => ({ words, location: { left: 10, top: 10, width: 100, height: 20 } });

function answerFor(path: string, content: Record<string, string>): Record<string, unknown> {
  switch (path) {
    case 'license_plate':
      return {
        log_id: logId(),
        words_result: {
          color: content.color ?? 'blue',
          number: content.plate,
          probability: [1, 0.99, 0.99, 0.99, 0.99, 0.99, 0.99],
          vertexes_location: [{ x: 1, y: 1 }],
        },
      };
    case 'vin_code':
      return {
        log_id: logId(),
        words_result_num: 1,
        words_result: [{ location: { left: 153, top: 148, width: 490, height: 14 }, words: content.vin }],
      };
    case 'bankcard':
      return {
        log_id: logId(),
        result: {
          bank_card_number: content.card,
          valid_date: content.valid ?? '07/29',
          bank_card_type: Number(content.type ?? 1),
          bank_name: content.bank ?? '中国工商银行',
          holder_name: content.holder ?? '',
        },
      };
    case 'driving_license':
      return {
        log_id: logId(),
        direction: 0,
        words_result_num: 10,
        words_result: {
          证号: w(content.no ?? ''),
          有效期限: w(content.to ?? '20300512'),
          准驾车型: w(content.class ?? 'C1'),
          有效起始日期: w(content.from ?? '20200512'),
          住址: w(content.address ?? ''),
          姓名: w(content.name ?? ''),
          国籍: w('中国'),
          出生日期: w(content.birthday ?? '19900307'),
          性别: w(content.sex ?? '男'),
          初次领证日期: w(content.first ?? '20100512'),
        },
      };
    case 'vehicle_license':
      return {
        log_id: logId(),
        words_result_num: 10,
        words_result: {
          品牌型号: w(content.model ?? '大众汽车牌SVW71513BM'),
          发证日期: w(content.issued ?? '20210305'),
          使用性质: w('非营运'),
          发动机号码: w(content.engine ?? 'DLC123456'),
          号牌号码: w(content.plate ?? ''),
          所有人: w(content.owner ?? ''),
          住址: w(content.address ?? ''),
          注册日期: w(content.registered ?? '20210305'),
          车辆识别代号: w(content.vin ?? ''),
          车辆类型: w('小型轿车'),
        },
      };
    default:
      return { error_code: 3, error_msg: 'Open api request limit reached' };
  }
}

/** the `key:value` lines after the image header */
function contentOf(image: Buffer): Record<string, string> {
  const text = image.subarray(JPEG_HEAD.length).toString('utf8');
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
    else if (line.trim()) out[line.trim()] = 'yes';
  }
  return out;
}

export async function startFakeBaiduOcr(): Promise<FakeBaiduOcr> {
  const tokens = new Set<string>();
  const fake = { calls: [] as string[], tokensIssued: 0 };
  const answer = async (req: IncomingMessage, res: ServerResponse) => {
    const u = new URL(req.url ?? '/', 'http://fake');
    fake.calls.push(u.pathname);
    const body = await readBody(req);
    const send = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
      res.end(JSON.stringify(json));
    };
    if (req.method !== 'POST') return send(405, { error_code: 3, error_msg: 'Unsupported openapi method' });
    if (u.pathname === '/oauth/2.0/token') {
      if (u.searchParams.get('grant_type') !== 'client_credentials')
        return send(400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported' });
      if (u.searchParams.get('client_id') !== FAKE_API_KEY)
        return send(401, { error: 'invalid_client', error_description: 'unknown client id' });
      if (u.searchParams.get('client_secret') !== FAKE_SECRET_KEY)
        return send(401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      const token = `24.${Math.random().toString(16).slice(2)}.2592000.1.282335-${++fake.tokensIssued}`;
      tokens.add(token);
      return send(200, {
        refresh_token: `25.${token}`,
        expires_in: 2592000,
        session_key: 'fake',
        access_token: token,
        scope: 'public brain_all_scope vis-ocr_ocr',
        session_secret: 'fake',
      });
    }
    const m = /^\/rest\/2\.0\/ocr\/v1\/([a-z_]+)$/.exec(u.pathname);
    if (!m) return send(404, { error_code: 3, error_msg: 'Unsupported openapi method' });
    if (!tokens.has(u.searchParams.get('access_token') ?? ''))
      return send(200, { error_code: 110, error_msg: 'Access token invalid or no longer valid', log_id: logId() });
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return send(200, { error_code: 216100, error_msg: 'invalid param', log_id: logId() });
    const image = Buffer.from(new URLSearchParams(body).get('image') ?? '', 'base64');
    if (image.length === 0) return send(200, { error_code: 216101, error_msg: 'not enough param', log_id: logId() });
    if (!image.subarray(0, 4).equals(JPEG_HEAD) && image[0] !== 0x89 && image[0] !== 0x42)
      return send(200, { error_code: 216201, error_msg: 'image format error', log_id: logId() });
    const content = contentOf(image);
    if (content.slow) {
      await elapse(Number(content.slow) || 5000); // a provider that answers late
    }
    if (content.badformat) return send(200, { error_code: 216201, error_msg: 'image format error', log_id: logId() });
    if (content.qps) return send(200, { error_code: 18, error_msg: 'Open api qps request limit reached', log_id: logId() });
    if (content.nothing) return send(200, { error_code: 282102, error_msg: 'target detect error', log_id: logId() });
    if (content.broken) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html>502 Bad Gateway</html>');
    }
    return send(200, answerFor(m[1], content));
  };
  const server: Server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return fake.calls;
    },
    get tokensIssued() {
      return fake.tokensIssued;
    },
    revokeTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
