import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { FileManager } from './file-manager.tsx';
import { useAdminShop } from './text.ts';
import type { ManagedFile } from './types.ts';

/**
 * The file manager in a modal dialog, to pick pictures for something: a product's images, a
 * picture in a rich text, a project's or partner's logo. Picking uploads too (an upload joins the
 * selection). `single` keeps only the last picture chosen. The dialog goes into the page's body, so
 * it is never inside the form it is opened from (the file manager has a form of its own).
 */
export function FilePicker({
  open,
  heading,
  pickLabel,
  single = false,
  onPick,
  onClose,
}: {
  open: boolean;
  heading: string;
  /** The confirm button's text for this many chosen pictures. */
  pickLabel: (count: number) => string;
  single?: boolean;
  onPick: (files: ManagedFile[]) => void;
  onClose: () => void;
}) {
  const { t } = useAdminShop();
  const dialog = useRef<HTMLDialogElement>(null);
  const [picked, setPicked] = useState<ManagedFile[]>([]);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      setPicked([]);
      element.showModal();
    } else if (!open && element.open) element.close();
  }, [open]);

  const headingId = `file-picker-${heading.replace(/\W+/g, '-').toLowerCase()}`;
  if (typeof document === 'undefined') return null;
  return createPortal(
    <dialog ref={dialog} className="admin-dialog" aria-labelledby={headingId} onClose={onClose}>
      {open ? (
        <>
          <header className="admin-dialog__head">
            <h2 id={headingId}>{heading}</h2>
            <button type="button" className="link-button" onClick={onClose}>
              {t('admin-close')}
            </button>
          </header>
          <FileManager
            selected={picked}
            onSelectedChange={(files) => setPicked(single ? files.slice(-1) : files)}
          />
          <footer className="admin-dialog__foot">
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                onPick(picked);
                onClose();
              }}
              disabled={picked.length === 0}
            >
              {pickLabel(picked.length)}
            </button>
            <button type="button" className="button" onClick={onClose}>
              {t('admin-cancel')}
            </button>
          </footer>
        </>
      ) : null}
    </dialog>,
    document.body,
  );
}
