/** The `x-money` ajv keyword: `true` on a number property allows at most two decimals. */
import { isMoneyAmount, MONEY_LIMIT, MONEY_MESSAGE } from './money.ts';

import type { KeywordDefinition } from 'ajv';

export function addMoneyKeyword(ajv: { addKeyword(definition: KeywordDefinition): unknown }): void {
  const validate = Object.assign(
    function moneyCheck(schemaValue: unknown, data: unknown): boolean {
      // beyond MONEY_LIMIT the amount is too large (数值过大, said by the record check), not a decimals problem
      const ok =
        schemaValue !== true || typeof data !== 'number' || !Number.isFinite(data) || Math.abs(data) > MONEY_LIMIT || isMoneyAmount(data);
      (moneyCheck as unknown as { errors: unknown[] }).errors = ok ? [] : [{ keyword: 'x-money', message: MONEY_MESSAGE, params: {} }];
      return ok;
    },
    { errors: [] as unknown[] },
  );
  ajv.addKeyword({ keyword: 'x-money', type: 'number', schemaType: 'boolean', errors: true, validate } as KeywordDefinition);
}
