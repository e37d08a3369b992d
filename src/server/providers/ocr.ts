/**
 * Text recognition of photographed documents behind one interface. No recognition service is
 * bundled: without a provider every call answers 503 OCR服务未配置, after the upload itself has
 * been checked. A provider (a cloud OCR account, an on-site engine) implements `recognize` and
 * is set with `setOcrProvider(app, provider)` when the server is built.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.ts';

/** cph 车牌号, jz 驾驶证, xsz 行驶证, vin 车架号, yhk 银行卡 */
export type OcrKind = 'cph' | 'jz' | 'xsz' | 'vin' | 'yhk';

export interface OcrProvider {
  /** the recognised fields of the image, e.g. {plate: '豫A12345'} for cph */
  recognize(kind: OcrKind, image: Buffer, contentType: string): Promise<Record<string, unknown>>;
}

export const OCR_NOT_CONFIGURED = 'OCR服务未配置';

export const notConfiguredOcr: OcrProvider = {
  async recognize() {
    throw new ApiError(503, OCR_NOT_CONFIGURED);
  },
};

const providers = new WeakMap<FastifyInstance, OcrProvider>();

export function setOcrProvider(app: FastifyInstance, provider: OcrProvider): void {
  providers.set(app, provider);
}

export function ocrProviderOf(app: FastifyInstance): OcrProvider {
  return providers.get(app) ?? notConfiguredOcr;
}
