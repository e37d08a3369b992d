import { usePermissions } from 'react-admin';
import { permissionKey, type ResourceSpec } from '../../../shared/resource-spec.ts';
import { hasPermission } from '../../common/session.ts';

export type ResourceAction = ResourceSpec['actions'][number];

/** Whether the user may use an action of a resource: offered by the spec and granted by the permission key ('admin' passes). */
export function canUse(spec: ResourceSpec, permissions: readonly string[] | undefined, action: ResourceAction): boolean {
  return spec.actions.includes(action) && hasPermission(permissions, permissionKey(spec, action));
}

export function useResourceAccess(spec: ResourceSpec) {
  const { permissions, isPending } = usePermissions<string[]>();
  return {
    isPending,
    permissions: permissions,
    can: (action: ResourceAction) => canUse(spec, permissions, action),
  };
}

/** 历史记录 is offered to the resource's own readers (the server answers the same). */
export function useCanReadHistory(spec: ResourceSpec): boolean {
  const { permissions } = usePermissions<string[]>();
  return hasPermission(permissions, permissionKey(spec, 'list'), ...(spec.read ?? []).filter((r) => r !== 'signedIn'));
}
