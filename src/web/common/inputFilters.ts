/** Input filters of the sign-in form (spec: the account strips non-word characters; the captcha keeps digits and minus). */
export { keepWordCharacters as stripNonWord, keepDigitsAndMinus as captchaChars } from '../../shared/input-filters.ts';

/**
 * Space and Enter on the buttons of the sign-in side: the spec suppresses them so that a held or
 * repeated key does not submit again and again. That purpose is kept by ignoring a key that
 * repeats (held down) and any key while a sign-in is already under way (`busy`); a single press
 * on a focused button still works, as it must for people who use the keyboard.
 */
export function suppressButtonKeys(event: { key: string; repeat: boolean; preventDefault(): void }, busy = false): void {
  if ((event.key === ' ' || event.key === 'Enter') && (event.repeat || busy)) event.preventDefault();
}
