/**
 * Whether a dialog or menu has been open at least once (it is open now, or was before). A closed
 * MUI Dialog or Menu still renders its Modal, transition and styled root, and most of the
 * console's never open in a visit: render them from their first opening on, then keep them
 * mounted so every later close and open animates as before.
 */
import { useState } from 'react';

export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  // adjusted while rendering (the first opening renders the dialog in the same pass)
  if (open && !opened) setOpened(true);
  return opened || open;
}
