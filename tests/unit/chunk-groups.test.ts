import { describe, expect, it } from 'vitest';
import { groupsFromChunks } from '../../scripts/vite/chunk-groups.ts';

const root = '/app';
const m = (path: string) => `${root}/${path}`;

/** A first pass's chunks: the entry, the sign-in page, the dealer portal, the console and the list screens, with shared chunks between them. */
const chunks = [
  { fileName: 'index.js', moduleIds: [m('src/web/main.tsx'), m('node_modules/react/index.js')], imports: [], isEntry: true },
  { fileName: 'LoginApp.js', moduleIds: [m('src/web/login/LoginApp.tsx')], imports: ['index.js', 'mui.js', 'http.js'], isEntry: false },
  { fileName: 'DealerApp.js', moduleIds: [m('src/web/dealer/DealerApp.tsx')], imports: ['index.js', 'mui.js', 'Table.js'], isEntry: false },
  {
    fileName: 'StaffApp.js',
    moduleIds: [m('src/web/staff/StaffApp.tsx'), m('src/web/staff/layout/StaffLayout.tsx')],
    imports: ['index.js', 'mui.js', 'http.js', 'Modal.js', 'ra-core.js', 'menus.js'],
    isEntry: false,
  },
  { fileName: 'menus.js', moduleIds: [m('src/web/staff/shell/menus.ts')], imports: ['http.js'], isEntry: false },
  { fileName: 'mui.js', moduleIds: [m('node_modules/@mui/material/Button.js')], imports: ['index.js'], isEntry: false },
  { fileName: 'http.js', moduleIds: [m('src/web/common/http.ts')], imports: [], isEntry: false },
  { fileName: 'Modal.js', moduleIds: [m('node_modules/@mui/material/Modal.js')], imports: ['mui.js'], isEntry: false },
  { fileName: 'ra-core.js', moduleIds: [m('node_modules/ra-core/a.js'), m('node_modules/ra-core/b.js')], imports: [], isEntry: false },
  {
    fileName: 'resourceScreens.js',
    moduleIds: [m('src/web/staff/resourceScreens.tsx'), m('src/web/staff/schema/SchemaList.tsx')],
    imports: ['Table.js', 'ra-core.js', 'Datagrid.js'],
    isEntry: false,
  },
  { fileName: 'Table.js', moduleIds: [m('node_modules/@mui/material/Table.js')], imports: ['mui.js'], isEntry: false },
  { fileName: 'Datagrid.js', moduleIds: [m('node_modules/ra-ui-materialui/Datagrid.js')], imports: ['Table.js'], isEntry: false },
  { fileName: 'UserAdmin.js', moduleIds: [m('src/web/staff/pages/system/UserAdmin.tsx')], imports: ['Datagrid.js'], isEntry: false },
];

describe('chunk groups of a console visit', () => {
  const groups = groupsFromChunks(chunks, root);

  it('labels each chunk the console or the list loads with every start that loads it, the list folded into the console', () => {
    expect(groups.get(m('src/web/staff/layout/StaffLayout.tsx'))).toBe('console');
    expect(groups.get(m('src/web/staff/shell/menus.ts'))).toBe('console');
    expect(groups.get(m('node_modules/ra-core/a.js'))).toBe('console');
    expect(groups.get(m('node_modules/@mui/material/Modal.js'))).toBe('console');
    expect(groups.get(m('src/web/common/http.ts'))).toBe('login-console');
    expect(groups.get(m('node_modules/@mui/material/Button.js'))).toBe('login-dealer-console');
    expect(groups.get(m('src/web/staff/schema/SchemaList.tsx'))).toBe('list');
    expect(groups.get(m('node_modules/ra-ui-materialui/Datagrid.js'))).toBe('list');
    expect(groups.get(m('node_modules/@mui/material/Table.js'))).toBe('dealer-list');
  });

  it('leaves the entry, the roots and what only other pages load as the bundler made them', () => {
    for (const id of [
      'src/web/main.tsx',
      'node_modules/react/index.js',
      'src/web/staff/StaffApp.tsx',
      'src/web/staff/resourceScreens.tsx',
    ]) {
      expect(groups.has(m(id)), id).toBe(false);
    }
    expect(groups.has(m('src/web/login/LoginApp.tsx'))).toBe(false);
    expect(groups.has(m('src/web/staff/pages/system/UserAdmin.tsx'))).toBe(false);
  });

  it('merged files never import each other both ways: a label only grows along imports', () => {
    const groupOfFile = new Map(chunks.map((c) => [c.fileName, groups.get(c.moduleIds[0]) ?? c.fileName]));
    const edges = new Set<string>();
    for (const c of chunks) {
      for (const imp of c.imports) {
        const [from, to] = [groupOfFile.get(c.fileName)!, groupOfFile.get(imp)!];
        if (from !== to) edges.add(`${from}>${to}`);
      }
    }
    for (const edge of edges) {
      const [from, to] = edge.split('>');
      expect(edges.has(`${to}>${from}`), edge).toBe(false);
    }
  });
});
