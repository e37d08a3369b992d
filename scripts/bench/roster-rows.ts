/**
 * Roster rows (员工花名册) for the import benchmarks: realistic Chinese names (surnames with
 * surname readings among them, one or two given characters) and eight job titles of four to six
 * characters, both fields marked `x-pinyin`. The same seed gives the same rows.
 */
import { mulberry32 } from './random.ts';

export const SURNAMES = Array.from(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁单解仇区朴',
);
export const GIVEN = Array.from('伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂华玉萍红玲芬燕彬鹏辉建国志文斌宇浩凯晨阳欣怡子轩梓涵雨泽');
export const JOBS = [
  '市场推广经理',
  '销售顾问',
  '售后服务主管',
  '人事行政专员',
  '财务会计',
  '重庆区域经理',
  '银行按揭专员',
  '二手车评估师',
];

/** n roster records as the import's validator hands them to insertAll (company and department 1). */
export function rosterRecords(n: number, seed = 11): Record<string, unknown>[] {
  const rand = mulberry32(seed);
  const pick = <T>(a: T[]) => a[Math.floor(rand() * a.length)];
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      name: pick(SURNAMES) + pick(GIVEN) + (rand() < 0.7 ? pick(GIVEN) : ''),
      mobile: `139${String(10_000_000 + i).padStart(8, '0')}`,
      sex: i % 2,
      orgId: 1,
      deptId: 1,
      job: pick(JOBS),
      entryDate: '2024-03-01',
      status: 1,
    });
  }
  return out;
}
