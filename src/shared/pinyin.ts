/**
 * Pinyin search: the one rule the server and the screens share.
 *
 * A query of Latin letters (digits allowed beside them) matches a text when, ignoring case,
 * tones and spaces, it is a prefix of one of the text's *keys*:
 *   - the full pinyin (张三 -> zhangsan),
 *   - the initials (zs),
 *   - a mix by syllable, each syllable in full or by its initial (zsan, zhangs; the last one
 *     may be cut short because any prefix of a key matches). Mixing is free over the first
 *     MIX_TOKENS syllables (every name); after them the rest of the text is either all full or
 *     all initials (用户管理系统: yhglxt, yhglxitong, yonghuguanlixitong, not yhglxtong).
 * Polyphonic characters give a key per reading (重庆: cq and zq); in people's names (`name`)
 * the first character also takes its surname reading (曾 zeng, 单 shan, 解 xie, 仇 qiu, 区 ou,
 * 朴 piao). Latin letters and digits of the text stand for themselves, other characters
 * (spaces, punctuation) are skipped, and every Latin letter or digit inside the text also starts
 * a key of its own, so a Latin query still finds Latin text in the middle (APP in 关于APP登录).
 * A query with any other character (Chinese, punctuation) is not a pinyin query: it matches as
 * a plain substring, as before.
 *
 * The readings come from pinyin-pro (the whole text read in context, plus every reading of
 * each character). The server stores the keys of marked fields in a side table and searches
 * them as an index range (see docs/pinyin-search.md); the screens build the same keys in
 * memory and also learn which characters matched, to highlight them.
 */
import { pinyin } from 'pinyin-pro';

/** `name`: a person's name (surname readings); `text`: any other name or title */
export type PinyinKind = 'name' | 'text';

/**
 * bumped whenever the keys of a text, or the form the server stores them in, change; stored rows
 * are then computed again (2: two keys per reading, server/crud/pinyin/pinyin-keys.ts)
 */
export const PINYIN_RULE_VERSION = 2;
/** syllables over which full and initial forms mix freely */
export const MIX_TOKENS = 4;
/** the longest key kept; longer queries are compared on this many letters */
export const MAX_KEY_LENGTH = 64;
const MAX_READINGS = 4;
const MAX_COMBOS = 16;
export const MAX_SUFFIX_KEYS = 32;
/** letters taken from the text: more are not read (titles); queries are short */
const MAX_TEXT = 200;

interface Token {
  /** position and length of the character in the text (UTF-16 units) */
  at: number;
  len: number;
  /** readings, most likely first; a Latin letter or digit is its own single reading */
  readings: string[];
  han: boolean;
}

const HAN = /\p{Script=Han}/u;
const MARKS = /\p{M}/gu;

/** Lower case, no tones or accents, ü as v, full-width forms as ASCII. */
function fold(ch: string): string {
  return ch.normalize('NFKC').replace(/[üÜ]/g, 'v').normalize('NFD').replace(MARKS, '').toLowerCase();
}

const readingsCache = new Map<string, string[]>();
const surnameCache = new Map<string, string>();

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  if (cache.size > 20_000) cache.clear();
  cache.set(key, value);
  return value;
}

/** Every reading of one character, toneless, ü as v. */
function charReadings(ch: string): string[] {
  const known = readingsCache.get(ch);
  if (known) return known;
  const all = pinyin(ch, { type: 'array', toneType: 'none', v: true, multiple: true });
  return remember(readingsCache, ch, [...new Set(all.map((r) => fold(r)).filter((r) => /^[a-z]+$/.test(r)))]);
}

/** The reading of a character as a surname (区 ou, 朴 piao). */
function surnameReading(ch: string): string {
  const known = surnameCache.get(ch);
  if (known !== undefined) return known;
  const [r = ''] = pinyin(ch, { type: 'array', toneType: 'none', v: true, surname: 'head' });
  return remember(surnameCache, ch, fold(r));
}

const ASCII_KEPT = /^[a-z0-9]$/;

function tokenize(text: string, kind: PinyinKind): Token[] {
  const source = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
  const chars = Array.from(source);
  let han = 0;
  let crowded = false;
  for (const ch of chars) {
    if (!HAN.test(ch)) continue;
    han++;
    if (charReadings(ch).length > MAX_READINGS) crowded = true;
  }
  // The text read in context (银行 yinhang) ranks the readings: it is the one used after the
  // mixed syllables, and the one kept when a character has more readings than are kept. Short
  // texts of plain characters do without it (it is the costly call).
  const context = han > MIX_TOKENS || (crowded && han > 0) ? pinyin(source, { type: 'array', toneType: 'none', v: true }) : [];
  const aligned = context.length === chars.length;
  const tokens: Token[] = [];
  let at = 0;
  chars.forEach((ch, i) => {
    if (HAN.test(ch)) {
      const ranked = [aligned ? fold(context[i]) : '', ...charReadings(ch)];
      if (kind === 'name' && tokens.length === 0) ranked.unshift(surnameReading(ch));
      const readings = [...new Set(ranked)].filter((r) => r !== '' && /^[a-z]+$/.test(r)).slice(0, MAX_READINGS);
      if (readings.length) tokens.push({ at, len: ch.length, readings, han: true });
    } else {
      const lower = ch.toLowerCase();
      const f = ASCII_KEPT.test(lower) ? lower : fold(ch).replace(/[^a-z0-9]/g, '');
      for (const c of f) tokens.push({ at, len: ch.length, readings: [c], han: false });
    }
    at += ch.length;
  });
  return tokens;
}

/** A key with, per syllable, where it ends in the key and which characters it stands for. */
export interface KeyEntry {
  key: string;
  /** key offset where each token ends */
  ends: number[];
  /** text range [start, end) of each token */
  spans: Array<[number, number]>;
}

/**
 * The syllables of a text as the keys are made of them: per character (or Latin letter, digit)
 * its readings, most likely first, and whether it is a Chinese character. The server stores a
 * compact form of the keys built from these (server/crud/pinyin/pinyin-keys.ts).
 */
export function pinyinTokens(text: string | null | undefined, kind: PinyinKind = 'text'): Array<Pick<Token, 'readings' | 'han'>> {
  return text ? tokenize(text, kind) : [];
}

/** Every combination of the tokens' readings, at most MAX_COMBOS, the most likely first. */
export function readingCombos(tokens: Array<Pick<Token, 'readings'>>): string[][] {
  let out: string[][] = [[]];
  for (const t of tokens) {
    const next: string[][] = [];
    for (const prefix of out) {
      for (const r of t.readings) {
        if (next.length >= MAX_COMBOS) break;
        next.push([...prefix, r]);
      }
    }
    out = next;
  }
  return out;
}

const NO_POSITIONS: never[] = [];

function entryOf(tokens: Token[], forms: string[], positions: boolean): KeyEntry {
  if (!positions) return { key: forms.join('').slice(0, MAX_KEY_LENGTH), ends: NO_POSITIONS, spans: NO_POSITIONS };
  let key = '';
  const ends: number[] = [];
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < tokens.length && key.length < MAX_KEY_LENGTH; i++) {
    key += forms[i];
    ends.push(Math.min(key.length, MAX_KEY_LENGTH));
    spans.push([tokens[i].at, tokens[i].at + tokens[i].len]);
  }
  return { key: key.slice(0, MAX_KEY_LENGTH), ends, spans };
}

/** Every key of a text (see the module comment), with positions for highlighting. */
export function pinyinEntries(text: string | null | undefined, kind: PinyinKind = 'text', positions = true): KeyEntry[] {
  if (!text) return [];
  const tokens = tokenize(text, kind);
  if (!tokens.length) return [];
  const head = tokens.slice(0, MIX_TOKENS);
  const tail = tokens.slice(MIX_TOKENS);
  const tailFull = tail.map((t) => t.readings[0]);
  const tailInitials = tail.map((t) => t.readings[0][0]);
  const entries = new Map<string, KeyEntry>();
  const add = (forms: string[], from = tokens) => {
    const e = entryOf(from, forms, positions);
    if (!entries.has(e.key)) entries.set(e.key, e);
  };
  for (const readings of readingCombos(head)) {
    // the last head syllable in full: its initial-only form is a prefix of it
    const free = tail.length ? head.length : head.length - 1;
    for (let mask = 0; mask < 1 << free; mask++) {
      const forms = readings.map((r, i) => (i < free && mask & (1 << i) ? r[0] : r));
      add([...forms, ...tailFull]);
      if (tail.length) add([...forms, ...tailInitials]);
    }
  }
  // Latin letters and digits inside the text start keys of their own
  let suffixes = 0;
  for (let i = 1; i < tokens.length && suffixes < MAX_SUFFIX_KEYS; i++) {
    if (tokens[i].han) continue;
    const rest = tokens.slice(i);
    add(
      rest.map((t) => t.readings[0]),
      rest,
    );
    suffixes++;
  }
  // a key that is the prefix of another adds nothing to a prefix search
  const sorted = [...entries.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return sorted.filter((e, i) => !(i + 1 < sorted.length && sorted[i + 1].key.startsWith(e.key)));
}

/** The keys of a text, as the server stores them. */
export function pinyinKeys(text: string | null | undefined, kind: PinyinKind = 'text'): string[] {
  return pinyinEntries(text, kind, false).map((e) => e.key);
}

/**
 * The query as a key prefix: lower case, no tones, no spaces; null when it is not a pinyin
 * query (no Latin letter, or a character other than Latin letters, digits and spaces).
 */
export function pinyinQuery(query: string): string | null {
  const folded = Array.from(query.trim())
    .map((c) => fold(c))
    .join('')
    .replace(/\s+/g, '');
  if (!folded || !/^[a-z0-9]+$/.test(folded) || !/[a-z]/.test(folded)) return null;
  return folded.slice(0, MAX_KEY_LENGTH);
}

/** The smallest string after every string that starts with `prefix` (keys are [a-z0-9]). */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** Matched characters of a text: [start, end) in UTF-16 units. */
export type MatchRange = [number, number];

/**
 * Where `query` matches `text` by the rule: a plain substring (ignoring ASCII case) first,
 * then pinyin. Null when it does not match; an empty query matches with an empty range.
 */
export function pinyinMatch(
  text: string | null | undefined,
  query: string,
  kind: PinyinKind = 'text',
  entries?: KeyEntry[],
): MatchRange | null {
  const q = query.trim();
  if (!q) return [0, 0];
  if (!text) return null;
  const plain = text.toLowerCase().indexOf(q.toLowerCase());
  if (plain >= 0) return [plain, plain + q.length];
  const key = pinyinQuery(q);
  if (!key) return null;
  for (const e of entries ?? pinyinEntries(text, kind)) {
    if (!e.key.startsWith(key)) continue;
    let last = e.ends.findIndex((end) => end >= key.length);
    if (last < 0) last = e.ends.length - 1;
    return [e.spans[0][0], e.spans[last][1]];
  }
  return null;
}

/**
 * A matcher for one query over many texts (pickers, menus): keys are computed once per text
 * and kept while the matcher lives.
 */
export function pinyinMatcher(kind: PinyinKind = 'text'): (text: string | null | undefined, query: string) => MatchRange | null {
  const cache = new Map<string, KeyEntry[]>();
  return (text, query) => {
    if (!text) return query.trim() ? null : [0, 0];
    let entries = cache.get(text);
    if (!entries) {
      entries = pinyinEntries(text, kind);
      if (cache.size > 50_000) cache.clear();
      cache.set(text, entries);
    }
    return pinyinMatch(text, query, kind, entries);
  };
}
