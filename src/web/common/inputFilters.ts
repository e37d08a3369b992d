/** Input filters of the sign-in form (spec: the account strips non-word characters; the captcha keeps digits and minus). */
export { keepWordCharacters as stripNonWord, keepDigitsAndMinus as captchaChars } from '../../shared/input-filters.ts';

/** Buttons on the sign-in side ignore Space and Enter (the form submits on Enter in a field). */
export function suppressButtonKeys(event: { key: string; preventDefault(): void }): void {
  if (event.key === ' ' || event.key === 'Enter') event.preventDefault();
}
