/** /staffun/resume: 继续填写 for an applicant who registered before, on any device. */
import Box from '@mui/material/Box';
import { PageFrame } from './PageFrame.tsx';
import { ResumeForm } from './ResumeForm.tsx';
import { useNotice } from './notice.tsx';

export default function ResumePage() {
  const notice = useNotice();
  return (
    <PageFrame title="继续填写应聘登记">
      {notice.element}
      <ResumeForm notify={notice.show} />
      <Box sx={{ mt: 2, textAlign: 'center', fontSize: 14 }}>
        <a href="#/staffun">还没有登记？填写应聘人员信息登记表</a>
      </Box>
    </PageFrame>
  );
}
