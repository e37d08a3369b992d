/** `x-input: "upload"`: the picture goes to /api/pictures with progress, and its address fills the field. */
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, Form, memoryStore } from 'react-admin';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { resourceByName } from '../../src/generated/resources.ts';
import { FieldInput } from '../../src/web/staff/schema/inputs.tsx';
import { setToken } from '../../src/web/common/token.ts';
import { mockFetch } from './fetchMock.ts';

describe('upload input', () => {
  it('uploads the chosen picture through the HTTP client and puts its address in the field', async () => {
    setToken('tok', false);
    const { calls } = mockFetch({
      'POST /api/pictures': { status: 201, body: { id: 1, key: 'k1', url: '/api/files/k1', name: 'logo.png' } },
    });
    const spec = resourceByName.sysCarBrand;
    const field = spec.fields.find((f) => f.input === 'upload')!;
    render(
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <Form>
          <FieldInput spec={spec} field={field} />
        </Form>
      </AdminContext>,
    );
    expect(screen.getByRole('button', { name: '上传图片' })).toBeTruthy();
    fireEvent.change(screen.getByTestId(`upload-${field.name}`), {
      target: { files: [new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' })] },
    });
    await waitFor(() => expect(screen.getByLabelText<HTMLInputElement>(field.title).value).toBe('/api/files/k1'));
    const upload = calls.find((c) => c.url.pathname === '/api/pictures')!;
    expect(upload.headers.Authorization).toBe('Bearer tok');
    expect(((upload.body as FormData).get('file') as File).name).toBe('logo.png');
  });
});
