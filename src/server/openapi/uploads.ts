/**
 * Uploads, stored files and picture recognition (modules/uploads) in the OpenAPI document. What
 * each upload accepts is read from the module's own rules (RULES: extensions and sizes), and the
 * fields each recognition answers from the list the screens fill their inputs from (OCR_ANSWERS).
 */
import { OCR_ANSWERS, OCR_LABELS, type OcrCall } from '../../shared/ocr.ts';
import { RULES, sizeText, typeMessage, type UploadRule } from '../modules/uploads/file-types.ts';
import { notRecognised, OCR_BUSY, OCR_NOT_CONFIGURED, type OcrKind } from '../providers/ocr.ts';
import { errorAnswer, fileAnswer, json, object, ref, uploadBody, type Json } from './shapes.ts';

export const UPLOAD_COMPONENTS: Record<string, Json> = {
  UploadedFile: object(
    {
      id: { type: 'integer' },
      key: { type: 'string', pattern: '^[0-9a-f]{32}$', description: '文件的访问键' },
      name: { type: 'string', description: '文件名（去掉路径与控制字符）' },
      url: { type: 'string', description: '文件地址 /api/files/{key}' },
      size: { type: 'integer', minimum: 1, description: '字节' },
      contentType: { type: 'string', description: '由扩展名与文件内容确定，不取浏览器声明的类型' },
      kind: { type: 'string', description: '上传类别，如 picture、file、voice' },
    },
    undefined,
    { title: '已上传的文件' },
  ),
};

const limitText = (rule: UploadRule) => (rule.maxBytes === 'document' ? 'UPLOAD_MAX_BYTES' : sizeText(rule.maxBytes));
const accepts = (rule: UploadRule) => `${rule.noun}：${rule.exts.join('、')}，最大 ${limitText(rule)}`;

function store(summary: string, rule: UploadRule): Json {
  return {
    summary,
    ...uploadBody(accepts(rule)),
    response: {
      201: json(ref('UploadedFile'), '已保存的文件'),
      400: errorAnswer(400, '没有文件、文件为空、类型不符或过大', typeMessage(rule)),
    },
  };
}

const MEDIA: Record<string, [string, UploadRule]> = {
  momentImage: ['企业微信朋友圈图片', RULES.momentImage],
  sopImage: ['企业微信 SOP 图片', RULES.sopImage],
  file: ['企业微信文件', RULES.qywxFile],
  voice: ['企业微信语音', RULES.voice],
  video: ['企业微信视频', RULES.video],
};

const OCR_KINDS = { getCph: 'cph', getJz: 'jz', getXsz: 'xsz', getVin: 'vin', getYhk: 'yhk' } as const satisfies Record<OcrCall, OcrKind>;

function recognise(call: OcrCall): Json {
  return {
    summary: `${OCR_LABELS[call]}：识别图片中的字段（每个地址每分钟 20 次）`,
    ...uploadBody(accepts(RULES.ocrImage)),
    response: {
      200: json(
        object(Object.fromEntries(OCR_ANSWERS[call].map((field) => [field, { type: 'string' }])), [...OCR_ANSWERS[call]]),
        '识别出的字段（某项未识别时为空字符串）',
      ),
      400: errorAnswer(400, '图片不符合要求或未识别到内容', typeMessage(RULES.ocrImage)),
      422: errorAnswer(422, '图片中未识别到要找的内容', notRecognised(OCR_KINDS[call])),
      429: errorAnswer(429, '请求过于频繁，或识别服务今日额度已用完', OCR_BUSY),
      503: errorAnswer(503, '未配置识别服务、鉴权失败或服务暂时不可用', OCR_NOT_CONFIGURED),
    },
  };
}

export const UPLOAD_ROUTES: Record<string, Json> = {
  'POST /api/pictures': store('上传图片', RULES.picture),
  'POST /api/uploadFileApi': store('上传文件', RULES.file),
  'POST /api/qiNiuContent': store('上传文件（同 /api/uploadFileApi）', RULES.file),
  'POST /api/public/uploadFileApi': store('上传文件（员工、经销商或应聘人员令牌）', RULES.file),
  ...Object.fromEntries(
    Object.entries(MEDIA).map(([name, [title, rule]]) => [`POST /api/qywxapp/media/${name}`, store(`上传${title}`, rule)]),
  ),
  'POST /api/public/imgToTByte': {
    summary: '图片转 base64（不保存；公开，每个地址每分钟 30 次）',
    ...uploadBody(accepts(RULES.picture)),
    response: {
      200: json(
        object({
          contentType: { type: 'string' },
          size: { type: 'integer', minimum: 1 },
          base64: { type: 'string', contentEncoding: 'base64' },
        }),
        '图片的类型、大小与 base64 内容',
      ),
      400: errorAnswer(400, '没有图片、类型不符或过大', typeMessage(RULES.picture)),
    },
  },
  'GET /api/files/{key}': {
    summary: '已上传的文件（地址中的 key 即访问凭据）',
    response: {
      200: fileAnswer('application/octet-stream', '文件内容，Content-Type 为上传时确定的类型；图片、PDF、音视频在浏览器内显示，其余下载'),
      404: errorAnswer(404, '文件不存在', '文件不存在'),
    },
  },
  ...Object.fromEntries(
    (Object.keys(OCR_ANSWERS) as OcrCall[]).flatMap((call) => [
      [`POST /api/public/${call}`, recognise(call)],
      [`POST /api/ocr/${call}`, recognise(call)],
    ]),
  ),
};
