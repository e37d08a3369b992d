/**
 * The picture-recognition calls (POST api/public/{call}) and the fields each answers, shared by
 * the server's provider, the codegen check of `x-ocr` and the screens that fill their inputs.
 */
export const OCR_ANSWERS = {
  getCph: ['plate', 'color'],
  getJz: ['licenseNo', 'name', 'sex', 'nationality', 'address', 'birthday', 'firstIssueDate', 'vehicleClass', 'validFrom', 'validTo'],
  getXsz: ['plate', 'vehicleType', 'owner', 'address', 'useCharacter', 'model', 'vin', 'engineNo', 'registerDate', 'issueDate'],
  getVin: ['vin'],
  getYhk: ['cardNumber', 'bankName', 'cardType', 'validDate', 'holderName'],
} as const;

export type OcrCall = keyof typeof OCR_ANSWERS;

export const OCR_CALL_NAMES = Object.keys(OCR_ANSWERS) as OcrCall[];

/** The button's label per call. */
export const OCR_LABELS: Record<OcrCall, string> = {
  getCph: '识别车牌',
  getJz: '识别驾驶证',
  getXsz: '识别行驶证',
  getVin: '识别VIN',
  getYhk: '识别银行卡',
};

/** `x-ocr` of a property: a 识别 button beside its input; the answer's fields go into the named properties. */
export interface OcrFill {
  call: OcrCall;
  /** property name -> answer field */
  fill: Record<string, string>;
}
