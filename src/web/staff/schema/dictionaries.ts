/**
 * `x-dict`: the options of a field come from its dictionary (GET api/dictDetail?dictName=,
 * enabled details sorted by sort). The schema's `x-options` are the seed and the fallback: they
 * stay while the dictionary loads, when it cannot be read, and when it is empty. Values are
 * stored as text in the dictionary and converted to the field's type (booleans 'true'/'false',
 * numbers); a detail whose value does not fit the type is left out. Answers are kept for a
 * minute per dictionary so a screen does not ask again on every render.
 */
import { useEffect, useState } from 'react';
import type { FieldSpec, Option, ResourceSpec } from '../../../shared/resource-spec.ts';
import { buildQuery, request } from '../../common/http.ts';
import { takeEarlyGet } from '../../common/early.ts';
import { dictionaryQuery } from '../firstRequests.ts';

interface Detail {
  value: string;
  label: string;
}

const TTL_MS = 60_000;
const cache = new Map<string, { at: number; details: Promise<Detail[] | null>; settled?: { value: Detail[] | null } }>();

export function clearDictionaryCache(): void {
  cache.clear();
}

export function loadDictionary(name: string, now = Date.now()): Promise<Detail[] | null> {
  const hit = cache.get(name);
  if (hit && now - hit.at < TTL_MS) return hit.details;
  const entry: { at: number; details: Promise<Detail[] | null>; settled?: { value: Detail[] | null } } = {
    at: now,
    details: Promise.resolve(null),
  };
  const query = dictionaryQuery(name);
  const ask = () => request<{ content: Detail[] }>('/api/dictDetail', { query, quiet: true }).then((r) => r.data);
  // asked for by index.html's early script when the page opened on a list using it
  const early = takeEarlyGet<{ content: Detail[] }>(`/api/dictDetail?${buildQuery(query)}`);
  entry.details = (early ? early.catch(ask) : ask())
    .then((data) => (Array.isArray(data?.content) ? data.content : null))
    .catch(() => null)
    .then((value) => {
      entry.settled = { value };
      return value;
    });
  cache.set(name, entry);
  return entry.details;
}

/** A dictionary's details when they have already arrived and are fresh (undefined otherwise). */
export function peekDictionary(name: string, now = Date.now()): { value: Detail[] | null } | undefined {
  const hit = cache.get(name);
  return hit && now - hit.at < TTL_MS ? hit.settled : undefined;
}

/** Starts loading the dictionaries of a resource's `x-dict` fields (a screen about to open). */
export function prefetchDictionaries(spec: ResourceSpec): void {
  for (const f of spec.fields) if (f.dict) void loadDictionary(f.dict);
}

/** The spec with its `x-dict` fields' options from the given details. */
function resolveSpec(spec: ResourceSpec, fields: FieldSpec[], details: Array<Detail[] | null>): ResourceSpec {
  const byName = new Map(fields.map((f, i) => [f.name, details[i]]));
  return { ...spec, fields: spec.fields.map((f) => (byName.has(f.name) ? withDictionary(f, byName.get(f.name) ?? null) : f)) };
}

/** A dictionary value in the field's type, or undefined when it does not fit. */
export function dictValue(field: Pick<FieldSpec, 'type'>, value: string): Option['value'] | undefined {
  switch (field.type) {
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : undefined;
    case 'integer':
      return /^-?\d+$/.test(value) ? Number(value) : undefined;
    case 'number':
      return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined;
    default:
      return value;
  }
}

/** The field with its options from the dictionary's details (unchanged when there are none). */
export function withDictionary(field: FieldSpec, details: Detail[] | null): FieldSpec {
  if (!details?.length) return field;
  const options: Option[] = [];
  for (const d of details) {
    const value = dictValue(field, String(d.value));
    if (value !== undefined) options.push({ value, label: String(d.label) });
  }
  return options.length ? { ...field, options } : field;
}

/** The spec with every `x-dict` field's options read from its dictionary. */
interface Resolution {
  spec: ResourceSpec;
  /** the details the options came from (one per `x-dict` field), null while any is missing */
  details: Array<Detail[] | null> | null;
  resolved: ResourceSpec;
}

/** The spec resolved from the dictionaries already loaded (unchanged while any is missing). */
function resolution(spec: ResourceSpec): Resolution {
  const fields = spec.fields.filter((f) => f.dict);
  if (!fields.length) return { spec, details: [], resolved: spec };
  const known = fields.map((f) => peekDictionary(f.dict!));
  if (known.some((k) => !k)) return { spec, details: null, resolved: spec };
  const details = known.map((k) => k!.value);
  return { spec, details, resolved: resolveSpec(spec, fields, details) };
}

export function useDictionaryOptions(spec: ResourceSpec): ResourceSpec {
  // dictionaries already loaded (the console asks for those of the screen it opens on) are
  // used at once: the screen does not render a second time when they arrive
  const [state, setState] = useState(() => resolution(spec));
  let current = state;
  if (state.spec !== spec) {
    current = resolution(spec);
    setState(current);
  }
  useEffect(() => {
    const fields = spec.fields.filter((f) => f.dict);
    if (!fields.length) return;
    let live = true;
    void Promise.all(fields.map((f) => loadDictionary(f.dict!))).then((all) => {
      if (!live) return;
      setState((prev) =>
        prev.spec === spec && prev.details && prev.details.length === all.length && prev.details.every((d, i) => d === all[i])
          ? prev
          : { spec, details: all, resolved: resolveSpec(spec, fields, all) },
      );
    });
    return () => {
      live = false;
    };
  }, [spec]);
  return current.resolved;
}
