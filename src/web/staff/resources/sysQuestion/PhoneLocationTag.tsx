/**
 * Where a caller's mobile was issued, as a small tag beside it (e.g. 北京市 中国移动), from
 * GET /api/kf/phoneToAddress?resource=&id= (the record's own mobile, so it works where the screen
 * shows the number masked). Each record is asked once per page load; nothing is shown when the
 * record has no mobile, the range is unknown, or the look-up fails.
 */
import { useEffect, useState } from 'react';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import { request } from '../../../common/http.ts';

export interface PhoneLocation {
  phone: string;
  province: string;
  city: string;
  carrier: string;
  location: string;
}

const cache = new Map<string, Promise<PhoneLocation | null>>();

export function phoneLocationOf(resource: string, id: string | number): Promise<PhoneLocation | null> {
  const key = `${resource}:${id}`;
  let found = cache.get(key);
  if (!found) {
    found = request<PhoneLocation>('/api/kf/phoneToAddress', { query: { resource, id }, quiet: true })
      .then((r) => r.data)
      .catch(() => {
        cache.delete(key);
        return null;
      });
    cache.set(key, found);
  }
  return found;
}

/** The text of the tag: 江苏省常州市 中国移动 (the place or the carrier alone when only one is known). */
export function locationText(l: PhoneLocation | null): string {
  if (!l) return '';
  return [l.location, l.carrier].filter(Boolean).join(' ');
}

export function PhoneLocationTag({ resource, id }: { resource: string; id: string | number | undefined }) {
  const [text, setText] = useState('');
  // another record: no tag until its location is known
  const [textFor, setTextFor] = useState({ resource, id });
  if (textFor.resource !== resource || textFor.id !== id) {
    setTextFor({ resource, id });
    setText('');
  }
  useEffect(() => {
    let live = true;
    if (id === undefined || id === null || id === '') return;
    void phoneLocationOf(resource, id).then((l) => {
      if (live) setText(locationText(l));
    });
    return () => {
      live = false;
    };
  }, [resource, id]);
  if (!text) return null;
  return (
    <Tooltip title={`号码归属地：${text}`}>
      <Chip size="small" variant="outlined" color="info" label={text} data-testid="phone-location" sx={{ height: 20, fontSize: 12 }} />
    </Tooltip>
  );
}
