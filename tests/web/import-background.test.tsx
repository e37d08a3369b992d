/** An import the server hands to the background (299): the dialog says so as information, not as an error. */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { resourceByName } from '../../src/generated/resources.ts';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { ImportDialog } from '../../src/web/staff/schema/ImportDialog.tsx';
import { setToken } from '../../src/web/common/token.ts';
import { mockFetch } from './fetchMock.ts';

describe('import dialog', () => {
  it('shows the 299 answer as information and does not count it as imported', async () => {
    mockFetch({
      'POST /api/sysQuestion/import': {
        status: 299,
        body: { status: 299, message: '导入数据较多，已转入后台处理，请留意导入进度', total: 5000 },
      },
    });
    setToken('tok', false);
    const imported = vi.fn();
    render(
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <ImportDialog spec={resourceByName.sysQuestion} open onClose={() => undefined} onImported={imported} />
      </AdminContext>,
    );
    fireEvent.change(screen.getByTestId('import-file'), { target: { files: [new File(['x'], '反馈.xlsx')] } });
    const alert = await screen.findByText('导入数据较多，已转入后台处理，请留意导入进度');
    expect(alert.closest('.MuiAlert-standardInfo')).not.toBeNull();
    expect(document.querySelector('.MuiAlert-standardError')).toBeNull();
    expect(imported).not.toHaveBeenCalled();
  });
});
