/**
 * Uploads and OCR. Every upload is one multipart file field, checked against its rule (type by
 * extension and content, size) with a Chinese 400, then stored through the storage provider.
 *   POST /api/pictures                              picture (5 MB)                 signed in
 *   POST /api/uploadFileApi, /api/qiNiuContent      document (UPLOAD_MAX_BYTES)    signed in
 *   POST /api/qywxapp/media/{momentImage|sopImage|file|voice|video}  work-messaging media
 *   POST /api/public/imgToTByte                     picture -> {contentType, size, base64}, not stored; public, rate-limited
 *   GET  /api/files/{key}                           the stored file with its content type (the key is the capability)
 *   POST /api/public/{getCph|getJz|getXsz|getVin|getYhk}  image (jpg/png/bmp, 4 MB) -> recognised fields
 *        (see OcrResult in providers/ocr.ts); also at /api/ocr/*; 503 OCR服务未配置 without a provider;
 *        a staff, dealer or applicant token; 20 a minute per address (each call is billed)
 *   POST /api/public/uploadFileApi                 document, like /api/uploadFileApi, for a staff, dealer or applicant token
 * Upload answer: {id, key, name, url, size, contentType, kind}.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { ApiError, badRequest, notFound, unauthorized } from '../../errors.ts';
import { markAuthenticated } from '../../auth/route-catalogue.ts';
import { bearerOf, isApplicantToken } from '../applicant/tokens.ts';
import { createStorage, type StorageProvider, type StoredFile } from '../../providers/storage.ts';
import { OCR_UNAVAILABLE, ocrProviderOf, type OcrKind } from '../../providers/ocr.ts';
import { checkType, inline, RULES, sizeMessage, typeMessage, type UploadRule } from './file-types.ts';

const NO_FILE = '请选择要上传的文件';

export function fileUrl(file: StoredFile): string {
  return `/api/files/${file.key}`;
}

function cleanName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const name = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return name.slice(-200) || 'file';
}

function dispositionHeader(kind: 'inline' | 'attachment', name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encoded}`;
}

/** The one file of a multipart request, checked against the rule. */
export async function readUpload(
  request: FastifyRequest,
  rule: UploadRule,
  maxBytes: number,
): Promise<{ name: string; contentType: string; content: Buffer }> {
  if (!request.isMultipart()) throw badRequest(NO_FILE);
  let part: MultipartFile | undefined;
  const tooLarge = () => badRequest(sizeMessage(rule, maxBytes));
  try {
    part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 12 } });
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err;
  }
  if (!part) throw badRequest(NO_FILE);
  let content: Buffer;
  try {
    content = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    throw err;
  }
  if (part.file.truncated) throw tooLarge();
  if (content.length === 0) throw badRequest('上传的文件是空的');
  const name = cleanName(part.filename);
  const type = checkType(rule, name, content);
  if (!type) throw badRequest(typeMessage(rule));
  return { name, contentType: type.contentType, content };
}

const OCR_CALLS: Record<string, OcrKind> = { getCph: 'cph', getJz: 'jz', getXsz: 'xsz', getVin: 'vin', getYhk: 'yhk' };

export async function registerUploads(app: FastifyInstance): Promise<StorageProvider> {
  const storage = await createStorage(app.database, { kind: app.config.storage, dataDir: app.config.dataDir });
  const limit = (rule: UploadRule) => (rule.maxBytes === 'document' ? app.config.uploadMaxBytes : rule.maxBytes);

  const store = (rule: UploadRule) => async (request: FastifyRequest, reply: FastifyReply) => {
    const upload = await readUpload(request, rule, limit(rule));
    const file = await storage.put({ ...upload, kind: rule.kind, user: request.user?.username });
    return reply.status(201).send({
      id: file.id,
      key: file.key,
      name: file.name,
      url: fileUrl(file),
      size: file.size,
      contentType: file.contentType,
      kind: file.kind,
    });
  };
  const signedIn = { preHandler: app.authenticate };

  app.post('/api/pictures', signedIn, store(RULES.picture));
  app.post('/api/uploadFileApi', signedIn, store(RULES.file));
  app.post('/api/qiNiuContent', signedIn, store(RULES.file));
  const media: Record<string, UploadRule> = {
    momentImage: RULES.momentImage,
    sopImage: RULES.sopImage,
    file: RULES.qywxFile,
    voice: RULES.voice,
    video: RULES.video,
  };
  for (const [name, rule] of Object.entries(media)) app.post(`/api/qywxapp/media/${name}`, signedIn, store(rule));

  app.post('/api/public/imgToTByte', { config: { rateLimit: { max: 30, timeWindow: 60_000 } } }, async (request) => {
    const upload = await readUpload(request, RULES.picture, limit(RULES.picture));
    return { contentType: upload.contentType, size: upload.content.length, base64: upload.content.toString('base64') };
  });

  app.get<{ Params: { key: string } }>(
    '/api/files/:key',
    { config: { rateLimit: { max: 600, timeWindow: 60_000 } } },
    async (request, reply) => {
      const key = request.params.key;
      if (!/^[0-9a-f]{32}$/.test(key)) throw notFound('文件不存在');
      const found = await storage.get(key);
      if (!found) throw notFound('文件不存在');
      return reply
        .header('content-type', found.file.contentType)
        .header('content-length', String(found.content.length))
        .header('content-disposition', dispositionHeader(inline(found.file.contentType) ? 'inline' : 'attachment', found.file.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(found.content);
    },
  );

  /**
   * The pictures of the dealer portal and the applicant form are recognised too: a staff token,
   * a dealer's token or an applicant's token (not yet submitted) opens these routes.
   */
  const anyCaller = markAuthenticated(async function (request: FastifyRequest, reply: FastifyReply) {
    if (isApplicantToken(bearerOf(request))) {
      if (await app.resolveApplicant?.(request)) return;
      throw unauthorized();
    }
    try {
      await app.authenticate.call(app, request, reply);
      return;
    } catch (err) {
      if (!app.hasDecorator('authenticateDealer')) throw err;
    }
    await app.authenticateDealer.call(app, request, reply);
  });
  const uploader = (request: FastifyRequest) => request.user?.username ?? request.dealer?.username ?? undefined;

  app.post('/api/public/uploadFileApi', { preHandler: anyCaller }, async (request, reply) => {
    const upload = await readUpload(request, RULES.file, limit(RULES.file));
    const file = await storage.put({ ...upload, kind: RULES.file.kind, user: uploader(request) });
    return reply.status(201).send({
      id: file.id,
      key: file.key,
      name: file.name,
      url: fileUrl(file),
      size: file.size,
      contentType: file.contentType,
      kind: file.kind,
    });
  });

  const recognise = (kind: OcrKind) => async (request: FastifyRequest) => {
    const upload = await readUpload(request, RULES.ocrImage, RULES.ocrImage.maxBytes);
    try {
      return await ocrProviderOf(app).recognize(kind, upload.content, upload.contentType);
    } catch (err) {
      if (err instanceof ApiError) {
        if (err.status >= 500) request.log.warn({ kind, message: err.message }, 'ocr refused');
        throw err;
      }
      request.log.error({ err }, 'ocr failed');
      throw new ApiError(503, OCR_UNAVAILABLE);
    }
  };
  const ocrLimit = { rateLimit: { max: 20, timeWindow: 60_000 } };
  for (const [call, kind] of Object.entries(OCR_CALLS)) {
    app.post(`/api/public/${call}`, { preHandler: anyCaller, config: ocrLimit }, recognise(kind));
    app.post(`/api/ocr/${call}`, { preHandler: anyCaller, config: ocrLimit }, recognise(kind));
  }
  return storage;
}
