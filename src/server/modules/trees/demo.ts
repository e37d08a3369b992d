/**
 * Demo brand set (SEED_DEMO): a few real brands with series, models, configurations,
 * colours and option packs, pushed into an empty brand tree on the first start.
 * Prices are indicative guide prices (configurations in 万元, colours and packs in 元).
 */
type Demo = Record<string, unknown> & { children?: Demo[] };

const colour = (name: string, colorCode: string, price = 0): Demo => ({ name, kind: 'colour', colorCode, price });
const pack = (name: string, price: number, remark?: string): Demo => ({ name, kind: 'pack', price, ...(remark ? { remark } : {}) });
const config = (name: string, engine: string, gearbox: string, price: number, children: Demo[]): Demo => ({
  name,
  engine,
  gearbox,
  price,
  children,
});

export function demoBrands(): Demo[] {
  return [
    {
      name: '大众',
      brandNature: '合资',
      brandTier: '中端合资',
      origin: '德国',
      sort: 1,
      children: [
        {
          name: '朗逸',
          bodyType: '轿车',
          carClass: 'A',
          sort: 1,
          children: [
            {
              name: '2024款 1.5L',
              fuelType: '汽油',
              emission: '国六',
              modelYear: '2024',
              children: [
                config('1.5L 自动新逸版', '自然吸气', '自动', 11.59, [
                  colour('极地白', '#F4F5F0'),
                  colour('星空灰', '#5B5F63', 500),
                  pack('舒适包', 3000, '座椅加热、自动空调'),
                ]),
                config('1.5L 自动满逸版', '自然吸气', '自动', 13.59, [colour('极地白', '#F4F5F0'), colour('深海蓝', '#1F3A5F', 500)]),
              ],
            },
            {
              name: '2024款 280TSI',
              fuelType: '汽油',
              emission: '国六',
              modelYear: '2024',
              children: [
                config('280TSI DSG 星空满逸版', '涡轮增压', '自动', 15.29, [colour('星空灰', '#5B5F63', 500), pack('智驾辅助包', 6000)]),
              ],
            },
          ],
        },
        {
          name: '途观L',
          bodyType: 'SUV',
          carClass: 'B',
          sort: 2,
          children: [
            {
              name: '2024款 330TSI',
              fuelType: '汽油',
              emission: '国六',
              modelYear: '2024',
              children: [
                config('330TSI 自动两驱智享版', '涡轮增压', '自动', 21.98, [
                  colour('珍珠白', '#F2F2EE', 1000),
                  colour('曜石黑', '#16171A'),
                  pack('全景天窗包', 8000),
                ]),
              ],
            },
          ],
        },
      ],
    },
    {
      name: '丰田',
      brandNature: '合资',
      brandTier: '中端合资',
      origin: '日本',
      sort: 2,
      children: [
        {
          name: '凯美瑞',
          bodyType: '轿车',
          carClass: 'B',
          sort: 1,
          children: [
            {
              name: '2024款 2.0L',
              fuelType: '汽油',
              emission: '国六',
              modelYear: '2024',
              children: [
                config('2.0E 精英版', '自然吸气', '自动', 17.18, [colour('铂金珍珠白', '#EEEDE8', 800), colour('钢铁灰', '#6B6E70')]),
                config('2.0G 豪华版', '自然吸气', '自动', 19.98, [colour('铂金珍珠白', '#EEEDE8', 800), pack('JBL音响包', 5000)]),
              ],
            },
          ],
        },
        {
          name: 'RAV4荣放',
          bodyType: 'SUV',
          carClass: 'A+',
          sort: 2,
          children: [
            {
              name: '2023款 2.0L',
              fuelType: '汽油',
              emission: '国六',
              modelYear: '2023',
              children: [
                config('2.0L CVT 两驱都市版', '自然吸气', '自动', 17.58, [colour('冰川白', '#F3F4F1'), colour('极光蓝', '#2B4C7E')]),
              ],
            },
          ],
        },
      ],
    },
    {
      name: '比亚迪',
      brandNature: '自主',
      brandTier: '自主',
      origin: '中国',
      sort: 3,
      children: [
        {
          name: '汉',
          bodyType: '轿车',
          carClass: 'C',
          sort: 1,
          children: [
            {
              name: '2024款 EV',
              fuelType: '纯电',
              modelYear: '2024',
              children: [
                config('EV 荣耀版 506KM 尊贵型', '其他', '自动', 20.98, [
                  colour('雪域白', '#F5F6F7'),
                  colour('汉宫红', '#8E1B22', 2000),
                  pack('家用充电桩', 0, '含基础安装'),
                ]),
              ],
            },
            {
              name: '2024款 DM-i',
              fuelType: '插电混动',
              emission: '国六',
              modelYear: '2024',
              children: [
                config('DM-i 荣耀版 121KM 尊贵型', '自然吸气', '自动', 18.98, [colour('雪域白', '#F5F6F7'), colour('墨玉黑', '#121314')]),
              ],
            },
          ],
        },
        {
          name: '宋PLUS',
          bodyType: 'SUV',
          carClass: 'A+',
          sort: 2,
          children: [
            {
              name: '2024款 DM-i',
              fuelType: '插电混动',
              emission: '国六',
              modelYear: '2024',
              children: [
                config('DM-i 荣耀版 110KM 旗舰型', '自然吸气', '自动', 16.98, [colour('时光灰', '#77797B'), pack('智能座舱包', 4000)]),
              ],
            },
          ],
        },
      ],
    },
    {
      name: '宝马',
      brandNature: '合资',
      brandTier: '豪华',
      origin: '德国',
      sort: 4,
      children: [
        {
          name: '5系',
          bodyType: '轿车',
          carClass: 'C',
          sort: 1,
          children: [
            {
              name: '2024款 525Li',
              fuelType: '汽油',
              emission: '国六',
              modelYear: '2024',
              children: [
                config('525Li M运动套装', '涡轮增压', '自动', 43.99, [
                  colour('矿石白', '#ECEDEB', 8000),
                  colour('碳黑', '#0E0F11', 8000),
                  pack('驾驶辅助增强包', 12000),
                ]),
              ],
            },
          ],
        },
        {
          name: 'X3',
          bodyType: 'SUV',
          carClass: 'B',
          sort: 2,
          children: [
            {
              name: '2024款 xDrive25i',
              fuelType: '汽油',
              emission: '国六',
              modelYear: '2024',
              children: [
                config('xDrive25i M运动套装', '涡轮增压', '自动', 40.99, [colour('矿石白', '#ECEDEB', 8000), pack('豪华舒适包', 15000)]),
              ],
            },
          ],
        },
      ],
    },
  ];
}
