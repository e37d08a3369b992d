import { describe, expect, it } from 'vitest';
import { resources, resourceByName } from '../../src/generated/resources.ts';
import { fromCents, isMoneyAmount, MONEY_MESSAGE, toCents } from '../../src/shared/money.ts';
import { createSchemaAjv } from '../../src/shared/schema-ajv.ts';
import { checkField } from '../../src/web/common/validation.ts';
import { restrictionFor } from '../../src/shared/input-filters.ts';
import { checkRecord } from '../../src/server/crud/validation.ts';

describe('money amounts', () => {
  it('accepts at most two decimals and round-trips through cents exactly', () => {
    for (const v of [0, 0.01, 0.1, 0.29, 12.34, 999999999.99, -999999999.99, 5, 1e9]) {
      expect(isMoneyAmount(v), String(v)).toBe(true);
      expect(fromCents(toCents(v))).toBe(v);
    }
    for (const v of [12.345, 0.001, 1.005, 1e-7, Number.NaN, Infinity, 1e15 + 0.5, '12'] as unknown[])
      expect(isMoneyAmount(v), String(v)).toBe(false);
    // every cent up to a million yuan survives the round trip
    for (let c = 0; c < 100_000_000; c += 9_973) expect(toCents(fromCents(c))).toBe(c);
    expect(fromCents('1234')).toBe(12.34);
  });

  it('the x-money keyword fails three decimals in the schemas ajv, and the server says 最多只能输入两位小数', () => {
    const ajv = createSchemaAjv();
    const v = ajv.compile({ type: 'number', 'x-money': true });
    expect(v(12.34)).toBe(true);
    expect(v(12.345)).toBe(false);
    // too large for exact cents: the record check says 数值过大 (not a decimals message)
    const huge = checkRecord(resourceByName.xsSubmersibleActivity, { budget: 1e14 }, 'create');
    if (!huge.ok) expect(huge.error.message).not.toBe(MONEY_MESSAGE);
    const spec = resourceByName.expense;
    const big = checkRecord(
      {
        ...spec,
        schema: { ...spec.schema, properties: { ...(spec.schema.properties as object), money: { type: 'number', 'x-money': true } } },
      },
      { project: '差旅', money: 1e14, onTime: '2026-01-02' },
      'create',
    );
    expect(big.ok).toBe(false);
    if (!big.ok) expect(big.error.message).toBe('金额(元)数值过大');
    const res = checkRecord(resourceByName.expense, { project: '差旅', money: 12.345, onTime: '2026-01-02' }, 'create');
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error.message).toBe(MONEY_MESSAGE);
  });

  it('every money field of every schema: the web form check agrees with the server', () => {
    const fields = resources.flatMap((spec) => spec.fields.filter((f) => f.money && f.form).map((f) => [spec, f] as const));
    expect(fields.length).toBeGreaterThanOrEqual(8);
    for (const [spec, f] of fields) {
      const p = (spec.schema.properties as Record<string, Record<string, number>>)[f.name];
      const ok = Math.max(p.minimum ?? 0, p.exclusiveMinimum ?? 0) + 0.29;
      expect(checkField(spec, f, ok), `${spec.name}.${f.name}`).toBeUndefined();
      expect(checkField(spec, f, ok + 0.005), `${spec.name}.${f.name}`).toBe(MONEY_MESSAGE);
      // typing keeps at most two decimals where the field cannot be negative
      if ((p.minimum ?? p.exclusiveMinimum ?? -1) >= 0)
        expect(restrictionFor(p), `${spec.name}.${f.name}`).toMatch(/TwoDecimals|twoDecimals/);
    }
  });

  it('the web form checks exclusiveMinimum as the server does (费用支出 金额 0)', () => {
    const spec = resourceByName.expense;
    const money = spec.fields.find((f) => f.name === 'money')!;
    expect(checkField(spec, money, 0)).toBe('请输入大于0的两位小数');
  });
});
