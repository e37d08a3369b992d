/**
 * Space and Enter on the sign-in buttons: a single press on a focused button goes through (so the
 * keyboard can sign in); a held key's repeats and any press while a sign-in is in flight are
 * stopped (the specification's purpose: no repeated submissions). Other keys are left alone.
 */
import { describe, expect, it } from 'vitest';
import { suppressButtonKeys } from '../../src/web/common/inputFilters.ts';

function press(key: string, repeat = false, busy = false): boolean {
  let prevented = false;
  suppressButtonKeys({ key, repeat, preventDefault: () => (prevented = true) }, busy);
  return prevented;
}

describe('sign-in button keys', () => {
  it('lets a single Enter or Space through', () => {
    expect(press('Enter')).toBe(false);
    expect(press(' ')).toBe(false);
  });

  it('stops a held key repeating', () => {
    expect(press('Enter', true)).toBe(true);
    expect(press(' ', true)).toBe(true);
  });

  it('stops Enter and Space while a sign-in is in flight', () => {
    expect(press('Enter', false, true)).toBe(true);
    expect(press(' ', false, true)).toBe(true);
  });

  it('leaves other keys alone', () => {
    expect(press('Tab', true, true)).toBe(false);
    expect(press('a', true, true)).toBe(false);
  });
});
