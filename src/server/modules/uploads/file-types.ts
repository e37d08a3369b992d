/**
 * What each upload accepts. A file passes when its extension is allowed AND its first bytes
 * are those of that kind of file (a renamed .exe is not a picture); the stored content type
 * comes from the extension, never from the browser's claim.
 */

export interface FileType {
  ext: string;
  contentType: string;
  /** does the content start like this kind of file? */
  sniff: (b: Buffer) => boolean;
}

const starts = (b: Buffer, bytes: number[], at = 0) => bytes.every((x, i) => b[at + i] === x);
const ascii = (b: Buffer, text: string, at = 0) => b.subarray(at, at + text.length).toString('latin1') === text;
const isZip = (b: Buffer) => starts(b, [0x50, 0x4b, 0x03, 0x04]);
const isOle = (b: Buffer) => starts(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** text: no NUL byte in the first 8 KB */
const isText = (b: Buffer) => !b.subarray(0, 8192).includes(0);

export const TYPES: Record<string, FileType> = {
  jpg: { ext: 'jpg', contentType: 'image/jpeg', sniff: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  jpeg: { ext: 'jpeg', contentType: 'image/jpeg', sniff: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  png: { ext: 'png', contentType: 'image/png', sniff: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  gif: { ext: 'gif', contentType: 'image/gif', sniff: (b) => ascii(b, 'GIF87a') || ascii(b, 'GIF89a') },
  webp: { ext: 'webp', contentType: 'image/webp', sniff: (b) => ascii(b, 'RIFF') && ascii(b, 'WEBP', 8) },
  bmp: { ext: 'bmp', contentType: 'image/bmp', sniff: (b) => ascii(b, 'BM') },
  pdf: { ext: 'pdf', contentType: 'application/pdf', sniff: (b) => ascii(b, '%PDF-') },
  docx: { ext: 'docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', sniff: isZip },
  xlsx: { ext: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', sniff: isZip },
  pptx: { ext: 'pptx', contentType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', sniff: isZip },
  doc: { ext: 'doc', contentType: 'application/msword', sniff: isOle },
  xls: { ext: 'xls', contentType: 'application/vnd.ms-excel', sniff: isOle },
  ppt: { ext: 'ppt', contentType: 'application/vnd.ms-powerpoint', sniff: isOle },
  zip: { ext: 'zip', contentType: 'application/zip', sniff: isZip },
  txt: { ext: 'txt', contentType: 'text/plain; charset=utf-8', sniff: isText },
  amr: { ext: 'amr', contentType: 'audio/amr', sniff: (b) => ascii(b, '#!AMR') },
  mp3: { ext: 'mp3', contentType: 'audio/mpeg', sniff: (b) => ascii(b, 'ID3') || (b[0] === 0xff && (b[1] & 0xe0) === 0xe0) },
  mp4: { ext: 'mp4', contentType: 'video/mp4', sniff: (b) => ascii(b, 'ftyp', 4) },
};

const IMAGES = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'bmp'];
const DOCUMENTS = [...IMAGES, 'pdf', 'doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'txt', 'zip'];
const MB = 1024 * 1024;

export interface UploadRule {
  /** stored as sys_file.kind */
  kind: string;
  /** what the user is told to upload: 图片, 文件, 语音, 视频 */
  noun: string;
  exts: string[];
  /** bytes; `document` means the configured UPLOAD_MAX_BYTES */
  maxBytes: number | 'document';
}

/** The uploads of the product (work-messaging limits: images 10 MB, voice 2 MB AMR, video 10 MB MP4, files 20 MB). */
export const RULES = {
  picture: { kind: 'picture', noun: '图片', exts: IMAGES, maxBytes: 5 * MB },
  file: { kind: 'file', noun: '文件', exts: DOCUMENTS, maxBytes: 'document' },
  momentImage: { kind: 'momentImage', noun: '图片', exts: ['jpg', 'jpeg', 'png'], maxBytes: 10 * MB },
  sopImage: { kind: 'sopImage', noun: '图片', exts: ['jpg', 'jpeg', 'png'], maxBytes: 10 * MB },
  qywxFile: { kind: 'qywxFile', noun: '文件', exts: DOCUMENTS, maxBytes: 20 * MB },
  voice: { kind: 'voice', noun: '语音', exts: ['amr'], maxBytes: 2 * MB },
  video: { kind: 'video', noun: '视频', exts: ['mp4'], maxBytes: 10 * MB },
  ocrImage: { kind: 'ocr', noun: '图片', exts: ['jpg', 'jpeg', 'png', 'bmp'], maxBytes: 4 * MB },
} satisfies Record<string, UploadRule>;

export function extOf(filename: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(filename);
  return m ? m[1].toLowerCase() : '';
}

export function sizeText(bytes: number): string {
  return bytes % MB === 0 ? `${bytes / MB}MB` : `${Math.round((bytes / MB) * 10) / 10}MB`;
}

export function typeMessage(rule: UploadRule): string {
  return `${rule.noun}只能是${rule.exts.join('、')}格式`;
}

export function sizeMessage(rule: UploadRule, maxBytes: number): string {
  return `${rule.noun}大小不能超过 ${sizeText(maxBytes)}`;
}

/** The file's type when the name and the content agree with the rule, else undefined. */
export function checkType(rule: UploadRule, filename: string, content: Buffer): FileType | undefined {
  const ext = extOf(filename);
  if (!rule.exts.includes(ext)) return undefined;
  const type = TYPES[ext];
  return type && content.length > 0 && type.sniff(content) ? type : undefined;
}

/** Shown inline by the browser; anything else downloads. */
export function inline(contentType: string): boolean {
  return /^(image\/|video\/|audio\/|application\/pdf)/.test(contentType);
}
