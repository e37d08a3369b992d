/** Export: GET {url}/download with the list's filters and sort, saved as `${title}数据.xlsx`; download progress and cancel. */
import type { SortPayload } from 'react-admin';
import type { ResourceSpec } from '../../../shared/resource-spec.ts';
import { listQuery, resourceUrl } from '../providers/dataProvider.ts';
import { request, type TransferProgress } from '../../common/http.ts';

/** Status 299: the export runs in the background; the result arrives as a message. */
export const ASYNC_EXPORT_STATUS = 299;

export function exportFileName(spec: ResourceSpec): string {
  return `${spec.title}数据.xlsx`;
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function templateFileName(spec: ResourceSpec): string {
  return `${spec.title}导入模板.xlsx`;
}

/** 下载模板: GET {url}/template (the import columns, an example row, drop-down lists), saved as `${title}导入模板.xlsx`. */
export async function downloadTemplate(spec: ResourceSpec): Promise<void> {
  const response = await request<Blob>(`${resourceUrl(spec.name)}/template`, { responseType: 'blob' });
  saveBlob(response.data, templateFileName(spec));
}

/** Downloads the export; resolves 'async' when the server answered 299. */
export async function exportResource(
  spec: ResourceSpec,
  filter: Record<string, unknown>,
  sort?: SortPayload,
  transfer: { onProgress?: (progress: TransferProgress) => void; signal?: AbortSignal } = {},
): Promise<'saved' | 'async'> {
  const query = listQuery({ filter, sort });
  delete query.page;
  delete query.size;
  const response = await request<Blob>(`${resourceUrl(spec.name)}/download`, {
    query,
    responseType: 'blob',
    timeoutMs: 600_000,
    ...transfer,
  });
  if (response.status === ASYNC_EXPORT_STATUS) return 'async';
  saveBlob(response.data, exportFileName(spec));
  return 'saved';
}
