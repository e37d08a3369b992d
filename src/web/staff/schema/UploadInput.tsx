/**
 * `x-input: "upload"`: the field holds the address of an uploaded picture. 上传图片 sends the chosen
 * file to POST /api/pictures through the console's HTTP client with a progress bar (percentage,
 * 取消) and puts the answer's `url` into the field; the address can also be typed.
 */
import { useRef, useState, type ChangeEvent, type ComponentProps } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { TextInput, useNotify } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { HttpError, MSG_CANCELED, request, type TransferProgress } from '../../common/http.ts';
import { TransferProgressBar } from '../../components/TransferProgress.tsx';

export const PICTURE_UPLOAD_URL = '/api/pictures';
const PICTURE_TYPES = 'image/jpeg,image/png,image/gif,image/webp,image/bmp';

export function UploadInput(props: ComponentProps<typeof TextInput> & { source: string }) {
  const { setValue } = useFormContext();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const transfer = useRef<AbortController | null>(null);
  const [progress, setProgress] = useState<TransferProgress | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const form = new FormData();
    form.append('file', file);
    const controller = new AbortController();
    transfer.current = controller;
    setProgress({ percent: 0, loaded: 0, total: file.size });
    try {
      const { data } = await request<{ url: string }>(PICTURE_UPLOAD_URL, {
        method: 'POST',
        body: form,
        onProgress: setProgress,
        signal: controller.signal,
      });
      setValue(props.source, data.url, { shouldDirty: true, shouldValidate: true });
    } catch (err) {
      // other failures are shown by the HTTP client
      if (err instanceof HttpError && err.message === MSG_CANCELED) notify(MSG_CANCELED, { type: 'info' });
    } finally {
      transfer.current = null;
      setProgress(null);
    }
  };

  return (
    <Box sx={{ width: '100%' }}>
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <TextInput {...props} />
        {props.readOnly ? null : (
          <Button variant="outlined" sx={{ mt: 1, flexShrink: 0 }} disabled={progress !== null} onClick={() => input.current?.click()}>
            上传图片
          </Button>
        )}
        <input
          ref={input}
          type="file"
          hidden
          accept={PICTURE_TYPES}
          onChange={(event) => void choose(event)}
          data-testid={`upload-${props.source}`}
        />
      </Box>
      {progress ? <TransferProgressBar progress={progress} label="上传进度" onCancel={() => transfer.current?.abort()} /> : null}
    </Box>
  );
}
