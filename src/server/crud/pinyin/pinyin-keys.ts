/**
 * The pinyin keys the server stores for a marked field, and the key ranges a query reads
 * (the rule itself: shared/pinyin.ts; the side tables: pinyin-search.ts).
 *
 * The rule matches a query that is a prefix of any mix, syllable by syllable, of full readings
 * and initials over a text's first MIX_TOKENS syllables. Storing every such mix cost 32-64 keys
 * for a six-character title (100,000 imported roster rows: 83 s). The side table now holds, per
 * combination of readings, two keys:
 *   - the full pinyin, `zhangsan`: full-pinyin prefixes are a plain range over it;
 *   - the *form key*, `~zs|zhang-san---`: a `~` (so that form keys sort apart from the others,
 *     after every letter), the initials of every syllable, a `|`, then the first MIX_TOKENS
 *     syllables in full, each padded with `-` to SYLLABLE_WIDTH letters, then the rest of the
 *     text in full. Initials prefixes are a range over them (`~zs`); a mixed query (`zsan`) is
 *     split into syllables (z + san) and becomes the range of its initials (`~zs`) checked by a
 *     LIKE pattern on the padded syllables (`~zs%|z_____san%`), within the same index entries.
 *     Apart from the full keys, a short initials range (`~zhan` for z+h+a+n+gw) never reads the
 *     many full keys that start with the same letters (zhang...).
 * plus, as before, a key per Latin letter or digit inside the text (`app` in 关于APP登录).
 * A key that is the prefix of another is not stored. Every query the rule matches is found, and
 * nothing else (tests/unit/pinyin-keys.test.ts compares both over names and titles).
 */
import { pinyin } from 'pinyin-pro';
import {
  MAX_KEY_LENGTH,
  MAX_SUFFIX_KEYS,
  MIX_TOKENS,
  pinyinQuery,
  pinyinTokens,
  prefixEnd,
  readingCombos,
  type PinyinKind,
} from '../../../shared/pinyin.ts';

/** letters of the longest syllable (zhuang); every syllable is padded to it in a form key */
export const SYLLABLE_WIDTH = 6;
const PAD = '-';
/** starts a form key: sorts after every letter and digit */
const FORM_START = '~';
/** ends the initials in a form key */
const FORM_MARK = '|';

function pad(s: string): string {
  return s.length >= SYLLABLE_WIDTH ? s.slice(0, SYLLABLE_WIDTH) : s + PAD.repeat(SYLLABLE_WIDTH - s.length);
}

/** The keys of a text as the side table stores them (see the module comment). */
export function pinyinStoredKeys(text: string | null | undefined, kind: PinyinKind = 'text'): string[] {
  const tokens = pinyinTokens(text, kind);
  if (!tokens.length) return [];
  const head = tokens.slice(0, MIX_TOKENS);
  const tail = tokens.slice(MIX_TOKENS).map((t) => t.readings[0]);
  // a form key adds something when two syllables or more could be mixed
  const mixes = tokens.length > 1 && tokens.some((t) => t.readings.some((r) => r.length > 1));
  const keys = new Set<string>();
  for (const readings of readingCombos(head)) {
    const all = [...readings, ...tail];
    keys.add(all.join('').slice(0, MAX_KEY_LENGTH));
    if (!mixes) continue;
    const initials = all
      .map((r) => r[0])
      .join('')
      .slice(0, MAX_KEY_LENGTH);
    keys.add(`${FORM_START}${initials}${FORM_MARK}${readings.map(pad).join('')}${tail.join('').slice(0, MAX_KEY_LENGTH)}`);
  }
  // Latin letters and digits inside the text start keys of their own
  let suffixes = 0;
  for (let i = 1; i < tokens.length && suffixes < MAX_SUFFIX_KEYS; i++) {
    if (tokens[i].han) continue;
    keys.add(
      tokens
        .slice(i)
        .map((t) => t.readings[0])
        .join('')
        .slice(0, MAX_KEY_LENGTH),
    );
    suffixes++;
  }
  // a key that is the prefix of another adds nothing to a prefix search
  const sorted = [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.filter((k, i) => !(i + 1 < sorted.length && sorted[i + 1].startsWith(k)));
}

let syllables: { full: Set<string>; prefixes: Set<string> } | undefined;

/**
 * Every toneless syllable pinyin-pro reads (about 415), and their prefixes: the pieces a mixed
 * query is split into. Read once from the library over the CJK blocks (about 0.1-0.3 s).
 */
export function pinyinSyllables(): { full: Set<string>; prefixes: Set<string> } {
  if (syllables) return syllables;
  const full = new Set<string>();
  const blocks: Array<[number, number]> = [
    [0x3400, 0x4dbf],
    [0x4e00, 0x9fff],
    [0xf900, 0xfaff],
  ];
  let chunk = '';
  for (const [from, to] of blocks) for (let c = from; c <= to; c++) chunk += String.fromCodePoint(c);
  for (const ch of chunk) {
    for (const r of pinyin(ch, { type: 'array', toneType: 'none', v: true, multiple: true })) {
      const folded = r.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      if (/^[a-z]{2,}$/.test(folded)) full.add(folded);
    }
  }
  const prefixes = new Set<string>();
  for (const s of full) for (let i = 2; i <= s.length; i++) prefixes.add(s.slice(0, i));
  syllables = { full, prefixes };
  return syllables;
}

/** A range of keys to read, and when `like` is set, the patterns one of which a key must match. */
export interface KeyRange {
  from: string;
  to: string;
  like: string[];
}

interface Piece {
  text: string;
  /** `initial`: one letter standing for a syllable; `full`: a whole syllable; `part`: the start of the last one */
  kind: 'initial' | 'full' | 'part';
}

/**
 * The key ranges of a query (null when it is not a pinyin query): first the plain range of
 * the query itself (full pinyin, Latin keys), then its range among the form keys (initials),
 * then one range per initials prefix of a mixed reading of the query, with its LIKE patterns.
 */
export function pinyinKeyRanges(query: string): KeyRange[] | null {
  const q = pinyinQuery(query);
  if (!q) return null;
  const out: KeyRange[] = [
    { from: q, to: prefixEnd(q), like: [] },
    { from: FORM_START + q, to: FORM_START + prefixEnd(q), like: [] },
  ];
  const patterns = new Map<string, Set<string>>();
  const emit = (pieces: Piece[], tail?: { kind: 'full' | 'initial'; rest: string }) => {
    const body = tail ? pieces : pieces.slice(0, -1);
    const last = tail ? undefined : pieces[pieces.length - 1];
    // all full but the last piece: a prefix of the full key; all initials: of the form key's initials
    if (body.every((p) => p.kind === 'full') && (!tail || tail.kind === 'full')) return;
    if (pieces.every((p) => p.kind === 'initial') && (!tail || tail.kind === 'initial')) return;
    const initials = pieces.map((p) => p.text[0]).join('') + (tail?.kind === 'initial' ? tail.rest : '');
    let form = '';
    for (const p of body) form += p.kind === 'initial' ? p.text + '_'.repeat(SYLLABLE_WIDTH - 1) : pad(p.text);
    if (last) form += last.text;
    if (tail?.kind === 'full') form += tail.rest;
    const like = `${FORM_START}${initials}%${FORM_MARK}${form}%`;
    const set = patterns.get(initials) ?? new Set<string>();
    set.add(like);
    patterns.set(initials, set);
  };
  const { full, prefixes } = pinyinSyllables();
  const walk = (at: number, pieces: Piece[]) => {
    if (at === q.length) return emit(pieces);
    if (pieces.length === MIX_TOKENS) {
      emit(pieces, { kind: 'full', rest: q.slice(at) });
      emit(pieces, { kind: 'initial', rest: q.slice(at) });
      return;
    }
    walk(at + 1, [...pieces, { text: q[at], kind: 'initial' }]);
    for (let len = 2; len <= SYLLABLE_WIDTH && at + len <= q.length; len++) {
      const s = q.slice(at, at + len);
      if (at + len < q.length && full.has(s)) walk(at + len, [...pieces, { text: s, kind: 'full' }]);
      else if (at + len === q.length && prefixes.has(s)) emit([...pieces, { text: s, kind: 'part' }]);
    }
  };
  walk(0, []);
  // several patterns of one initials prefix share its range. At most MIX_TOKENS pieces branch,
  // each in at most SYLLABLE_WIDTH ways, so even a contrived query stays bounded (a few dozen
  // patterns for real ones: zhang 8, zhuangshuangchuang 98)
  for (const [initials, like] of [...patterns.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
    out.push({ from: FORM_START + initials, to: FORM_START + prefixEnd(initials), like: [...like].sort() });
  return out;
}

/** Whether a stored key is in one of the ranges (what the SQL of the ranges does, in memory). */
export function keyInRanges(key: string, ranges: KeyRange[]): boolean {
  return ranges.some((r) => key >= r.from && key < r.to && (!r.like.length || r.like.some((p) => likeRegex(p).test(key))));
}

const likeCache = new Map<string, RegExp>();

function likeRegex(pattern: string): RegExp {
  let re = likeCache.get(pattern);
  if (!re) {
    const body = pattern
      .replace(/[|\\^$.*+?()[\]{}]/g, '\\$&')
      .replace(/%/g, '.*')
      .replace(/_/g, '.');
    re = new RegExp(`^${body}$`, 's');
    if (likeCache.size > 1000) likeCache.clear();
    likeCache.set(pattern, re);
  }
  return re;
}
