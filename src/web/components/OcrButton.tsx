/**
 * 识别 buttons: pick (or, on a phone, take) a picture and send it to a recognition call
 * (POST api/public/getCph|getJz|getXsz|getVin|getYhk); the answer's fields go to `onResult`, and
 * the screen fills its inputs from them. Failures are shown by the screen's HTTP client
 * (未识别到车牌号，请重新拍摄清晰的照片, OCR服务未配置, ...).
 */
import { useRef, useState } from 'react';
import Button from '@mui/material/Button';
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';

import type { OcrCall } from '../../shared/ocr.ts';

export type { OcrCall };

/** sends the picture (multipart field `file`) to `api/public/{call}` with the screen's own client */
export type OcrRecognise = (call: OcrCall, form: FormData) => Promise<Record<string, string>>;

export interface OcrButtonProps {
  call: OcrCall;
  label: string;
  recognise: OcrRecognise;
  onResult: (fields: Record<string, string>) => void;
  disabled?: boolean;
}

export function OcrButton({ call, label, recognise, onResult, disabled }: OcrButtonProps) {
  const input = useRef<HTMLInputElement | null>(null);
  const [busy, setBusy] = useState(false);

  async function picked(file: File | undefined) {
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    setBusy(true);
    try {
      onResult(await recognise(call, form));
    } catch {
      /* the client has shown the message */
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  }

  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<PhotoCameraOutlinedIcon fontSize="small" />}
        disabled={disabled || busy}
        onClick={() => input.current?.click()}
        data-ocr={call}
      >
        {busy ? '识别中...' : label}
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        accept="image/jpeg,image/png,image/bmp"
        capture="environment"
        aria-label={label}
        data-ocr-input={call}
        onChange={(e) => void picked(e.target.files?.[0])}
      />
    </>
  );
}
