import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { readBrandTree } from '../../src/server/modules/trees/index.ts';
import { createStaff, loginAs } from './auth-helpers.ts';
import { ADMIN_PASSWORD, bearer, errorOf, testApps, type TestApp } from './helpers.ts';
import type { Created, Row } from '../support/answers.ts';

/** a node of the brand tree as the routes answer it */
interface BrandNode extends Row {
  id: number;
  name: string;
  kind: string;
  hasChildren: boolean;
  children?: BrandNode[];
  path: string[];
  ids: number[];
}

describe.each(testApps())('brand tree on %s', (_name, start) => {
  let t: TestApp;
  let app: FastifyInstance;
  let admin: Record<string, string>;
  const ids: Record<string, number> = {};

  const post = (url: string, payload: object, headers = admin) =>
    app.inject({ method: 'POST', url: `/api/brandTree${url}`, headers, payload });
  const put = (url: string, payload: object, headers = admin) =>
    app.inject({ method: 'PUT', url: `/api/brandTree${url}`, headers, payload });
  const get = (url: string, headers = admin) => app.inject({ method: 'GET', url: `/api/brandTree${url}`, headers });
  const fail = (res: Awaited<ReturnType<typeof post>>, message: string | RegExp, status = 400) => {
    expect(res.statusCode).toBe(status);
    const body = errorOf(res);
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  };

  beforeAll(async () => {
    t = await start();
    app = t.app;
    admin = bearer(await loginAs(app, 'admin', ADMIN_PASSWORD));
  });
  afterAll(async () => t?.close());

  it('creates each level under a parent of the right level, with its enumerations', async () => {
    let res = await post('/createBrand', { pid: null, name: '测试品牌', brandNature: '合资', brandTier: '中端合资', origin: '德国' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ pid: 0, level: 1, kind: 'brand', name: '测试品牌', brandNature: '合资', enabled: true });
    ids.brand = res.json<Created>().id;
    res = await post('/createTrain', { pid: ids.brand, name: '测试车系', bodyType: 'SUV', carClass: 'A+' });
    expect(res.json()).toMatchObject({ level: 2, kind: 'series', bodyType: 'SUV', carClass: 'A+' });
    ids.series = res.json<Created>().id;
    res = await post('/createType', { pid: ids.series, name: '2024款 1.5T', fuelType: '插电混动', emission: '国六', modelYear: '2024' });
    expect(res.json()).toMatchObject({ level: 3, kind: 'model', fuelType: '插电混动', emission: '国六' });
    ids.model = res.json<Created>().id;
    res = await post('/createProp', { pid: ids.model, name: '1.5T 自动豪华版', engine: '涡轮增压', gearbox: '自动', price: 18.98 });
    expect(res.json()).toMatchObject({ level: 4, kind: 'config', engine: '涡轮增压', gearbox: '自动', price: 18.98 });
    ids.config = res.json<Created>().id;
    res = await post('/createProp', { pid: ids.config, name: '珍珠白', colorCode: '#F2F2EE', price: '500' });
    expect(res.json()).toMatchObject({ level: 5, kind: 'colour', price: 500 });
    ids.colour = res.json<Created>().id;
    res = await post('/createProp', { pid: ids.config, kind: 'pack', name: '舒适包', price: 3000 });
    expect(res.json()).toMatchObject({ level: 5, kind: 'pack' });
    ids.pack = res.json<Created>().id;
    // the generic create derives the level from the parent
    res = await post('', { pid: ids.brand, name: '第二车系', bodyType: '轿车' });
    expect(res.json()).toMatchObject({ level: 2, kind: 'series' });
    ids.series2 = res.json<Created>().id;
  });

  it('refuses a parent of the wrong level, enumerations off their level or list, and bad bodies', async () => {
    fail(await post('/createBrand', { pid: ids.brand, name: 'x' }), '品牌只能添加在根节点下');
    fail(await post('/createTrain', { pid: 0, name: 'x' }), '车系的上级必须是品牌');
    fail(await post('/createType', { pid: ids.brand, name: 'x' }), '车型的上级必须是车系');
    fail(await post('/createProp', { pid: ids.series, name: 'x' }), '配置的上级必须是车型，颜色和选装包的上级必须是配置');
    fail(await post('', { pid: ids.colour, name: 'x' }), '颜色下不能再添加子节点');
    fail(await post('', { pid: 999999, name: 'x' }), '上级节点不存在');
    fail(await post('/createTrain', { pid: ids.brand, name: 'x', fuelType: '汽油' }), '车系不能设置燃油类型');
    fail(await post('/createBrand', { name: 'x', brandNature: '国营' }), '品牌性质只能是：自主、合资、进口、独资');
    fail(await post('/createType', { pid: ids.series, name: 'x', emission: '国四' }), '排放标准只能是：国五、国六');
    fail(await post('/createProp', { pid: ids.model, name: 'x', gearbox: 'CVT' }), '变速箱只能是：手动、自动');
    fail(await post('/createProp', { pid: ids.model, name: 'x', price: -1 }), '价格必须是非负数，最多保留两位小数');
    fail(await post('/createProp', { pid: ids.config, kind: 'tyre', name: 'x' }), '配置下只能添加颜色（colour）或选装包（pack）');
    fail(await post('/createBrand', { name: '  ' }), '名称不能为空');
    fail(await post('/createBrand', { brandNature: '合资' }), '名称不能为空');
    fail(await post('/createBrand', { name: 'x', hack: 1 }), '不支持的字段：hack');
    fail(await post('/createBrand', { name: '测试品牌' }), '同一上级下已存在名称：测试品牌');
    fail(await post('/createBrand', [1, 2]), '请求内容必须是JSON对象');
    fail(await post('/createBrand', { name: 'x', pid: 'abc' }), '上级节点ID必须是非负整数');
    const brands = await app.database.db.selectFrom('brand_tree').select('id').where('name', '=', 'x').execute();
    expect(brands).toEqual([]);
  });

  it('updates per level, keeping the parent and checking the node kind', async () => {
    let res = await put('/updateBrand', { id: ids.brand, name: '测试品牌改', brandTier: '豪华', pid: 0, level: 1, kind: 'brand' });
    expect(res.statusCode).toBe(204);
    res = await get(`/getItem?id=${ids.brand}`);
    expect(res.json()).toMatchObject({ name: '测试品牌改', brandTier: '豪华', brandNature: '合资', path: ['测试品牌改'] });
    fail(await put('/updateBrand', { id: ids.series, name: 'y' }), '该节点不是品牌');
    fail(await put('/updateTrain', { id: ids.model, name: 'y' }), '该节点不是车系');
    fail(await put('/updateType', { id: ids.config, name: 'y' }), '该节点不是车型');
    fail(await put('/updateProp', { id: ids.model, name: 'y' }), '该节点不是配置、颜色或选装包');
    fail(await put('', { id: ids.series, pid: ids.series2 }), '不支持修改上级节点，请删除后在新的上级下添加');
    fail(await put('', { id: ids.series, emission: '国五' }), '车系不能设置排放标准');
    fail(await put('', { id: ids.series, name: '第二车系' }), '同一上级下已存在名称：第二车系');
    fail(await put('', { name: 'y' }), 'ID不能为空');
    fail(await put('', { id: 987654, name: 'y' }), '节点不存在', 404);
    res = await put('/updateProp', { id: ids.colour, name: '珍珠白', price: 800, colorCode: null });
    expect(res.statusCode).toBe(204);
    expect((await get(`/getItem?id=${ids.colour}`)).json()).toMatchObject({
      price: 800,
      colorCode: null,
      path: ['测试品牌改', '测试车系', '2024款 1.5T', '1.5T 自动豪华版', '珍珠白'],
    });
  });

  it('loads lazily by pid (null and 0 are the root) with hasChildren', async () => {
    for (const pid of ['', '0', 'null']) {
      const res = await get(`/getTreeByPid?pid=${pid}`);
      expect(res.statusCode).toBe(200);
      const brand = res.json<BrandNode[]>().find((n) => n.id === ids.brand)!;
      expect(brand).toMatchObject({ level: 1, hasChildren: true });
      expect(brand.children).toBeUndefined();
    }
    let res = await get(`/getTreeByPid?pid=${ids.config}`);
    expect(res.json<BrandNode[]>().map((n) => [n.name, n.kind, n.hasChildren])).toEqual([
      ['珍珠白', 'colour', false],
      ['舒适包', 'pack', false],
    ]);
    res = await get(`?pid=${ids.brand}`);
    expect(res.json()).toMatchObject({ totalElements: 2 });
    fail(await get('/getTreeByPid?pid=-1'), '参数pid必须是非负整数');
    fail(await get('/getTreeByPid?pid=1&pid=2'), '参数pid只能传一个值');
  });

  it('reads the tree by levels, for the cascader and other modules', async () => {
    let res = await get('/getTree?levels=3');
    const brand = res.json<BrandNode[]>().find((n) => n.id === ids.brand)!;
    expect(brand.children!.map((s) => s.name)).toEqual(['测试车系', '第二车系']);
    expect(brand.children![0].children![0]).toMatchObject({ name: '2024款 1.5T', level: 3 });
    expect(brand.children![0].children![0].children).toBeUndefined();
    res = await get('/getTree?levels=5');
    const config = res.json<BrandNode[]>().find((n) => n.id === ids.brand)!.children![0].children![0].children![0];
    expect(config.children!.map((c) => c.kind)).toEqual(['colour', 'pack']);
    fail(await get('/getTree?levels=6'), '参数levels必须是1到5的整数');
    fail(await get('/getTree?levels=x'), '参数levels必须是1到5的整数');
    // a disabled node hides its branch from enabled-only reads
    await put('', { id: ids.series2, enabled: false });
    const tree = await readBrandTree(app.database, 2, { enabledOnly: true });
    expect(tree.find((n) => n.id === ids.brand)!.children!.map((s) => s.name)).toEqual(['测试车系']);
  });

  it('getBrandTree answers the brands of a company (and group-wide ones) offered in sales', async () => {
    const { db } = app.database;
    const [org77, org88] = await Promise.all(
      ['郑州公司', '洛阳公司'].map(async (name) =>
        Number(
          (await db.insertInto('sys_dept').values({ name, pid: null, sort: 9, enabled: 1 }).returning('id').executeTakeFirstOrThrow()).id,
        ),
      ),
    );
    const own = (await post('/createBrand', { name: '公司专营品牌', orgId: org77 })).json<Created>().id;
    const other = (await post('/createBrand', { name: '他司品牌', orgId: org88 })).json<Created>().id;
    fail(await post('/createBrand', { name: '无主品牌', orgId: 999999 }), '所属公司不存在：999999');
    await post('/createTrain', { pid: own, name: '停售车系', enabledXs: false });
    let res = await get(`/getBrandTree?orgId=${org77}&enabledXs=true&levels=2`);
    const names = res.json<BrandNode[]>().map((n) => n.name);
    expect(names).toContain('公司专营品牌');
    expect(names).toContain('测试品牌改');
    expect(names).not.toContain('他司品牌');
    expect(res.json<BrandNode[]>().find((n) => n.id === own)!.children).toBeUndefined();
    res = await app.inject({ method: 'GET', url: `/api/system/deptRemark/getBrandTree?orgId=${org88}`, headers: admin });
    expect(res.json<BrandNode[]>().map((n) => n.id)).toContain(other);
    fail(await get('/getBrandTree?orgId=abc'), '参数orgId必须是正整数');
    fail(await get('/getBrandTree?enabledXs=maybe'), '参数enabledXs只能是true或false');
    fail(await post('/createTrain', { pid: own, name: 'z', orgId: 5 }), '车系不能设置所属公司');
  });

  it('finds nodes by name with their path', async () => {
    const res = await get(`/findTree?name=${encodeURIComponent('舒适')}`);
    const hit = res.json<BrandNode[]>().find((n) => n.id === ids.pack)!;
    expect(hit.path).toEqual(['测试品牌改', '测试车系', '2024款 1.5T', '1.5T 自动豪华版', '舒适包']);
    expect(hit.ids).toEqual([ids.brand, ids.series, ids.model, ids.config, ids.pack]);
    expect((await get(`/findTree?name=${encodeURIComponent('%')}`)).json()).toEqual([]);
    fail(await get('/findTree'), '请输入要查找的名称');
  });

  it('refuses to delete a node with children; deletes a branch given whole, in one transaction', async () => {
    let res = await app.inject({ method: 'DELETE', url: '/api/brandTree', headers: admin, payload: [ids.model] });
    fail(res, '「2024款 1.5T」下存在子节点，不能删除，请先删除其子节点');
    res = await app.inject({ method: 'DELETE', url: '/api/brandTree', headers: admin, payload: [ids.config, ids.colour] });
    fail(res, '「1.5T 自动豪华版」下存在子节点，不能删除，请先删除其子节点');
    expect((await get(`/getItem?id=${ids.colour}`)).statusCode).toBe(200);
    res = await app.inject({ method: 'DELETE', url: '/api/brandTree', headers: admin, payload: [ids.colour, ids.pack] });
    expect(res.json()).toEqual({ count: 2 });
    res = await app.inject({ method: 'DELETE', url: '/api/brandTree', headers: admin, payload: [ids.config, ids.model] });
    expect(res.json()).toEqual({ count: 2 });
    fail(await app.inject({ method: 'DELETE', url: '/api/brandTree', headers: admin, payload: [] }), '请至少选择一条数据');
    fail(await app.inject({ method: 'DELETE', url: '/api/brandTree', headers: admin, payload: ['a'] }), 'ID必须是正整数');
    fail(await get(`/getItem?id=${ids.model}`), '节点不存在', 404);
  });

  it('brandTreePush writes a whole branch or nothing', async () => {
    let res = await post('/brandTreePush', {
      pid: 0,
      nodes: [
        {
          name: '推送品牌',
          brandNature: '进口',
          children: [{ name: '推送车系', bodyType: 'MPV', children: [{ name: '推送车型', fuelType: '纯电' }] }],
        },
      ],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ count: 3 });
    res = await post('/brandTreePush', { pid: 0, nodes: [{ name: '坏品牌', children: [{ name: '坏车系', fuelType: '汽油' }] }] });
    fail(res, '车系不能设置燃油类型');
    expect((await get(`/findTree?name=${encodeURIComponent('坏品牌')}`)).json()).toEqual([]);
  });

  it('writes need brandTree:add/edit/del; reads need a signed-in user', async () => {
    await createStaff(app, { username: 'treeviewer', password: 'Tree@2024', permissions: ['brandTree:list'] });
    await createStaff(app, { username: 'treeeditor', password: 'Tree@2024', permissions: ['brandTree:add', 'brandTree:edit'] });
    const viewer = bearer(await loginAs(app, 'treeviewer', 'Tree@2024'));
    const editor = bearer(await loginAs(app, 'treeeditor', 'Tree@2024'));
    expect((await get('/getTreeByPid?pid=0', viewer)).statusCode).toBe(200);
    expect((await post('/createBrand', { name: 'v' }, viewer)).statusCode).toBe(403);
    expect((await put('', { id: ids.brand, name: 'v' }, viewer)).statusCode).toBe(403);
    expect((await post('/createBrand', { name: '编辑者品牌' }, editor)).statusCode).toBe(201);
    expect((await app.inject({ method: 'DELETE', url: '/api/brandTree', headers: editor, payload: [ids.series2] })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/brandTree/getTree' })).statusCode).toBe(401);
    const menu = await app.database.db
      .selectFrom('sys_menu')
      .select('permission')
      .where('permission', 'like', 'brandTree:%')
      .orderBy('permission')
      .execute();
    expect(menu.map((m) => m.permission as string)).toEqual(['brandTree:add', 'brandTree:del', 'brandTree:edit', 'brandTree:list']);
  });
});

describe.each(testApps())('demo brand set on %s', (_name, start) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await start({ seedDemo: true });
  });
  afterAll(async () => t?.close());

  it('seeds real brands down to colours and option packs, once', async () => {
    const tree = await readBrandTree(t.app.database);
    expect(tree.map((b) => b.name)).toEqual(['大众', '丰田', '比亚迪', '宝马']);
    const han = tree[2].children!.find((s) => s.name === '汉')!;
    expect(han).toMatchObject({ bodyType: '轿车', carClass: 'C' });
    const ev = han.children!.find((m) => m.fuelType === '纯电')!;
    const config = ev.children![0];
    expect(config.level).toBe(4);
    expect(config.children!.map((c) => c.kind).sort()).toEqual(['colour', 'colour', 'pack']);
    const again = await t.reopen();
    expect((await readBrandTree(again.database, 1)).length).toBe(4);
    await again.close();
  });
});
