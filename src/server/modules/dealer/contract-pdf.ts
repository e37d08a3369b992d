/**
 * The replacement-car contract (代步车借用合同) as a PDF made by the product itself, used when no
 * e-signature service is configured: A4, content area 170 mm × 265 mm, Chinese text in an
 * embedded CJK font (CONTRACT_FONT_PATH, default the Noto Sans CJK collection that Debian's
 * fonts-noto-cjk installs; only the glyphs used are embedded).
 */
import { existsSync } from 'node:fs';
import { amountToChinese } from '../../../shared/format.ts';
import { statusLabel } from '../../../shared/dbc-status.ts';
import { plainText } from '../../../shared/text.ts';

const MM = 72 / 25.4;
export const A4_CONTENT_MM = { width: 170, height: 265 };

export interface ContractData {
  contractNo: string;
  compName: string;
  compCode: string;
  record: Record<string, unknown>;
  /** when the PDF is made, 'YYYY-MM-DD HH:mm:ss' */
  madeAt: string;
}

/** The face to use from a font collection (.ttc); ignored for a single-font file. */
const COLLECTION_FACE = 'NotoSansCJKsc-Regular';

export class ContractFontMissing extends Error {}

export async function contractPdf(fontPath: string, data: ContractData): Promise<Buffer> {
  if (!existsSync(fontPath)) throw new ContractFontMissing(fontPath);
  // pdfkit (with its font readers) loads with the first contract made, not with the server
  const { default: PDFDocument } = await import('pdfkit');
  const r = data.record;
  const doc = new PDFDocument({
    size: 'A4',
    margins: { left: 20 * MM, right: 20 * MM, top: 16 * MM, bottom: 16 * MM },
    info: { Title: `代步车借用合同 ${data.contractNo}`, Author: data.compName, Subject: '代步车借用合同' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (/\.ttc$/i.test(fontPath)) doc.registerFont('cjk', fontPath, COLLECTION_FACE);
  else doc.registerFont('cjk', fontPath);
  doc.font('cjk');
  const width = A4_CONTENT_MM.width * MM;
  const text = (v: unknown) => (v === null || v === undefined ? '' : plainText(v));
  const money = (v: unknown) => `${Number(v ?? 0).toFixed(2)} 元（${amountToChinese(Number(v ?? 0))}）`;

  doc.fontSize(20).text('代步车借用合同', { align: 'center', width });
  doc
    .moveDown(0.3)
    .fontSize(10)
    .fillColor('#555')
    .text(`合同编号：${data.contractNo}    生成时间：${data.madeAt}`, { align: 'center', width });
  doc.fillColor('#000').moveDown(1);

  const section = (title: string) => doc.moveDown(0.6).fontSize(13).text(title, { width }).moveDown(0.2).fontSize(11);
  const line = (label: string, value: string) => doc.text(`${label}：${value}`, { width, lineGap: 3 });

  section('一、合同双方');
  line('甲方（出借方）', `${data.compName}（编码 ${data.compCode}）`);
  line('乙方（借用方）', `${text(r.khName)}    手机号：${text(r.khMobile)}`);
  section('二、事故车辆');
  line('车型', text(r.userCarType));
  line('车牌号', text(r.userCph));
  line('底盘号（VIN）', text(r.userVin));
  line('报案号', text(r.bah));
  line('预估维修天数', `${text(r.wxts)} 天`);
  line('预估工时费', money(r.wxgsf));
  section('三、借用期限与费用');
  line('借用期限', `${text(r.startTime)} 至 ${text(r.endTime)}`);
  line('免费天数', `${text(r.mfts)} 天`);
  line('自费天数', `${text(r.zfts)} 天`);
  line('押金', money(r.foregiftPrice));
  line('合计费用', money(r.countPrice));
  line('当前状态', statusLabel(r.status));
  section('四、约定事项');
  const terms = [
    '乙方应按约定时间取车、还车，借用期间妥善保管车辆，不得转借、出租或用于营运。',
    '借用期间发生的交通违法、事故责任由乙方承担；车辆损坏按实际维修费用从押金中扣除，不足部分由乙方补足。',
    '免费天数内不收取租金；超出免费天数的自费天数按甲方公示的日租金计费，已计入合计费用。',
    '乙方还车并结清费用后，甲方于七个工作日内无息退还剩余押金。',
    '本合同一式两份，甲乙双方各执一份，自双方签字（盖章）之日起生效。',
  ];
  terms.forEach((t, i) => doc.text(`${i + 1}. ${t}`, { width, lineGap: 3 }));
  doc.moveDown(2).fontSize(11);
  const y = doc.y;
  doc.text('甲方（盖章）：', 20 * MM, y, { width: width / 2 });
  doc.text('乙方（签字）：', 20 * MM + width / 2, y, { width: width / 2 });
  doc.moveDown(2);
  const y2 = doc.y;
  doc.text('日期：      年    月    日', 20 * MM, y2, { width: width / 2 });
  doc.text('日期：      年    月    日', 20 * MM + width / 2, y2, { width: width / 2 });
  doc.end();
  return done;
}
