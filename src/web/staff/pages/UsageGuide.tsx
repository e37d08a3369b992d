/**
 * 使用说明 (/usage, and the spec's /explain): the usage guide with the tabs 人力行政 and 客服 (the
 * latter has no content yet), pointing on to 操作文档 and each screen's own help page.
 */
import { useState } from 'react';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import Link from '@mui/material/Link';
import { Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';

const HR_SECTIONS: Array<[string, string]> = [
  ['个人中心', '右上角头像菜单进入个人中心，可修改头像、昵称、性别、手机号、邮箱、密码和锁屏时间，并查看自己的操作日志。'],
  ['品牌车型数据', '品牌车型按 品牌 → 车系 → 车型 → 配置 → 颜色 分级维护，选装包挂在配置下。'],
  ['用户管理', '管理员可新增、编辑用户，重置密码，启用或禁用账号；禁用后该账号立即无法登录。'],
  ['权限管理', '岗位（角色）决定可见的菜单、按钮和数据范围（全部 / 本级 / 自定义部门），由上级授权。'],
  ['部门', '部门为树形结构，可调整上级部门和排序，停用的部门不再出现在选择中。'],
  ['岗位', '一个人可以同时担任多个岗位，岗位变动由人事调整；一个岗位可以查看多个部门和菜单。'],
  ['招聘', '人事招聘信息发布岗位、薪资、地点和人数，应聘人员通过公开的登记表填写教育、培训和工作经历。'],
  ['员工与花名册', '应聘通过的人员可转入员工花名册，保留其登记信息。'],
  ['系统功能', '系统消息推送、操作日志和在线用户仅对信息数据部负责人开放。'],
];

export function UsageGuidePage() {
  const [tab, setTab] = useState(0);
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="使用说明" />
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} aria-label="使用说明">
        <Tab label="人力行政" />
        <Tab label="客服" />
      </Tabs>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        更多内容见{' '}
        <Link component={RouterLink} to="/UserCzwd">
          操作文档
        </Link>
        ；各页面顶栏的帮助按钮打开该页面的帮助说明。
      </Typography>
      {tab === 0 ? (
        <Box sx={{ display: 'grid', gap: 2, mt: 2 }}>
          {HR_SECTIONS.map(([title, text]) => (
            <Card key={title} variant="outlined">
              <CardContent>
                <Typography variant="subtitle1" sx={{ fontWeight: 600 }} gutterBottom>
                  {title}
                </Typography>
                <Typography color="text.secondary">{text}</Typography>
              </CardContent>
            </Card>
          ))}
        </Box>
      ) : (
        <Typography color="text.secondary" sx={{ mt: 4, textAlign: 'center' }}>
          暂无内容
        </Typography>
      )}
    </Box>
  );
}
