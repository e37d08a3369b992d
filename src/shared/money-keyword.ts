/** The `x-money` ajv keyword: `true` on a number property allows at most two decimals. */
import { isMoneyAmount, MONEY_MESSAGE } from './money.ts';

import type { KeywordDefinition } from 'ajv';

export function addMoneyKeyword(ajv: { addKeyword(definition: KeywordDefinition): unknown }): void {
  const validate = Object.assign(
    function moneyCheck(schemaValue: unknown, data: unknown): boolean {
      const ok = schemaValue !== true || typeof data !== 'number' || isMoneyAmount(data);
      (moneyCheck as unknown as { errors: unknown[] }).errors = ok ? [] : [{ keyword: 'x-money', message: MONEY_MESSAGE, params: {} }];
      return ok;
    },
    { errors: [] as unknown[] },
  );
  ajv.addKeyword({ keyword: 'x-money', type: 'number', schemaType: 'boolean', errors: true, validate } as KeywordDefinition);
}
