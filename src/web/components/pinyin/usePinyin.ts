/**
 * The shared pinyin rule (src/shared/pinyin.ts) for the screens that search. The readings
 * library is big, so it comes in its own chunk when the first such screen needs it, never with
 * sign-in. Until it is there, texts match as plain substrings (what the rule does for
 * characters anyway).
 */
import { useEffect, useMemo, useState } from 'react';
import type { MatchRange, PinyinKind } from '../../../shared/pinyin.ts';

export type { MatchRange, PinyinKind };
export type TextMatcher = (text: string | null | undefined, query: string) => MatchRange | null;

type PinyinModule = typeof import('../../../shared/pinyin.ts');

let loaded: PinyinModule | undefined;
let loading: Promise<PinyinModule> | undefined;

export function loadPinyin(): Promise<PinyinModule> {
  loading ??= import('../../../shared/pinyin.ts').then((m) => (loaded = m));
  return loading;
}

/** Substring match ignoring case, the rule's answer for a query that is not pinyin. */
export const plainMatch: TextMatcher = (text, query) => {
  const q = query.trim();
  if (!q) return [0, 0];
  if (!text) return null;
  const at = text.toLowerCase().indexOf(q.toLowerCase());
  return at < 0 ? null : [at, at + q.length];
};

/** A matcher by the rule (keys of each text computed once), plain until the rule has loaded. */
export function usePinyinMatcher(kind: PinyinKind = 'text'): TextMatcher {
  const [module, setModule] = useState<PinyinModule | undefined>(loaded);
  useEffect(() => {
    if (module) return;
    let live = true;
    loadPinyin().then(
      (m) => live && setModule(m),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [module]);
  return useMemo(() => (module ? module.pinyinMatcher(kind) : plainMatch), [module, kind]);
}
