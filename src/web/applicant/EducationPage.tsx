/**
 * /staffun/education?staffunId=&phoneNum=: the second step. Three collapsible sections,
 * 教育信息 / 培训信息 / 工作信息, each with its cards and add form; 确认填写完毕 finishes
 * (POST api/staffun/staffJoin) and opens /staffun/success. Needs the applicant token that
 * the registration (or 继续填写) gave this browser; without it the page offers 继续填写.
 */
import { useCallback, useState } from 'react';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { EDUCATION_SAVED, educationProblem, REQUEST_SUCCEEDED, trainingProblem, workProblem } from '../../shared/applicant-rules.ts';
import { api, applicantToken, setApplicantToken } from './api.ts';
import { EntrySection, labelOf } from './EntrySection.tsx';
import { go } from './nav.ts';
import { useNotice } from './notice.tsx';
import { PageFrame } from './PageFrame.tsx';
import { stringOf, textOf } from '../common/text.ts';

const range = (r: Record<string, unknown>) => `${textOf(r.startDate)} 至 ${textOf(r.endDate)}`;

export default function EducationPage({ query }: { query: URLSearchParams }) {
  const staffunId = Number(query.get('staffunId'));
  const phoneNum = query.get('phoneNum') ?? '';
  const [open, setOpen] = useState<string | null>('staffunEducation');
  const [expired, setExpired] = useState<string | null>(
    applicantToken() && staffunId > 0 ? null : '登记信息已失效，请重新填写应聘人员信息登记表',
  );
  const [finishing, setFinishing] = useState(false);
  const notice = useNotice();
  const notify = notice.show;
  const onExpired = useCallback((message: string) => setExpired(message), []);
  const toggle = (entity: string) => () => setOpen((o) => (o === entity ? null : entity));

  const finish = async () => {
    setFinishing(true);
    try {
      await api('POST', 'api/staffun/staffJoin', { id: staffunId });
      setApplicantToken(null);
      go('/staffun/success');
    } catch (err) {
      const e = err as { status?: number; message: string };
      if (e.status === 401) setExpired(e.message);
      else notify({ type: 'error', text: e.message });
    } finally {
      setFinishing(false);
    }
  };

  if (expired) {
    return (
      <PageFrame title="应聘人员信息登记表">
        <Typography sx={{ my: 3, textAlign: 'center', color: '#606266' }}>{expired}</Typography>
        <Button variant="contained" fullWidth href="#/staffun/resume">
          继续填写（短信验证）
        </Button>
        <Button fullWidth sx={{ mt: 1 }} href="#/staffun">
          重新登记
        </Button>
      </PageFrame>
    );
  }

  const common = { staffunId, notify, onExpired };
  return (
    <PageFrame title="应聘人员信息登记表">
      {notice.element}
      <EntrySection
        {...common}
        entity="staffunEducation"
        title="教育信息"
        expanded={open === 'staffunEducation'}
        onToggle={toggle('staffunEducation')}
        fields={[
          { name: 'xl', kind: 'select' },
          { name: 'school' },
          { name: 'specialty' },
          { name: 'startDate', kind: 'date' },
          { name: 'endDate', kind: 'date' },
          { name: 'zmr' },
          { name: 'zmrPhone' },
        ]}
        card={(r) => ({
          heading: `${stringOf(r.school)}（${labelOf('staffunEducation', 'xl', r.xl)}）`,
          lines: [`专业：${stringOf(r.specialty)}`, range(r), `证明人：${stringOf(r.zmr)} ${stringOf(r.zmrPhone)}`],
        })}
        saveLabel="保存教育信息"
        savedText={EDUCATION_SAVED}
        rule={(v) => educationProblem(v, phoneNum)}
      />
      <EntrySection
        {...common}
        entity="staffunPx"
        title="培训信息"
        expanded={open === 'staffunPx'}
        onToggle={toggle('staffunPx')}
        fields={[
          { name: 'title' },
          { name: 'dept' },
          { name: 'address' },
          { name: 'startDate', kind: 'date' },
          { name: 'endDate', kind: 'date' },
          { name: 'person' },
          { name: 'pxxz' },
          { name: 'type' },
          { name: 'result' },
          { name: 'pxzs' },
          { name: 'remark', kind: 'textarea' },
        ]}
        card={(r) => ({
          heading: String(r.title),
          lines: [
            `${stringOf(r.dept)} · ${stringOf(r.address)}`,
            range(r),
            `培训人：${stringOf(r.person)}\u3000结果：${stringOf(r.result)}\u3000证书：${stringOf(r.pxzs)}`,
          ],
        })}
        saveLabel="保存培训信息"
        savedText="提交成功"
        rule={(v) => trainingProblem(v)}
      />
      <EntrySection
        {...common}
        entity="staffunWork"
        title="工作信息"
        expanded={open === 'staffunWork'}
        onToggle={toggle('staffunWork')}
        fields={[
          { name: 'company' },
          { name: 'status', kind: 'radio' },
          { name: 'startDate', kind: 'date' },
          { name: 'endDate', kind: 'date' },
          { name: 'job' },
          { name: 'money' },
          { name: 'cause' },
          { name: 'zmr' },
          { name: 'zmrPhone' },
          { name: 'remark', kind: 'textarea' },
        ]}
        card={(r) => ({
          heading: `${stringOf(r.company)}（${labelOf('staffunWork', 'status', r.status)}）`,
          lines: [
            range(r),
            `职务：${stringOf(r.job)}\u3000薪资：${stringOf(r.money)}`,
            `离职原因：${stringOf(r.cause)}`,
            `证明人：${stringOf(r.zmr)} ${stringOf(r.zmrPhone)}`,
          ],
        })}
        saveLabel="保存工作信息"
        savedText={REQUEST_SUCCEEDED}
        rule={(v) => workProblem(v, phoneNum)}
      />
      <Button variant="contained" fullWidth size="large" sx={{ mt: 3 }} onClick={() => void finish()} disabled={finishing}>
        {finishing ? '提交中...' : '确认填写完毕'}
      </Button>
    </PageFrame>
  );
}
