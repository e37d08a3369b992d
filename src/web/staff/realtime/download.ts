/**
 * Follows the link of a finished background export: the file is fetched with the session's
 * token (only its requester may have it) and saved under the name the server gave.
 */
import { request } from '../../common/http.ts';
import { saveBlob } from '../schema/exportFile.ts';

/** Only links to this API are followed. */
export function isDownloadLink(url: string): boolean {
  return /^\/api\/downloadFile\/[0-9a-f-]{36}$/.test(url);
}

export async function downloadLink(url: string, fileName = '导出数据.xlsx'): Promise<void> {
  if (!isDownloadLink(url)) return;
  const res = await request<Blob>(url, { responseType: 'blob', timeoutMs: 600_000 });
  saveBlob(res.data, fileName);
}
