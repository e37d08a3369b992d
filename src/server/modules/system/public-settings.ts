/**
 * Public settings: what the sign-in page, the shell and the dashboard show before or around
 * sign-in (favicon, logo, company name, filing number, home image, title). Stored as key/value
 * rows in sys_config; a missing row falls back to the default below (the filing number to the
 * RECORD_NUMBER setting).
 */
import type { Db } from '../../types.ts';
import type { Config } from '../../config.ts';
import { nowText } from '../../db/index.ts';
import { DEFAULT_PRODUCT_NAME } from '../../../shared/product.ts';

export interface PublicSettings {
  favicon: string;
  logo: string;
  compName: string;
  recordNumber: string;
  sysHomeImg: string;
  title: string;
}

export const PUBLIC_SETTING_KEYS: Array<keyof PublicSettings> = ['favicon', 'logo', 'compName', 'recordNumber', 'sysHomeImg', 'title'];

export function defaultPublicSettings(config: Pick<Config, 'recordNumber'>): PublicSettings {
  return {
    favicon: '',
    logo: '',
    compName: '车商集团',
    recordNumber: config.recordNumber,
    sysHomeImg: '',
    title: DEFAULT_PRODUCT_NAME,
  };
}

export async function getPublicSettings(db: Db, config: Pick<Config, 'recordNumber'>): Promise<PublicSettings> {
  const settings = defaultPublicSettings(config);
  const rows = await db.selectFrom('sys_config').select(['key', 'value']).where('key', 'in', PUBLIC_SETTING_KEYS).execute();
  for (const row of rows) {
    if (row.value !== null && row.value !== undefined) settings[row.key as keyof PublicSettings] = String(row.value);
  }
  return settings;
}

export async function setPublicSetting(db: Db, key: keyof PublicSettings, value: string): Promise<void> {
  if (!PUBLIC_SETTING_KEYS.includes(key)) throw new Error(`not a public setting: ${key}`);
  await db
    .insertInto('sys_config')
    .values({ key, value, update_time: nowText() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, update_time: nowText() }))
    .execute();
}
