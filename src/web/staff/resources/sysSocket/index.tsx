/** 系统消息推送: the generated screen plus, per row, who read the message. */
import type { ResourceOverrides } from '../../schema/overrides.ts';
import { ReadersButton } from './ReadersButton.tsx';

export const sysSocketOverrides: ResourceOverrides = {
  RowButtons: ReadersButton,
};

export default sysSocketOverrides;
