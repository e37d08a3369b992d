/**
 * maskStoredParams: the operation log's recorded parameters masked again as they are read, by
 * the personal keys in force now (a property that gained x-mask after the line was written).
 */
import { describe, expect, it } from 'vitest';
import { maskedParams, maskStoredParams, PARAMS_MAX } from '../../src/server/modules/logs/request-info.ts';
import type { MaskKind } from '../../src/shared/resource-spec.ts';

const keys = new Map<string, MaskKind>([['homeAddress', 'address']]);
const ADDRESS = '北京市朝阳区建国路88号';

describe('maskStoredParams', () => {
  it('masks a value of a key that is personal now, in a line written before', () => {
    const written = maskedParams({ body: { title: '建议', homeAddress: ADDRESS } });
    expect(written).toContain(ADDRESS);
    const read = maskStoredParams(written, keys);
    expect(read).not.toContain('建国路');
    expect(JSON.parse(read)).toEqual({ title: '建议', homeAddress: '北京市朝********' });
  });

  it('leaves a line masked when it was written as it is (masks are idempotent)', () => {
    const written = maskedParams({ body: { homeAddress: ADDRESS, mobile: '13812345678' } }, keys);
    expect(maskStoredParams(written, keys)).toBe(written);
  });

  it('masks the values of a line cut at its length limit, the cut value too', () => {
    const notes = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`note${i}`, 'x'.repeat(490)]));
    const whole = maskedParams({ body: { homeAddress: ADDRESS, ...notes } });
    expect(whole.length).toBe(PARAMS_MAX);
    expect(() => JSON.parse(whole) as unknown).toThrow();
    expect(maskStoredParams(whole, keys)).not.toContain('建国路');
    // the address is the value the cut falls in
    const cutInside = `{"note":"${'y'.repeat(40)}","homeAddress":"${ADDRESS}…`;
    const read = maskStoredParams(cutInside, keys);
    expect(read).not.toContain('建国路');
    expect(read.endsWith('…')).toBe(true);
  });
});
