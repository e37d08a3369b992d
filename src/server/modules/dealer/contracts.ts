/**
 * Contracts of approved demands, behind an e-signature provider interface (ESignProvider).
 * The contract of a demand is identified by contract_id = the demand's id; it exists once the
 * demand is approved (status 2 or later).
 *   GET  api/dbc/dbcInfo/viewContract?contract_id=           PDF shown in the browser (inline)
 *   GET  api/dbc/dbcInfo/downloadContract?contract_id=       PDF as an attachment
 *   GET  api/dbc/dbcInfo/viewOrDownloadContract?contract_id=&type=view|download
 *   GET  api/dbc/dbcInfo/invokeFindPersonCert?contract_id=   the signer's certificate (provider only)
 *   POST api/dbc/dbcInfo/resendMessage {contract_id}         sends the signing SMS again (provider only)
 *   GET  comp/dbcCompany/viewContract, comp/dbcCompany/downloadContract   the same for the dealer's own demands
 * Without a configured provider the product makes the PDF itself (contract-pdf.ts); the
 * certificate look-up and the signing SMS then answer 503 saying that no service is configured.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { resourceByName } from '../../../generated/resources.ts';
import { positiveId, rowToRecord } from '../../crud/index.ts';
import { ApiError, badRequest, notFound } from '../../errors.ts';
import { nowText } from '../../db/index.ts';
import { DEALER_BASE } from './auth.ts';
import { bodyObject, queryObject } from './customers.ts';
import { contractPdf, ContractFontMissing, type ContractData } from './contract-pdf.ts';
import { REQUEST_NOT_FOUND } from './requests.ts';

export const CONTRACT_NOT_READY = '用车申请审核通过后才有合同';
export const ESIGN_NOT_CONFIGURED = '未配置电子签章服务，暂不支持该操作';
export const CONTRACT_FONT_MISSING = '合同字体文件不存在，请设置CONTRACT_FONT_PATH';

export interface ESignProvider {
  /** the contract PDF of a demand */
  contractPdf(data: ContractData): Promise<Buffer>;
  /** the signer's certificate information */
  findPersonCert(data: ContractData): Promise<Record<string, unknown>>;
  /** sends the signing message to the customer again */
  resendMessage(data: ContractData): Promise<void>;
}

/** The product's own contracts: a generated PDF, no certificates, no signing messages. */
export function localContracts(fontPath: string): ESignProvider {
  return {
    async contractPdf(data) {
      try {
        return await contractPdf(fontPath, data);
      } catch (err) {
        if (err instanceof ContractFontMissing) throw new ApiError(503, CONTRACT_FONT_MISSING);
        throw err;
      }
    },
    findPersonCert() {
      return Promise.reject(new ApiError(503, ESIGN_NOT_CONFIGURED));
    },
    resendMessage() {
      return Promise.reject(new ApiError(503, ESIGN_NOT_CONFIGURED));
    },
  };
}

export function registerContractRoutes(app: FastifyInstance, provider: ESignProvider = localContracts(app.config.contractFontPath)): void {
  const database = app.database;
  const spec = resourceByName.dbcInfo;
  const base = `/${spec.path}`;

  /** The contract data of a demand (of `compId` when given); 404 / 400 when there is none. */
  async function contractOf(rawId: unknown, compId?: number): Promise<ContractData> {
    const id = positiveId(Array.isArray(rawId) ? undefined : rawId);
    if (id === undefined) throw badRequest('合同编号必须是正整数');
    const row = await database.db
      .selectFrom(spec.table)
      .select(spec.fields.map((f) => f.column))
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (compId !== undefined && Number(row.comp_id) !== compId)) throw notFound(REQUEST_NOT_FOUND);
    const record = rowToRecord(spec, row);
    if (Number(record.status) < 2 || Number(record.status) === 3) throw badRequest(CONTRACT_NOT_READY);
    const company = await database.db
      .selectFrom('dbc_company')
      .select(['comp_name', 'comp_code'])
      .where('id', '=', Number(record.compId))
      .$castTo<{ comp_name: string | null; comp_code: string | null }>()
      .executeTakeFirst();
    return {
      contractNo: `DBC${String(id).padStart(8, '0')}`,
      compName: company?.comp_name ?? '',
      compCode: company?.comp_code ?? '',
      record,
      madeAt: nowText(),
    };
  }

  async function sendPdf(reply: FastifyReply, data: ContractData, disposition: 'inline' | 'attachment') {
    const pdf = await provider.contractPdf(data);
    const name = `代步车借用合同-${data.contractNo}.pdf`;
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `${disposition}; filename="${data.contractNo}.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'no-store')
      .send(pdf);
  }

  const typeOf = (request: FastifyRequest): 'inline' | 'attachment' => {
    const type = queryObject(request).type;
    if (type === undefined || type === 'view') return 'inline';
    if (type === 'download') return 'attachment';
    throw badRequest('type只能是view或download');
  };

  const staff = { preHandler: app.requirePermission('dbcInfo:list') };
  app.get(`${base}/viewContract`, staff, async (request, reply) =>
    sendPdf(reply, await contractOf(queryObject(request).contract_id), 'inline'),
  );
  app.get(`${base}/downloadContract`, staff, async (request, reply) =>
    sendPdf(reply, await contractOf(queryObject(request).contract_id), 'attachment'),
  );
  app.get(`${base}/viewOrDownloadContract`, staff, async (request, reply) => {
    const disposition = typeOf(request);
    return sendPdf(reply, await contractOf(queryObject(request).contract_id), disposition);
  });
  app.get(`${base}/invokeFindPersonCert`, staff, async (request) =>
    provider.findPersonCert(await contractOf(queryObject(request).contract_id)),
  );
  app.post(`${base}/resendMessage`, { preHandler: app.requirePermission('dbcInfo:edit') }, async (request) => {
    const body = bodyObject(request);
    await provider.resendMessage(await contractOf(body.contract_id ?? body.id));
    return {};
  });

  const dealer = { preHandler: app.authenticateDealer };
  app.get(`${DEALER_BASE}/viewContract`, dealer, async (request, reply) =>
    sendPdf(reply, await contractOf(queryObject(request).contract_id, request.dealer!.compId), 'inline'),
  );
  app.get(`${DEALER_BASE}/downloadContract`, dealer, async (request, reply) =>
    sendPdf(reply, await contractOf(queryObject(request).contract_id, request.dealer!.compId), 'attachment'),
  );
}
