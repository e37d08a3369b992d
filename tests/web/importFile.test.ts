import { describe, expect, it, vi } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { uploadImport } from '../../src/web/staff/schema/importFile.ts';
import { setToken } from '../../src/web/staff/providers/token.ts';

class FakeXhr {
  static last: FakeXhr;
  static answer = { status: 400, body: '' };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: unknown;
  status = 0;
  responseText = '';
  timeout = 0;
  upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  ontimeout?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.sent = body;
    this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
    this.status = FakeXhr.answer.status;
    this.responseText = FakeXhr.answer.body;
    this.onload?.();
  }
}

describe('import upload', () => {
  it('posts the file as multipart field `file` with credentials, reports progress and row errors', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setToken('tok', false);
    FakeXhr.answer = {
      status: 400,
      body: JSON.stringify({ status: 400, message: '导入失败：第3行有错误', errors: [{ row: 3, column: '模块', message: '模块不能为空' }] }),
    };
    const progress: number[] = [];
    const file = new File(['x'], '问题反馈.xlsx');
    const result = await uploadImport(resourceByName.sysQuestion, file, (p) => progress.push(p));
    expect(FakeXhr.last.method).toBe('POST');
    expect(FakeXhr.last.url).toBe('/api/sysQuestion/import');
    expect(FakeXhr.last.headers.Authorization).toBe('Bearer tok');
    expect(FakeXhr.last.headers.submit_id).toMatch(/^\d{32}$/);
    expect((FakeXhr.last.sent as FormData).get('file')).toBeInstanceOf(File);
    expect(progress).toEqual([50, 100]);
    expect(result).toMatchObject({ ok: false, message: '导入失败：第3行有错误', errors: [{ row: 3, column: '模块', message: '模块不能为空' }] });
  });

  it('a 2xx answer is a success', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = { status: 200, body: JSON.stringify({ message: '导入成功，共5条' }) };
    const result = await uploadImport(resourceByName.sysQuestion, new File(['x'], 'a.xlsx'), () => {});
    expect(result).toMatchObject({ ok: true, message: '导入成功，共5条', errors: [] });
  });
});
