/**
 * A list filter's pinyin picker (PinyinSelectInput with `deferred`): a collapsed combobox of the
 * same name shows the value until the picker is first pointed at, pressed or focused; then MUI's
 * Autocomplete takes its place, with the focus and the text selected when reached by keyboard
 * or a press, and finds the choices by pinyin as before.
 */
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, Form, memoryStore } from 'react-admin';
import { i18nProvider } from '../../src/web/i18n/index.ts';
import { PinyinSelectInput } from '../../src/web/staff/schema/PinyinSelectInput.tsx';

const choices = ['系统', '销售', '售后', '人事', '行政', '服务', '客户', '市场', '其他'].map((name) => ({ id: name, name }));

function renderPicker(value?: string) {
  return render(
    <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
      <Form record={value ? { model: value } : {}}>
        <PinyinSelectInput
          source="model"
          label="模块"
          optionText="name"
          choices={choices}
          emptyText="全部"
          size="small"
          sx={{ minWidth: 180 }}
          deferred
        />
      </Form>
    </AdminContext>,
  );
}

const field = () => screen.getByRole<HTMLInputElement>('combobox', { name: '模块' });

describe('a deferred pinyin picker (list filters)', () => {
  it('shows the value in a collapsed combobox of the same name until reached, without the picker', () => {
    renderPicker('销售');
    expect(field().value).toBe('销售');
    expect(field().getAttribute('aria-expanded')).toBe('false');
    expect(document.querySelector('.MuiAutocomplete-root')).toBeNull();
    renderPicker();
    expect(screen.getAllByRole<HTMLInputElement>('combobox', { name: '模块' })[1].value).toBe('全部');
  });

  it('focused by the keyboard, the picker takes its place with the focus and the text selected; typing pinyin finds 销售', async () => {
    renderPicker();
    fireEvent.focus(field());
    await waitFor(() => expect(document.querySelector('.MuiAutocomplete-root')).not.toBeNull());
    const input = field();
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, '全部'.length]);
    fireEvent.change(input, { target: { value: 'xs' } });
    await waitFor(() => expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['销售']));
  });

  it('a press opens the picker at once', async () => {
    renderPicker();
    fireEvent.pointerDown(field());
    await waitFor(() => expect(screen.getByRole('listbox')).toBeTruthy());
    expect(screen.getAllByRole('option')).toHaveLength(choices.length + 1);
  });

  it('pointed at, the picker mounts without taking the focus', async () => {
    renderPicker();
    fireEvent.pointerEnter(field());
    await waitFor(() => expect(document.querySelector('.MuiAutocomplete-root')).not.toBeNull());
    expect(document.activeElement).not.toBe(field());
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
