/**
 * Import: one xlsx of at most 10 MB, POSTed as multipart field `file` to {url}/import with
 * upload progress. The answer on failure carries the server's message and, when given,
 * row/column errors.
 */
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { resourceUrl } from '../providers/dataProvider.ts';
import { reportHttpProblem } from '../providers/httpEvents.ts';
import { authHeaders, messageOf, MSG_NO_ANSWER, MSG_TIMEOUT, REQUEST_TIMEOUT_MS } from '../providers/http.ts';
import { messages } from '../../../shared/messages.ts';

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const MSG_ONLY_XLSX = messages.upload.xlsxOnly;
export const MSG_TOO_LARGE = messages.upload.tooLarge;

/** The reason a file cannot be imported, or undefined. */
export function checkImportFile(file: Pick<File, 'name' | 'size'>): string | undefined {
  if (!/\.xlsx$/i.test(file.name)) return MSG_ONLY_XLSX;
  if (file.size > IMPORT_MAX_BYTES) return MSG_TOO_LARGE;
  return undefined;
}

export interface ImportRowError {
  row?: number;
  column?: string;
  message: string;
}

export interface ImportResult {
  ok: boolean;
  status: number;
  message: string;
  errors: ImportRowError[];
  body: unknown;
}

function rowErrors(body: unknown): ImportRowError[] {
  if (!body || typeof body !== 'object') return [];
  const list = (body as { errors?: unknown }).errors;
  if (!Array.isArray(list)) return [];
  return list
    .filter((e): e is Record<string, unknown> => !!e && typeof e === 'object')
    .map((e) => ({
      row: typeof e.row === 'number' ? e.row : undefined,
      column: typeof e.column === 'string' ? e.column : undefined,
      message: String(e.message ?? ''),
    }));
}

export function uploadImport(spec: ResourceSpec, file: File, onProgress: (percent: number) => void): Promise<ImportResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${resourceUrl(spec.name)}/import`);
    xhr.timeout = REQUEST_TIMEOUT_MS * 10;
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    const fail = (message: string) => resolve({ ok: false, status: 0, message, errors: [], body: null });
    xhr.onerror = () => fail(MSG_NO_ANSWER);
    xhr.ontimeout = () => fail(MSG_TIMEOUT);
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        /* keep the text */
      }
      if (xhr.status === 401) reportHttpProblem({ kind: 'unauthorized', url: resourceUrl(spec.name) });
      if (xhr.status === 403) reportHttpProblem({ kind: 'forbidden', url: resourceUrl(spec.name) });
      const ok = xhr.status >= 200 && xhr.status < 300 && xhr.status !== 299;
      onProgress(100);
      resolve({
        ok,
        status: xhr.status,
        message: ok && body && typeof (body as { count?: unknown }).count === 'number'
          ? `导入成功，共${(body as { count: number }).count}条`
          : messageOf(body, ok ? '导入成功' : '导入失败'),
        errors: rowErrors(body),
        body,
      });
    };
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
