/**
 * Password-age reminders written by the passwordAgeReminders job: one row per user and
 * password (the reset time), read by the console after sign-in and marked read when shown.
 */
import type { TableDef } from '../../auth/tables.ts';

export const PASSWORD_REMINDER_TABLE = 'sys_password_reminder';

export const REMINDER_TABLES: TableDef[] = [
  {
    name: PASSWORD_REMINDER_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'user_id', type: 'bigint', notNull: true },
      /** the password this reminder is about: a later change makes it stale */
      { name: 'pwd_reset_time', type: 'varchar(19)', notNull: true },
      { name: 'days', type: 'int', notNull: true },
      { name: 'is_read', type: 'bool', notNull: true, default: false },
      { name: 'create_time', type: 'time' },
    ],
  },
];
