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
import { request } from '../providers/http.ts';

interface Detail {
  value: string;
  label: string;
}

const TTL_MS = 60_000;
const cache = new Map<string, { at: number; details: Promise<Detail[] | null> }>();

export function clearDictionaryCache(): void {
  cache.clear();
}

export function loadDictionary(name: string, now = Date.now()): Promise<Detail[] | null> {
  const hit = cache.get(name);
  if (hit && now - hit.at < TTL_MS) return hit.details;
  const details = request<{ content: Detail[] }>('/api/dictDetail', { query: { dictName: name, enabled: 'true', page: 0, size: 9999, sort: 'sort,asc' }, quiet: true })
    .then((r) => (Array.isArray(r.data?.content) ? r.data.content : null))
    .catch(() => null);
  cache.set(name, { at: now, details });
  return details;
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
export function useDictionaryOptions(spec: ResourceSpec): ResourceSpec {
  const [resolved, setResolved] = useState(spec);
  useEffect(() => {
    setResolved(spec);
    const fields = spec.fields.filter((f) => f.dict);
    if (!fields.length) return;
    let live = true;
    Promise.all(fields.map((f) => loadDictionary(f.dict!))).then((all) => {
      if (!live) return;
      const byName = new Map(fields.map((f, i) => [f.name, all[i]]));
      setResolved({ ...spec, fields: spec.fields.map((f) => (byName.has(f.name) ? withDictionary(f, byName.get(f.name) ?? null) : f)) });
    });
    return () => {
      live = false;
    };
  }, [spec]);
  return resolved;
}
