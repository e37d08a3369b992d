/**
 * Personal data the server sent masked: a user without `<permission>:sensitive` receives the
 * `x-mask` properties of a record masked (the server never sends them in full to such a user).
 * In the edit dialog those fields show the mask read-only and are left out of what is sent, so
 * the stored value stays as it is (the server drops them too).
 */
import { createContext, useContext, useMemo } from 'react';
import { usePermissions } from 'react-admin';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { hasPermission } from '../../common/session.ts';

export const MASKED_HELP = '已脱敏显示，无权查看或修改完整信息';

const MaskedFields = createContext<ReadonlySet<string>>(new Set());
export const MaskedFieldsProvider = MaskedFields.Provider;

/** The properties that came masked in `record` for the signed-in user (none for a new record). */
export function useMaskedFields(spec: ResourceSpec, record: unknown): ReadonlySet<string> {
  const { permissions } = usePermissions<string[]>();
  return useMemo(() => {
    if (!record || hasPermission(permissions, `${spec.permission}:sensitive`)) return new Set<string>();
    return new Set(spec.fields.filter((f) => f.mask).map((f) => f.name));
  }, [spec, record, permissions]);
}

/** Whether the field shows a masked value in the open dialog. */
export function useIsMasked(name: string): boolean {
  return useContext(MaskedFields).has(name);
}
