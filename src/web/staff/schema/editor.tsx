/**
 * Shared state of a generated screen: the dialog (create / edit / view) and deletes,
 * used by the toolbar and by the per-row action column.
 */
import { createContext, useContext } from 'react';
import type { Identifier, RaRecord } from 'react-admin';

export interface EditorApi {
  openCreate: () => void;
  openEdit: (record: RaRecord) => void;
  /** asks for confirmation (bulk or single wording), then deletes */
  requestDelete: (ids: Identifier[], single: boolean) => void;
  openImport: () => void;
  /** 历史记录 of a record */
  openHistory?: (record: RaRecord) => void;
}

export const EditorContext = createContext<EditorApi | null>(null);

export function useEditor(): EditorApi {
  const editor = useContext(EditorContext);
  if (!editor) throw new Error('useEditor must be used inside a generated list');
  return editor;
}
