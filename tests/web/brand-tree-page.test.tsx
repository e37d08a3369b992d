import { describe, expect, it } from 'vitest';
import { nodeBody, validateNode } from '../../src/web/staff/pages/brand-tree/BrandNodeDialog.tsx';
import { childKinds, summary } from '../../src/web/staff/pages/brand-tree/BrandTreePage.tsx';
import { createPath, updatePath } from '../../src/web/staff/pages/brand-tree/api.ts';
import type { BrandNode, NodeKind } from '../../src/shared/brand-tree.ts';

function node(kind: NodeKind, over: Partial<BrandNode> = {}): BrandNode {
  const level = { brand: 1, series: 2, model: 3, config: 4, colour: 5, pack: 5 }[kind];
  return {
    id: 1,
    pid: 0,
    name: 'n',
    level,
    kind,
    sort: 1,
    enabled: true,
    enabledXs: true,
    orgId: null,
    brandNature: null,
    brandTier: null,
    origin: null,
    bodyType: null,
    carClass: null,
    fuelType: null,
    emission: null,
    modelYear: null,
    engine: null,
    gearbox: null,
    colorCode: null,
    price: null,
    remark: null,
    createTime: null,
    updateTime: null,
    ...over,
  };
}

describe('brand tree screen pieces', () => {
  it('offers the next level per node, colour and option pack under a configuration', () => {
    expect(childKinds(null)).toEqual(['brand']);
    expect(childKinds(node('brand'))).toEqual(['series']);
    expect(childKinds(node('series'))).toEqual(['model']);
    expect(childKinds(node('model'))).toEqual(['config']);
    expect(childKinds(node('config'))).toEqual(['colour', 'pack']);
    expect(childKinds(node('colour'))).toEqual([]);
    expect(childKinds(node('pack'))).toEqual([]);
  });

  it('uses the per-level calls', () => {
    expect(createPath(null)).toBe('/api/brandTree/createBrand');
    expect(createPath(node('brand'))).toBe('/api/brandTree/createTrain');
    expect(createPath(node('series'))).toBe('/api/brandTree/createType');
    expect(createPath(node('model'))).toBe('/api/brandTree/createProp');
    expect(createPath(node('config'))).toBe('/api/brandTree/createProp');
    expect(updatePath('brand')).toBe('/api/brandTree/updateBrand');
    expect(updatePath('series')).toBe('/api/brandTree/updateTrain');
    expect(updatePath('model')).toBe('/api/brandTree/updateType');
    expect(updatePath('pack')).toBe('/api/brandTree/updateProp');
  });

  it('summarises a node by its own enumerations', () => {
    expect(summary(node('brand', { brandNature: '合资', brandTier: '中端合资', origin: '德国' }))).toBe('合资 · 中端合资 · 德国');
    expect(summary(node('config', { engine: '涡轮增压', gearbox: '自动', price: 15.29 }))).toBe('涡轮增压 · 自动 · 指导价 15.29万');
    expect(summary(node('colour', { colorCode: '#FFFFFF', price: 500 }))).toBe('#FFFFFF · 加价 500元');
  });

  it('builds the body of its level only: empty enumerations clear, a pack says its kind, a brand its company', () => {
    const values = { name: ' 舒适包 ', sort: '3', enabled: true, enabledXs: false, remark: '', price: '3000' };
    expect(nodeBody({ parent: node('config'), kind: 'pack' }, values)).toEqual({
      name: '舒适包',
      sort: 3,
      enabled: true,
      enabledXs: false,
      remark: null,
      kind: 'pack',
      price: 3000,
    });
    const brand = nodeBody(
      { parent: null, kind: 'brand' },
      {
        name: '大众',
        sort: '1',
        enabled: true,
        enabledXs: true,
        remark: '',
        orgId: '',
        brandNature: '合资',
        brandTier: '',
        origin: '德国',
      },
    );
    expect(brand).toEqual({
      name: '大众',
      sort: 1,
      enabled: true,
      enabledXs: true,
      remark: null,
      orgId: null,
      brandNature: '合资',
      brandTier: null,
      origin: '德国',
    });
  });

  it('checks name, sort, price and colour code before sending', () => {
    const ok = { name: '星空灰', sort: '1', enabled: true, enabledXs: true, remark: '', colorCode: '#5B5F63', price: '500' };
    expect(validateNode(ok)).toBeNull();
    expect(validateNode({ ...ok, name: '  ' })).toBe('名称不能为空');
    expect(validateNode({ ...ok, sort: '' })).toBe('排序必须是0到999999的整数');
    expect(validateNode({ ...ok, price: '-1' })).toBe('价格必须是非负数，最多保留两位小数');
    expect(validateNode({ ...ok, price: '1.234' })).toBe('价格必须是非负数，最多保留两位小数');
    expect(validateNode({ ...ok, colorCode: 'grey' })).toBe('色值格式应为 #RRGGBB');
  });
});
