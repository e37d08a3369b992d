/**
 * /staffun: 应聘人员信息登记表, the public registration (no sign-in, phone-sized first).
 * The ID number (15 or 18 digits, GB 11643 check digit) fills birthday, sex and the household
 * region. A valid submit creates the applicant (POST api/staffun -> id and the applicant token)
 * and opens /staffun/education?staffunId=&phoneNum=. Each registration is a new application (the
 * server never says whether an ID number applied before); an applicant who stopped halfway
 * continues through 已登记过？继续填写 (ResumeForm, ID number + mobile + SMS code).
 * A zpId naming no open posting says 招聘信息不存在或已停止招聘, as the posting page does.
 */
import { useEffect, useMemo, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { ID_CARD_WRONG, idCardAutofill } from '../../shared/applicant-rules.ts';
import { DateField } from '../components/DateFields.tsx';
import { regionText, resolveRegion } from '../../shared/regions.ts';
import { api, ApiProblem, setApplicantToken, type Posting } from './api.ts';
import { AreaPicker, type AreaValue } from './AreaPicker.tsx';
import { formProblems, specOf, toBody, type Errors, type Values } from './formCheck.ts';
import { go } from './nav.ts';
import { CHECK_NOTICE_MS, useNotice } from './notice.tsx';
import { PageFrame } from './PageFrame.tsx';
import { textOf } from '../common/text.ts';
import { MUTED_TEXT } from '../common/palette.ts';

/** the posting page's own words for a posting that is missing or closed */
export const POSTING_GONE = '招聘信息不存在或已停止招聘';

const spec = specOf('applicant');
const optionsOf = (name: string) => spec.fields.find((f) => f.name === name)?.options ?? [];

/** Form fields in screen order (also the order of the checks). */
export const REGISTER_FIELDS = [
  'staffunZpId',
  'ypqd',
  'ypmx',
  'name',
  'mobile',
  'card',
  'sex',
  'birthday',
  'hyzk',
  'email',
  'cardProvince',
  'cardCity',
  'cardCounty',
  'cardAddress',
  'nowProvince',
  'nowCity',
  'nowCounty',
  'nowAddress',
  'edu',
  'work',
  'syMoney',
  'zsMoney',
  'yjdg',
  'outWork',
  'remark',
];
/** where a region code's error is shown and focused */
const REGION_INPUT: Record<string, string> = {
  cardProvince: 'cardProvinceTo',
  cardCity: 'cardProvinceTo',
  cardCounty: 'cardProvinceTo',
  nowProvince: 'nowProvinceTo',
  nowCity: 'nowProvinceTo',
  nowCounty: 'nowProvinceTo',
};

function firstProblem(errors: Errors): [string, string] | undefined {
  for (const name of REGISTER_FIELDS) if (errors[name]) return [name, errors[name]];
  return undefined;
}

export default function RegisterPage({ query }: { query: URLSearchParams }) {
  const [values, setValues] = useState<Values>(() => ({ staffunZpId: query.get('zpId') ?? '', outWork: '', sex: '' }));
  const [errors, setErrors] = useState<Errors>({});
  const [postings, setPostings] = useState<Posting[] | null>(null);
  const [picker, setPicker] = useState<'card' | 'now' | null>(null);
  const [saving, setSaving] = useState(false);
  const [postingGone, setPostingGone] = useState(false);
  const notice = useNotice();

  useEffect(() => {
    api<{ content: Posting[] }>('GET', 'api/staffunZp/public')
      .then((page) => {
        setPostings(page.content);
        // a link to a posting that is missing or closed: say so, and let the applicant choose
        const wanted = query.get('zpId');
        if (wanted && !page.content.some((p) => String(p.id) === wanted)) {
          setPostingGone(true);
          setValues((v) => ({ ...v, staffunZpId: '' }));
        }
      })
      .catch((err: ApiProblem) => {
        setPostings([]);
        notice.show({ type: 'error', text: err.message });
      });
  }, []); // eslint-disable-line react-hooks/exhaustive-deps

  const set = (patch: Values) => {
    setValues((v) => ({ ...v, ...patch }));
    setErrors((e) => {
      const next = { ...e };
      for (const k of Object.keys(patch)) delete next[k];
      return next;
    });
  };
  const onText = (name: string) => (e: ChangeEvent<HTMLInputElement>) => set({ [name]: e.target.value });

  const onCard = (e: ChangeEvent<HTMLInputElement>) => {
    const card = e.target.value
      .replace(/[^\dXx]/g, '')
      .slice(0, 18)
      .toUpperCase();
    const patch: Values = { card };
    const info = card.length === 15 || card.length === 18 ? idCardAutofill(card) : null;
    if (info) {
      patch.birthday = info.birthday;
      patch.sex = String(info.sex);
      const region = resolveRegion(info.region);
      if (region.province) {
        patch.cardProvince = region.province.code;
        patch.cardCity = region.city?.code ?? '';
        patch.cardCounty = region.county?.code ?? '';
      }
    }
    set(patch);
    // while typing only a full 18-character number is judged; leaving the field judges any length
    if (card.length === 18 && !info) setErrors((er) => ({ ...er, card: ID_CARD_WRONG }));
  };

  const check = (name: string) => {
    let problem = formProblems(spec, [name], values)[name];
    if (!problem && name === 'card' && values.card && !idCardAutofill(textOf(values.card))) problem = ID_CARD_WRONG;
    setErrors((e) => {
      const next = { ...e };
      if (problem) next[name] = problem;
      else delete next[name];
      return next;
    });
  };

  const submit = async () => {
    const problems = formProblems(spec, REGISTER_FIELDS, values);
    if (values.card && !problems.card && !idCardAutofill(textOf(values.card))) problems.card = ID_CARD_WRONG;
    setErrors(problems);
    const first = firstProblem(problems);
    if (first) {
      notice.show({ type: 'error', text: first[1], duration: CHECK_NOTICE_MS });
      const input = document.querySelector<HTMLElement>(`[name="${REGION_INPUT[first[0]] ?? first[0]}"]`);
      input?.focus();
      return;
    }
    setSaving(true);
    try {
      const created = await api<{ id: number; token: string }>('POST', 'api/staffun', toBody(spec, REGISTER_FIELDS, values));
      setApplicantToken(created.token);
      go(`/staffun/education?staffunId=${created.id}&phoneNum=${encodeURIComponent(String(values.mobile).trim())}`);
    } catch (err) {
      notice.show({ type: 'error', text: (err as Error).message });
    } finally {
      setSaving(false);
    }
  };

  const regionError = (prefix: 'card' | 'now') => errors[`${prefix}Province`] ?? errors[`${prefix}City`] ?? errors[`${prefix}County`];
  const areaOf = (prefix: 'card' | 'now'): Partial<AreaValue> => ({
    province: textOf(values[`${prefix}Province`]),
    city: textOf(values[`${prefix}City`]),
    county: textOf(values[`${prefix}County`]),
  });
  const chosenPosting = useMemo(() => postings?.find((p) => String(p.id) === String(values.staffunZpId)), [postings, values.staffunZpId]);

  const text = (name: string, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      name={name}
      label={label}
      value={textOf(values[name])}
      onChange={onText(name)}
      onBlur={() => check(name)}
      error={!!errors[name]}
      helperText={errors[name]}
      required={spec.fields.find((f) => f.name === name)?.required}
      fullWidth
      margin="dense"
      size="small"
      {...extra}
    />
  );
  /** 出生日期 / 预计到岗日期: 'yyyy-MM-dd' pickers whatever the browser's language */
  const date = (name: string, label: string) => (
    <DateField
      name={name}
      label={label}
      value={textOf(values[name])}
      onChange={(v) => set({ [name]: v })}
      onBlur={() => check(name)}
      error={!!errors[name]}
      helperText={errors[name]}
      required={spec.fields.find((f) => f.name === name)?.required}
      fullWidth
      size="small"
      sx={{ mt: 1, mb: 0.5 }}
    />
  );
  const select = (name: string, label: string, options: Array<{ value: unknown; label: string }>) =>
    text(name, label, {
      select: true,
      children: options.map((o) => (
        <MenuItem key={String(o.value)} value={String(o.value)}>
          {o.label}
        </MenuItem>
      )),
    });
  const radios = (name: string, label: string) => (
    <FormControl error={!!errors[name]} margin="dense" fullWidth required>
      <FormLabel sx={{ fontSize: 13 }}>{label}</FormLabel>
      <RadioGroup row name={name} value={textOf(values[name])} onChange={(e) => set({ [name]: e.target.value })}>
        {optionsOf(name).map((o) => (
          <FormControlLabel key={String(o.value)} value={String(o.value)} control={<Radio size="small" />} label={o.label} />
        ))}
      </RadioGroup>
      {errors[name] ? <FormHelperText>{errors[name]}</FormHelperText> : null}
    </FormControl>
  );
  const region = (prefix: 'card' | 'now', label: string) => (
    <TextField
      name={`${prefix}ProvinceTo`}
      label={label}
      value={regionText(values[`${prefix}Province`], values[`${prefix}City`], values[`${prefix}County`])}
      placeholder="请选择省/市/区"
      onClick={() => setPicker(prefix)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') setPicker(prefix);
      }}
      slotProps={{ htmlInput: { readOnly: true } }}
      error={!!regionError(prefix)}
      helperText={regionError(prefix)}
      required
      fullWidth
      margin="dense"
      size="small"
    />
  );

  return (
    <PageFrame title="应聘人员信息登记表">
      {notice.element}
      {postingGone ? (
        <Alert severity="warning" sx={{ mb: 1 }} onClose={() => setPostingGone(false)}>
          {POSTING_GONE}
        </Alert>
      ) : null}
      <Box sx={{ fontSize: 13, textAlign: 'right', mb: 0.5 }}>
        <a href="#/staffun/resume">已登记过？继续填写</a>
      </Box>
      {select(
        'staffunZpId',
        '应聘岗位',
        (postings ?? []).map((p) => ({ value: p.id, label: `${p.job}（${p.money}）` })),
      )}
      {postings && postings.length === 0 ? <FormHelperText>暂无招聘中的岗位</FormHelperText> : null}
      {chosenPosting ? (
        <Box sx={{ fontSize: 12, color: MUTED_TEXT, mb: 0.5 }}>
          工作区域：{chosenPosting.address}
          {'\u3000'}
          <a href={`#/staffun/view?id=${chosenPosting.id}`}>查看招聘信息</a>
        </Box>
      ) : null}
      {select('ypqd', '应聘渠道', optionsOf('ypqd'))}
      {text('ypmx', '渠道明细', { placeholder: '如招聘网站名称、推荐人姓名' })}
      {text('name', '姓名')}
      {text('mobile', '手机号码', { slotProps: { htmlInput: { inputMode: 'numeric', maxLength: 11 } } })}
      {text('card', '身份证号码', { onChange: onCard, placeholder: '15位或18位，填写后自动带出出生日期、性别和户籍' })}
      {radios('sex', '性别')}
      {date('birthday', '出生日期')}
      {select('hyzk', '婚姻状况', optionsOf('hyzk'))}
      {text('email', '电子邮箱', { type: 'email' })}
      {region('card', '户籍所在地')}
      {text('cardAddress', '身份证地址')}
      {region('now', '现居住地')}
      {text('nowAddress', '现居住地址')}
      {select('edu', '最高学历', optionsOf('edu'))}
      {text('work', '工作年限（年）', { slotProps: { htmlInput: { inputMode: 'numeric' } } })}
      {text('syMoney', '试用期期望薪资（元/月）', { slotProps: { htmlInput: { inputMode: 'decimal' } } })}
      {text('zsMoney', '转正期望薪资（元/月）', { slotProps: { htmlInput: { inputMode: 'decimal' } } })}
      {date('yjdg', '预计到岗日期')}
      {radios('outWork', '是否接受外派')}
      {text('remark', '备注', { multiline: true, minRows: 2 })}
      <Button variant="contained" fullWidth size="large" sx={{ mt: 2 }} onClick={() => void submit()} disabled={saving}>
        {saving ? '提交中...' : '下一步'}
      </Button>
      <AreaPicker
        open={picker !== null}
        title={picker === 'now' ? '现居住地' : '户籍所在地'}
        value={picker ? areaOf(picker) : undefined}
        onCancel={() => setPicker(null)}
        onConfirm={(area) => {
          const prefix = picker!;
          set({ [`${prefix}Province`]: area.province, [`${prefix}City`]: area.city, [`${prefix}County`]: area.county });
          setPicker(null);
        }}
      />
    </PageFrame>
  );
}
