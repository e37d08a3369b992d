import { describe, expect, it, vi } from 'vitest';
import { resourceByName } from '../../src/generated/resources.ts';
import { uploadImport } from '../../src/web/staff/schema/importFile.ts';
import { setToken } from '../../src/web/common/token.ts';

/** An XMLHttpRequest stand-in for axios' xhr adapter: answers FakeXhr.answer after two upload progress events. */
class FakeXhr {
  static last: FakeXhr;
  static answer = { status: 400, body: '' };
  /** leave the request open (to cancel it) */
  static hold = false;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: unknown;
  readyState = 0;
  status = 0;
  statusText = '';
  responseText = '';
  response: unknown = '';
  responseType = '';
  responseURL = '';
  timeout = 0;
  withCredentials = false;
  private uploadListeners = new Map<string, Array<(e: unknown) => void>>();
  upload = {
    addEventListener: (type: string, fn: (e: unknown) => void) =>
      this.uploadListeners.set(type, [...(this.uploadListeners.get(type) ?? []), fn]),
    removeEventListener: () => undefined,
  };
  onloadend?: () => void;
  onerror?: (e: unknown) => void;
  ontimeout?: () => void;
  onabort?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
    this.readyState = 1;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener() {}
  removeEventListener() {}
  getAllResponseHeaders() {
    return 'content-type: application/json\r\n';
  }
  abort() {
    this.onabort?.();
  }
  private progress(loaded: number) {
    for (const fn of this.uploadListeners.get('progress') ?? []) fn({ lengthComputable: true, loaded, total: 100 });
  }
  send(body: unknown) {
    this.sent = body;
    this.progress(50);
    if (FakeXhr.hold) return;
    this.status = FakeXhr.answer.status;
    this.responseText = FakeXhr.answer.body;
    this.response = FakeXhr.answer.body;
    this.readyState = 4;
    this.onloadend?.();
  }
}

describe('import upload', () => {
  it('posts the file as multipart field `file` with credentials, reports progress and row errors', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    setToken('tok', false);
    FakeXhr.answer = {
      status: 400,
      body: JSON.stringify({
        status: 400,
        message: '导入失败：第3行有错误',
        errors: [{ row: 3, column: '模块', message: '模块不能为空' }],
      }),
    };
    const progress: number[] = [];
    const file = new File(['x'], '问题反馈.xlsx');
    const result = await uploadImport(resourceByName.sysQuestion, file, (p) => progress.push(p));
    expect(FakeXhr.last.method).toBe('POST');
    expect(FakeXhr.last.url).toBe('/api/sysQuestion/import');
    expect(FakeXhr.last.headers.Authorization).toBe('Bearer tok');
    expect(FakeXhr.last.headers.submit_id).toMatch(/^\d{32}$/);
    expect((FakeXhr.last.sent as FormData).get('file')).toBeInstanceOf(File);
    expect(progress[0]).toBe(50);
    expect(progress.at(-1)).toBe(100);
    expect(result).toMatchObject({
      ok: false,
      message: '导入失败：第3行有错误',
      errors: [{ row: 3, column: '模块', message: '模块不能为空' }],
    });
  });

  it('a 2xx answer is a success', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = { status: 200, body: JSON.stringify({ message: '导入成功，共5条' }) };
    const result = await uploadImport(resourceByName.sysQuestion, new File(['x'], 'a.xlsx'), () => {});
    expect(result).toMatchObject({ ok: true, message: '导入成功，共5条', errors: [] });
  });

  it('cancels: the upload stops and the dialog hears 已取消', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.hold = true;
    try {
      const controller = new AbortController();
      const progress: number[] = [];
      const pending = uploadImport(resourceByName.sysQuestion, new File(['x'], 'a.xlsx'), (p) => progress.push(p), controller.signal);
      await vi.waitFor(() => expect(progress).toContain(50));
      controller.abort();
      await expect(pending).resolves.toMatchObject({ ok: false, canceled: true, message: '已取消' });
    } finally {
      FakeXhr.hold = false;
    }
  });
});
