/**
 * The brand tree (品牌车型): levels, node kinds and the vehicle enumerations each level
 * carries. Shared by the server (validation, storage) and the web (dialogs, cascader).
 *
 *   level 1 品牌 brand          brandNature, brandTier, origin
 *   level 2 车系 series         bodyType, carClass
 *   level 3 车型 model          fuelType, emission, modelYear
 *   level 4 配置 configuration  engine, gearbox, price (指导价, 万元)
 *   level 5 颜色 colour         colorCode, price (加价, 元)
 *   level 5 选装包 option pack  price (元)          (colour and option pack both hang under a configuration)
 */

export type NodeKind = 'brand' | 'series' | 'model' | 'config' | 'colour' | 'pack';

export const LEVEL_TITLES: Record<number, string> = { 1: '品牌', 2: '车系', 3: '车型', 4: '配置', 5: '颜色/选装包' };
export const KIND_TITLES: Record<NodeKind, string> = {
  brand: '品牌',
  series: '车系',
  model: '车型',
  config: '配置',
  colour: '颜色',
  pack: '选装包',
};
export const KIND_LEVEL: Record<NodeKind, number> = { brand: 1, series: 2, model: 3, config: 4, colour: 5, pack: 5 };
export const MAX_LEVEL = 5;

export interface EnumField {
  name: string;
  title: string;
  /** allowed values (labels are the values: the spec names them in Chinese) */
  values?: readonly string[];
  /** free-form number (price) or short text (colour code, year) instead of a list */
  type?: 'number' | 'text';
  kinds: readonly NodeKind[];
}

export const FUEL_TYPES = ['汽油', '纯电', '插电混动'] as const;
export const EMISSIONS = ['国五', '国六'] as const;
export const BODY_TYPES = ['轿车', 'SUV', 'MPV'] as const;
export const CAR_CLASSES = ['A', 'A+', 'B', 'C', 'S'] as const;
export const BRAND_TIERS = ['豪华', '中端合资', '自主'] as const;
export const ENGINES = ['自然吸气', '涡轮增压', '其他'] as const;
export const GEARBOXES = ['手动', '自动'] as const;
export const BRAND_NATURES = ['自主', '合资', '进口', '独资'] as const;
/** brand origin (品牌国别): the spec does not list the values */
export const ORIGINS = ['中国', '德国', '日本', '美国', '韩国', '法国', '英国', '意大利', '瑞典', '其他'] as const;

export const ENUM_FIELDS: readonly EnumField[] = [
  { name: 'brandNature', title: '品牌性质', values: BRAND_NATURES, kinds: ['brand'] },
  { name: 'brandTier', title: '品牌档次', values: BRAND_TIERS, kinds: ['brand'] },
  { name: 'origin', title: '品牌国别', values: ORIGINS, kinds: ['brand'] },
  { name: 'bodyType', title: '车身类型', values: BODY_TYPES, kinds: ['series'] },
  { name: 'carClass', title: '车辆级别', values: CAR_CLASSES, kinds: ['series'] },
  { name: 'fuelType', title: '燃油类型', values: FUEL_TYPES, kinds: ['model'] },
  { name: 'emission', title: '排放标准', values: EMISSIONS, kinds: ['model'] },
  { name: 'modelYear', title: '年款', type: 'text', kinds: ['model'] },
  { name: 'engine', title: '发动机', values: ENGINES, kinds: ['config'] },
  { name: 'gearbox', title: '变速箱', values: GEARBOXES, kinds: ['config'] },
  { name: 'colorCode', title: '色值', type: 'text', kinds: ['colour'] },
  { name: 'price', title: '价格', type: 'number', kinds: ['config', 'colour', 'pack'] },
];

export function enumFieldsOf(kind: NodeKind): EnumField[] {
  return ENUM_FIELDS.filter((f) => f.kinds.includes(kind));
}

/** Price label per kind: a configuration's guide price in 万元, a colour's or pack's surcharge in 元. */
export function priceTitle(kind: NodeKind): string {
  return kind === 'config' ? '指导价（万元）' : kind === 'colour' ? '加价（元）' : '价格（元）';
}

export interface BrandNode {
  id: number;
  pid: number;
  name: string;
  level: number;
  kind: NodeKind;
  sort: number;
  enabled: boolean;
  /** offered in sales (getBrandTree?enabledXs=true) */
  enabledXs: boolean;
  /** brand only: the company (organisation) that sells it; null = the whole group */
  orgId: number | null;
  brandNature: string | null;
  brandTier: string | null;
  origin: string | null;
  bodyType: string | null;
  carClass: string | null;
  fuelType: string | null;
  emission: string | null;
  modelYear: string | null;
  engine: string | null;
  gearbox: string | null;
  colorCode: string | null;
  price: number | null;
  remark: string | null;
  createTime: string | null;
  updateTime: string | null;
  /** lazy lists: whether the node has children */
  hasChildren?: boolean;
  children?: BrandNode[];
}

/** The cascader's message when the chosen path stops above the required level. */
export function levelRequiredMessage(level: number): string {
  const names: Record<number, string> = { 1: '品牌', 2: '车系', 3: '车型', 4: '车型配置', 5: '颜色或选装包' };
  return `请选择到${names[level] ?? `第${level}级`}（第${level}级）`;
}

/** userCarType: the brand/series/model names joined by '/'. */
export function userCarType(names: readonly string[]): string {
  return names.slice(0, 3).join('/');
}
