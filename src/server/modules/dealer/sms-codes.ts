/**
 * The dealer's SMS codes on the account area's verification-code service (app.verificationCodes):
 * the same rules (6 digits, 5 minutes, single use, 60 s between sends, limited wrong tries) and the
 * same providers (the SMS API, or the development outbox when none is configured). Each of the
 * spec's sendMessage types has its own purpose, so a code for one use never passes for another
 * (nor for a staff code sent to the same number). Type 5 (客户授权) goes to a customer's mobile:
 * the customer reads it to the dealer as consent to look up their membership.
 */
import type { CodeService } from '../account/codes.ts';
import type { SmsCodeService, SmsType } from './account.ts';

export const DEALER_CODE_PURPOSES: Record<SmsType, string> = {
  2: 'dealer-password',
  3: 'dealer-bind-phone',
  4: 'dealer-change-phone',
  5: 'dealer-customer-consent',
};

export function dealerSmsOn(codes: CodeService): SmsCodeService {
  return {
    send: (mobile, type) => codes.sendCode(mobile, DEALER_CODE_PURPOSES[type]),
    verify: (mobile, type, code) => codes.verifyCode(mobile, DEALER_CODE_PURPOSES[type], code),
  };
}
