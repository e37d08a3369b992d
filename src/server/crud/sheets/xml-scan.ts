/**
 * A small streaming XML tokeniser over UTF-8 bytes, for the parts of an uploaded workbook
 * (xlsx-reader.ts). It works on Buffers, not strings: markup is ASCII, and a byte below 0x80 is
 * never part of a multi-byte UTF-8 character, so looking for `<`, `>` and quotes byte by byte is
 * safe whatever the chunking, and only the texts a reader keeps become strings (each its own
 * copy, holding no chunk in memory).
 *
 * Elements are reported by their local name (a prefix such as `x:` in `<x:c>` is skipped);
 * comments, processing instructions and the DOCTYPE are skipped (no entity of a DTD is ever
 * expanded); CDATA content is reported as text. A token (a tag, or the text between two tags)
 * that does not end within MAX_TOKEN_BYTES is an error, so a hostile part cannot make the
 * scanner hold an unbounded remainder.
 */

export const MAX_TOKEN_BYTES = 4 * 1024 * 1024;

export class XmlFormatError extends Error {}

export interface XmlEvents {
  /** An element opens: [nameStart, nameEnd) is its local name, [attrStart, attrEnd) its attributes. */
  open(buf: Buffer, nameStart: number, nameEnd: number, attrStart: number, attrEnd: number, empty: boolean): void;
  /** An element closes (also right after `open` for an empty element `<x/>`). */
  close(buf: Buffer, nameStart: number, nameEnd: number): void;
  /** Character data between two tags, entities still encoded; CDATA content (`cdata`) is literal. */
  text(buf: Buffer, start: number, end: number, cdata: boolean): void;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const COLON = 0x3a;
const BANG = 0x21;
const QUESTION = 0x3f;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const AMP = 0x26;
const CR = 0x0d;

const isNameEnd = (b: number) => b === GT || b === SLASH || b <= 0x20;

const COMMENT_END = Buffer.from('-->');
const CDATA_START = Buffer.from('<![CDATA[');
const CDATA_END = Buffer.from(']]>');
const PI_END = Buffer.from('?>');

/** The end (index of `>`) of the tag opening at `lt`, quotes respected; -1 when not in `buf` yet. */
function tagEnd(buf: Buffer, lt: number): number {
  let i = lt + 1;
  const n = buf.length;
  while (i < n) {
    const b = buf[i];
    if (b === GT) return i;
    if (b === DQUOTE || b === SQUOTE) {
      const close = buf.indexOf(b, i + 1);
      if (close < 0) return -1;
      i = close + 1;
    } else i++;
  }
  return -1;
}

/** Feeds chunks of one XML part to `events`; call end() after the last. */
export class XmlScanner {
  private rest: Buffer | undefined;
  /** elements open now, and whether the root element has been seen */
  private depth = 0;
  private rooted = false;

  constructor(private readonly events: XmlEvents) {}

  write(chunk: Buffer): void {
    const buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    const pos = this.scan(buf);
    this.rest = pos < buf.length ? buf.subarray(pos) : undefined;
    if (this.rest && this.rest.length > MAX_TOKEN_BYTES) throw new XmlFormatError('XML token too long');
  }

  /** Throws XmlFormatError when the part was not one whole element (empty, not XML, cut off). */
  end(): void {
    if (this.rest && this.rest.indexOf(LT) >= 0) throw new XmlFormatError('XML part ends inside a tag');
    if (!this.rooted || this.depth !== 0) throw new XmlFormatError('XML part is not one complete element');
    this.rest = undefined;
  }

  /** Reports every complete token of `buf`; answers where the incomplete remainder starts. */
  private scan(buf: Buffer): number {
    const events = this.events;
    const n = buf.length;
    let pos = 0;
    while (pos < n) {
      const lt = buf.indexOf(LT, pos);
      if (lt < 0) return pos; // text that goes on in the next chunk
      if (lt > pos) events.text(buf, pos, lt, false);
      pos = lt;
      if (lt + 1 >= n) return pos;
      const first = buf[lt + 1];
      if (first === BANG) {
        if (lt + 9 > n) return pos;
        if (buf.compare(CDATA_START, 0, 9, lt, lt + 9) === 0) {
          const close = buf.indexOf(CDATA_END, lt + 9);
          if (close < 0) return pos;
          events.text(buf, lt + 9, close, true);
          pos = close + 3;
        } else if (buf[lt + 2] === 0x2d && buf[lt + 3] === 0x2d) {
          const close = buf.indexOf(COMMENT_END, lt + 4);
          if (close < 0) return pos;
          pos = close + 3;
        } else {
          // <!DOCTYPE ...>, possibly with an internal subset in brackets: skipped, never expanded
          const bracket = buf.indexOf(0x5b, lt);
          const gt = buf.indexOf(GT, lt);
          if (gt < 0) return pos;
          if (bracket >= 0 && bracket < gt) {
            const close = buf.indexOf(']>', bracket);
            if (close < 0) return pos;
            pos = close + 2;
          } else pos = gt + 1;
        }
        continue;
      }
      if (first === QUESTION) {
        const close = buf.indexOf(PI_END, lt + 2);
        if (close < 0) return pos;
        pos = close + 2;
        continue;
      }
      const gt = tagEnd(buf, lt);
      if (gt < 0) return pos;
      const closing = first === SLASH;
      let nameStart = closing ? lt + 2 : lt + 1;
      let i = nameStart;
      while (i < gt && !isNameEnd(buf[i])) {
        if (buf[i] === COLON) nameStart = i + 1;
        i++;
      }
      const nameEnd = i;
      if (closing) {
        if (--this.depth < 0) throw new XmlFormatError('XML end tag without its start');
        events.close(buf, nameStart, nameEnd);
      } else {
        const empty = buf[gt - 1] === SLASH;
        if (this.depth === 0 && this.rooted) throw new XmlFormatError('XML part with a second root element');
        this.rooted = true;
        events.open(buf, nameStart, nameEnd, nameEnd, empty ? gt - 1 : gt, empty);
        if (empty) events.close(buf, nameStart, nameEnd);
        else this.depth++;
      }
      pos = gt + 1;
    }
    return pos;
  }
}

/** Whether the bytes [start, end) spell `name` (ASCII). */
export function nameIs(buf: Buffer, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (buf[start + i] !== name.charCodeAt(i)) return false;
  return true;
}

/**
 * Calls `found` with each attribute of a tag: [nameStart, nameEnd) its local name (prefix
 * skipped), [valueStart, valueEnd) its value without the quotes (entities still encoded).
 */
export function eachAttribute(
  buf: Buffer,
  start: number,
  end: number,
  found: (nameStart: number, nameEnd: number, valueStart: number, valueEnd: number) => void,
): void {
  let i = start;
  while (i < end) {
    while (i < end && buf[i] <= 0x20) i++;
    if (i >= end) return;
    let nameStart = i;
    while (i < end && buf[i] !== 0x3d && buf[i] > 0x20) {
      if (buf[i] === COLON) nameStart = i + 1;
      i++;
    }
    const nameEnd = i;
    while (i < end && buf[i] <= 0x20) i++;
    if (buf[i] !== 0x3d) return; // not an attribute: the rest of the tag is not read
    i++;
    while (i < end && buf[i] <= 0x20) i++;
    const quote = buf[i];
    if (quote !== DQUOTE && quote !== SQUOTE) return;
    const close = buf.indexOf(quote, i + 1);
    if (close < 0 || close > end) return;
    found(nameStart, nameEnd, i + 1, close);
    i = close + 1;
  }
}

/** The attributes of a tag by local name, values decoded (for the small parts; rows use eachAttribute). */
export function attributes(buf: Buffer, start: number, end: number): Map<string, string> {
  const out = new Map<string, string>();
  eachAttribute(buf, start, end, (ns, ne, vs, ve) => out.set(buf.toString('latin1', ns, ne), xmlText(buf, vs, ve)));
  return out;
}

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6}));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function codePoint(n: number, whole: string): string {
  return n > 0 && n <= 0x10ffff && !(n >= 0xd800 && n <= 0xdfff) ? String.fromCodePoint(n) : whole;
}

/** Decodes the predefined entities and character references of an XML text; others stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, named: string | undefined, dec: string | undefined, hex: string | undefined) =>
    named ? NAMED[named] : dec ? codePoint(parseInt(dec, 10), whole) : codePoint(parseInt(hex!, 16), whole),
  );
}

/**
 * The text of the UTF-8 bytes [start, end) as an XML parser hands it over: entities and
 * character references decoded, line ends (CR LF, CR) read as LF.
 */
export function xmlText(buf: Buffer, start: number, end: number): string {
  let amp = false;
  let cr = false;
  for (let i = start; i < end; i++) {
    const b = buf[i];
    if (b === AMP) amp = true;
    else if (b === CR) cr = true;
  }
  let text = buf.toString('utf8', start, end);
  if (cr) text = text.replace(/\r\n?/g, '\n');
  if (amp) text = decodeEntities(text);
  return text;
}
