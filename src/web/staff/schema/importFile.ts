/**
 * Import: one xlsx of at most 10 MB, POSTed as multipart field `file` to {url}/import with
 * upload progress and cancel. The answer on failure carries the server's message and, when given,
 * row/column errors.
 */
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { resourceUrl } from '../providers/dataProvider.ts';
import { reportHttpProblem } from '../../common/httpEvents.ts';
import { HttpError, messageOf, MSG_CANCELED, REQUEST_TIMEOUT_MS, request } from '../../common/http.ts';
import { messages } from '../../../shared/messages.ts';
import { textOf } from '../../common/text.ts';

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
  /** the user cancelled the upload */
  canceled?: boolean;
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
      message: textOf(e.message),
    }));
}

/**
 * Uploads the file through the console's HTTP client (its XMLHttpRequest adapter, for the upload
 * progress). Every answer resolves: the dialog shows failures itself; 401 and 403 still open the
 * session-expired dialog and /401. `signal` cancels the upload (message 已取消).
 */
export async function uploadImport(
  spec: ResourceSpec,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<ImportResult> {
  const url = `${resourceUrl(spec.name)}/import`;
  const form = new FormData();
  form.append('file', file);
  try {
    const { status, data: body } = await request<unknown>(url, {
      method: 'POST',
      body: form,
      timeoutMs: REQUEST_TIMEOUT_MS * 10,
      quiet: true,
      signal,
      onProgress: (p) => onProgress(p.percent ?? 0),
    });
    onProgress(100);
    const ok = status !== 299;
    return {
      ok,
      status,
      message:
        ok && body && typeof (body as { count?: unknown }).count === 'number'
          ? `导入成功，共${(body as { count: number }).count}条`
          : messageOf(body, ok ? '导入成功' : '导入失败'),
      errors: rowErrors(body),
      body,
    };
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    // an answer came: the whole file was sent
    if (err.status > 0) onProgress(100);
    if (err.status === 401) reportHttpProblem({ kind: 'unauthorized', url: resourceUrl(spec.name) });
    if (err.status === 403) reportHttpProblem({ kind: 'forbidden', url: resourceUrl(spec.name) });
    const canceled = err.message === MSG_CANCELED && err.status === 0;
    return {
      ok: false,
      status: err.status,
      message: err.status === 0 ? err.message : messageOf(err.body, '导入失败'),
      errors: rowErrors(err.body),
      body: err.body ?? null,
      ...(canceled ? { canceled: true } : {}),
    };
  }
}
