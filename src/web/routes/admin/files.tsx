import { useState } from 'react';
import { data } from 'react-router';
import { fileUpdate, folderInput, folderMove, folderQuery } from '../../../contract/admin.ts';
import {
  catalogueImagesResponse,
  fileFolderResponse,
  managedFilesResponse,
} from '../../../contract/admin-answers.ts';
import { adminApi } from '../../admin/api.ts';
import { FileManager } from '../../admin/file-manager.tsx';
import { adminCall, adminWrite, type FormFields, submitAdminForm } from '../../admin/forms.ts';
import { useAdminShop } from '../../admin/text.ts';
import type { ManagedFile } from '../../admin/types.ts';
import { AdminErrorBoundary, AdminLoading, AdminPage } from '../../admin/ui.tsx';
import type { Route } from './+types/files';

/**
 * A folder of the file manager (`?path=`, the root when absent), or a page of the catalogue's own
 * pictures (`?catalogue=<kind>&page=`). The file manager loads it with a fetcher wherever it is
 * shown (a picker sits on another page), so a refusal (a folder deleted meanwhile) is its `error`
 * shown in the manager, not an error page.
 */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const query = new URL(request.url).searchParams;
  const kind = query.get('catalogue');
  const { signal } = request;
  if (kind !== null) {
    const { answer, error } = await adminWrite(() =>
      adminCall(catalogueImagesResponse, 'GET', '/files/catalogue', {
        query: { kind, page: query.get('page') ?? undefined },
        signal,
      }),
    );
    return { catalogue: answer, error };
  }
  const { answer, error } = await adminWrite(() =>
    adminCall(managedFilesResponse, 'GET', '/files', { query: { path: query.get('path') ?? '' }, signal }),
  );
  return { folder: answer, error };
}

export function HydrateFallback() {
  return <AdminLoading />;
}

/** A new folder's name as typed, without the spaces around it. */
const prepareFolder = (fields: FormFields): FormFields => ({
  ...fields,
  name: typeof fields.name === 'string' ? fields.name.trim() : fields.name,
});

const changeFolder = (json: FormFields) => adminApi('PATCH', '/files/folders', { json });
const deleteFolder = (json: FormFields) => adminApi('DELETE', '/files/folders', { json });

/**
 * The file manager's writes (uploads aside, see `file-manager.tsx`): a folder created, moved or
 * deleted, a file renamed, moved or deleted, each checked with the contract's schema of its call.
 * The manager posts here from any page it is shown on; the router then reloads the folder it shows.
 */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const formData = await request.formData();
  const intent = formData.get('intent');
  const file = `/files/${encodeURIComponent(String(formData.get('id') ?? ''))}`;
  switch (intent) {
    case 'create-folder':
      return {
        intent: 'create-folder' as const,
        ...(await submitAdminForm(formData, {
          schema: folderInput,
          prepare: prepareFolder,
          send: (json) => adminCall(fileFolderResponse, 'POST', '/files/folders', { json }),
        })),
      };
    case 'move-folder':
      return { intent, ...(await submitAdminForm(formData, { schema: folderMove, send: changeFolder })) };
    case 'delete-folder':
      return { intent, ...(await submitAdminForm(formData, { schema: folderQuery, send: deleteFolder })) };
    case 'rename-file':
    case 'move-file':
      return {
        intent,
        ...(await submitAdminForm(formData, {
          schema: fileUpdate,
          send: (_fields, json) => adminApi('PATCH', file, { json }),
        })),
      };
    case 'delete-file':
      return { intent, ...(await adminWrite(() => adminApi('DELETE', file))) };
    default:
      throw data(null, { status: 400 });
  }
}

/** The file manager on its own page; the selection shows the file names to use elsewhere. */
export default function FilesPage({ loaderData }: Route.ComponentProps) {
  const { t } = useAdminShop();
  const [selected, setSelected] = useState<ManagedFile[]>([]);
  return (
    <AdminPage title={t('admin-files')}>
      <div className="admin-card">
        <FileManager root={loaderData} selected={selected} onSelectedChange={setSelected} />
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
