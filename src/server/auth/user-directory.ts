/**
 * What the sign-in answer tells about a user beyond the sign-in tables: the names of the
 * user's company and department and the public settings. Access rules know no feature: the
 * system area fills this in when it registers (registerSystem), auth only asks.
 */
import type { Db } from '../types.ts';
import type { Config } from '../config.ts';

/** Plain functions (no `this`), so callers may take them out of the directory. */
export interface UserDirectory {
  deptName: (db: Db, id: number | null | undefined) => Promise<string | null>;
  deptNamePath: (db: Db, id: number | null | undefined) => Promise<string>;
  /** the settings every screen may read before sign-in (logo, title, record number...) */
  publicSettings: (db: Db, config: Pick<Config, 'recordNumber'>) => Promise<object>;
}

let directory: UserDirectory | null = null;

export function provideUserDirectory(d: UserDirectory): void {
  directory = d;
}

export function userDirectory(): UserDirectory {
  if (!directory) throw new Error('no user directory: register the system area (registerSystem) after registerAuth');
  return directory;
}
