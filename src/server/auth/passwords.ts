/**
 * Password hashes: bcrypt (compatible with hashes from an eladmin sys_user table).
 */
import bcrypt from 'bcryptjs';

const COST = 10;

export function hashPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, COST);
}

/** A hash of nothing anyone types, compared against when the user is unknown so that the
 * answer takes as long as for a known user. */
const DUMMY_HASH = bcrypt.hashSync('no such user: timing equaliser', COST);

export async function checkPassword(plain: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash || !/^\$2[aby]?\$\d\d\$/.test(hash)) {
    await bcrypt.compare(plain, DUMMY_HASH);
    return false;
  }
  try {
    return await bcrypt.compare(plain, hash);
  } catch {
    return false;
  }
}
