import { useState } from 'react';
import { FileManager } from '../../admin/file-manager.tsx';
import { useAdminShop } from '../../admin/text.ts';
import type { ManagedFile } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminPage } from '../../admin/ui.tsx';

/** The file manager on its own page; the selection shows the file names to use elsewhere. */
export default function FilesPage() {
  const { t } = useAdminShop();
  const [selected, setSelected] = useState<ManagedFile[]>([]);
  return (
    <AdminPage title={t('admin-files')}>
      <div className="admin-card">
        <FileManager selected={selected} onSelectedChange={setSelected} />
      </div>
      {selected.length > 0 ? (
        <section className="admin-card" aria-labelledby="selected-files">
          <h2 id="selected-files">{t('admin-selected-files', { count: selected.length })}</h2>
          <ul className="admin-selected-files">
            {selected.map((file) => (
              <li key={file.id}>
                <span>{file.originalName}</span> <code>{file.name}</code>
              </li>
            ))}
          </ul>
          <p className="admin-hint">{t('admin-selected-files-hint')}</p>
        </section>
      ) : null}
    </AdminPage>
  );
}

export function ErrorBoundary() {
  return <AdminErrorBoundary />;
}
