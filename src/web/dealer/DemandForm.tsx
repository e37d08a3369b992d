/**
 * The dealer portal's car-use demand dialog: the shared form (src/web/components/DemandForm.tsx)
 * with the dealer's car-type tree (comp/dbcCompany/getTree), the portal's notices for the form's
 * first error and recognition with the dealer's token. Each may still be passed in.
 */
import { useMemo } from 'react';
import type { OcrRecognise } from '../components/OcrButton.tsx';
import { DemandDialog as DemandForm, type DemandDialogProps as DemandFormProps } from '../components/DemandForm.tsx';
import { notify } from './notices.ts';
import { dealerCarTypeLoader } from './car-types.ts';
import { dealerFetch } from './http.ts';

export { EMPTY_DEMAND, demandFromRecord, type DemandFormValues } from '../components/DemandForm.tsx';

/** Recognition with the dealer's token (the portal's client shows failures). */
export const dealerRecognise: OcrRecognise = (call, form) =>
  dealerFetch<Record<string, string>>(`api/public/${call}`, { method: 'POST', body: form });

type DealerDefaults = 'loadCarTypes' | 'onInvalid' | 'recognise';
export type DemandDialogProps = Omit<DemandFormProps, DealerDefaults> & Partial<Pick<DemandFormProps, DealerDefaults>>;

export function DemandDialog({ loadCarTypes: carTypeLoader, onInvalid, recognise = dealerRecognise, ...props }: DemandDialogProps) {
  const loadCarTypes = useMemo(() => carTypeLoader ?? dealerCarTypeLoader(), [carTypeLoader]);
  return (
    <DemandForm
      {...props}
      loadCarTypes={loadCarTypes}
      onInvalid={onInvalid ?? ((message) => notify('error', message))}
      recognise={recognise}
    />
  );
}
