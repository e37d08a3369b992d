/** Renders a generated screen inside react-admin's AdminContext with a memory store. */
import { render } from '@testing-library/react';
import { AdminContext, memoryStore, type AuthProvider, type DataProvider } from 'react-admin';
import { resourceByName } from '../../src/generated/resources.ts';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { AppNotification } from '../../src/web/staff/layout/AppNotification.tsx';
import { createDataProvider } from '../../src/web/staff/providers/dataProvider.ts';
import { resourceOverrides } from '../../src/web/staff/resources/index.ts';
import { SchemaList } from '../../src/web/staff/schema/SchemaList.tsx';

export function testAuthProvider(permissions: string[], identity: Record<string, unknown> = {}): AuthProvider {
  return {
    login: async () => {},
    logout: async () => {},
    checkAuth: async () => {},
    checkError: async () => {},
    getPermissions: () => Promise.resolve(permissions),
    getIdentity: () => Promise.resolve({ id: 1, fullName: '张三', nickName: '张三', phone: '13800138000', ...identity }),
  };
}

export function renderScreen(name: string, permissions: string[], options: { dataProvider?: DataProvider; routeParam?: string } = {}) {
  const spec = resourceByName[name];
  return render(
    <AdminContext
      dataProvider={options.dataProvider ?? createDataProvider()}
      authProvider={testAuthProvider(permissions)}
      i18nProvider={i18nProvider}
      store={memoryStore()}
    >
      <SchemaList spec={spec} overrides={resourceOverrides[name]} routeParam={options.routeParam} />
      <AppNotification />
    </AdminContext>,
  );
}
