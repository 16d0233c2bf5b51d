import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { CATALOGUE_PICTURE_KINDS, MAX_UPLOAD_BYTES } from '../../contract/admin.ts';
import {
  catalogueImagesResponse,
  managedFileResponse,
  managedFilesResponse,
} from '../../contract/admin-answers.ts';
import { errorResponse } from '../../contract/catalog.ts';
import { translateError } from '../../contract/error-messages.ts';
import type { Locale } from '../../contract/locale.ts';
import { FormAlert } from '../components/form-field.tsx';
import { AdminApiError, adminApi, adminUrl, type FieldErrors } from './api.ts';
import { adminCall } from './forms.ts';
import { FolderIcon } from './icons.tsx';
import { useAdminShop } from './text.ts';
import type { CataloguePictureKind, CataloguePictures, Folder, ManagedFile } from './types.ts';
import { useAdminFormat, useMayDelete } from './ui.tsx';

/**
 * The file manager: folders below the uploads root, the pictures in the open folder, and an upload
 * queue. Files are sent one at a time with XMLHttpRequest so that each shows its progress; a
 * cancel aborts the request and resets the progress; a finished upload joins the grid selected.
 * Used by the Files page and, as a picker, by the product editor.
 */

type UploadStatus = 'queued' | 'uploading' | 'done' | 'failed' | 'cancelled';

interface Upload {
  key: string;
  file: File;
  /** The folder it goes to (the one open when it was chosen). */
  path: string;
  loaded: number;
  total: number;
  status: UploadStatus;
  error?: string;
  /** The shop refused the file itself (too large, not a picture): sending it again cannot help. */
  refused?: boolean;
}

const ACTIVE: UploadStatus[] = ['queued', 'uploading'];

const CATALOGUE_LABELS = {
  products: 'admin-catalogue-products',
  projects: 'admin-catalogue-projects',
  partners: 'admin-catalogue-partners',
} as const;

/** One entry of the file manager: an upload by its row, a catalogue picture (no row) by its address. */
const sameFile = (one: ManagedFile, other: ManagedFile) => one.id === other.id && one.url === other.url;

/** A catalogue picture as a pickable entry: named after what shows it; it has no row (id 0). */
const catalogueFile = (picture: CataloguePictures['list'][number], locale: Locale): ManagedFile => ({
  id: 0,
  name: picture.name,
  originalName: picture.usedBy[locale],
  folder: '',
  url: picture.url,
  size: 0,
  width: null,
  height: null,
  date: '',
});

const folderName = (path: string) => path.split('/').pop() ?? path;
const join = (path: string, name: string) => (path === '' ? name : `${path}/${name}`);

function firstError(error: unknown, fallback: string) {
  if (error instanceof AdminApiError) {
    const fields = Object.values(error.fieldErrors).flat();
    return fields[0] ?? error.message;
  }
  return fallback;
}

export function FileManager({
  selected,
  onSelectedChange,
}: {
  selected: ManagedFile[];
  onSelectedChange: (files: ManagedFile[]) => void;
}) {
  const { t, locale } = useAdminShop();
  const format = useAdminFormat();
  const mayDelete = useMayDelete();
  const uploadId = useId();
  const [path, setPath] = useState('');
  const [folder, setFolder] = useState<Folder | null>(null);
  const [fetching, setFetching] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [queue, setQueue] = useState<Upload[]>([]);
  const [newFolder, setNewFolder] = useState('');
  const [folderErrors, setFolderErrors] = useState<FieldErrors>({});
  const requests = useRef(new Map<string, XMLHttpRequest>());
  // The catalogue's own pictures, shown instead of a folder while one of their kinds is open.
  const [catalogue, setCatalogue] = useState<CataloguePictures | null>(null);
  // Upload callbacks outlive renders: they read the latest folder and selection from here.
  const latest = useRef({ path, selected, onSelectedChange });
  latest.current = { path, selected, onSelectedChange };

  // Only the answer to the latest listing counts (a slow earlier one must not reopen its folder).
  const lastListing = useRef(0);
  const open = useCallback(
    async (target: string) => {
      const listing = ++lastListing.current;
      setFetching(true);
      setError(undefined);
      try {
        const answer = await adminCall(managedFilesResponse, 'GET', '/files', { query: { path: target } });
        if (listing !== lastListing.current) return;
        setFolder({ path: answer.path, folders: answer.folders, files: answer.files });
        setPath(answer.path);
      } catch (failure) {
        if (listing === lastListing.current) setError(firstError(failure, t('admin-request-failed')));
      } finally {
        if (listing === lastListing.current) setFetching(false);
      }
    },
    [t],
  );

  useEffect(() => {
    void open('');
  }, [open]);

  // Stop every transfer when the manager goes away (the dialog closes, the page changes).
  useEffect(() => {
    const running = requests.current;
    return () => {
      for (const request of running.values()) request.abort();
      running.clear();
    };
  }, []);

  const update = (key: string, change: Partial<Upload>) =>
    setQueue((items) => items.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const finished = (upload: Upload, file: ManagedFile) => {
    update(upload.key, { status: 'done', loaded: upload.file.size, total: upload.file.size });
    if (upload.path === latest.current.path) {
      setFolder((current) =>
        current && !current.files.some((existing) => existing.id === file.id)
          ? { ...current, files: [file, ...current.files] }
          : current,
      );
    }
    const { selected: chosen, onSelectedChange: choose } = latest.current;
    if (!chosen.some((existing) => existing.id === file.id)) choose([...chosen, file]);
  };

  const start = (upload: Upload) => {
    const request = new XMLHttpRequest();
    requests.current.set(upload.key, request);
    update(upload.key, { status: 'uploading', loaded: 0, error: undefined });
    request.upload.addEventListener('progress', (event) => {
      update(upload.key, {
        loaded: event.loaded,
        total: event.lengthComputable ? event.total : upload.file.size,
      });
    });
    request.addEventListener('load', () => {
      requests.current.delete(upload.key);
      const saved = managedFileResponse.safeParse(request.response);
      if (request.status === 200 && saved.success) {
        finished(upload, saved.data.file);
      } else {
        const refusal = errorResponse.partial().safeParse(request.response).data;
        const text =
          Object.values(refusal?.errors ?? {}).flat()[0] ?? refusal?.message ?? t('admin-upload-failed');
        // A 4xx refusal is about the file (or the folder): the same file would be refused again.
        const refused = request.status >= 400 && request.status < 500;
        update(upload.key, { status: 'failed', loaded: 0, error: text, refused });
      }
    });
    request.addEventListener('error', () => {
      requests.current.delete(upload.key);
      update(upload.key, { status: 'failed', loaded: 0, error: t('admin-upload-failed') });
    });
    request.addEventListener('abort', () => {
      requests.current.delete(upload.key);
      update(upload.key, { status: 'cancelled', loaded: 0 });
    });
    request.open('POST', adminUrl('/files'));
    request.responseType = 'json';
    request.setRequestHeader('accept', 'application/json');
    const body = new FormData();
    body.append('locale', locale);
    body.append('path', upload.path);
    body.append('file', upload.file, upload.file.name);
    request.send(body);
  };

  // One transfer at a time: when none runs, the next queued file starts.
  // biome-ignore lint/correctness/useExhaustiveDependencies: start only reads refs and stable setters
  useEffect(() => {
    if (queue.some((item) => item.status === 'uploading')) return;
    const next = queue.find((item) => item.status === 'queued');
    if (next) start(next);
  }, [queue]);

  const enqueue = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const added = [...files].map((file, index) => ({
      key: `${Date.now()}-${index}-${file.name}`,
      file,
      path,
      loaded: 0,
      total: file.size,
      // Larger than the shop takes: refused here at once rather than after sending megabytes.
      ...(file.size > MAX_UPLOAD_BYTES
        ? { status: 'failed' as const, error: translateError(locale, 'file-too-large'), refused: true }
        : { status: 'queued' as const }),
    }));
    setQueue((items) => [...items, ...added]);
  };

  const cancel = (upload: Upload) => {
    const request = requests.current.get(upload.key);
    if (request) request.abort();
    else update(upload.key, { status: 'cancelled', loaded: 0 });
  };

  const toggle = (file: ManagedFile) =>
    onSelectedChange(
      selected.some((existing) => sameFile(existing, file))
        ? selected.filter((existing) => !sameFile(existing, file))
        : [...selected, file],
    );

  const createFolder = async (event: FormEvent) => {
    event.preventDefault();
    // React passes events up through portals: a form the manager is shown from must not submit.
    event.stopPropagation();
    setFolderErrors({});
    try {
      await adminApi('POST', '/files/folders', { json: { path, name: newFolder.trim() } });
      setNewFolder('');
      await open(path);
    } catch (failure) {
      if (failure instanceof AdminApiError) {
        setFolderErrors({
          name: [...(failure.fieldErrors.name ?? []), ...(failure.fieldErrors.path ?? [])].slice(0, 1),
        });
        if (!failure.fieldErrors.name && !failure.fieldErrors.path)
          setFolderErrors({ name: [failure.message] });
      } else setError(t('admin-request-failed'));
    }
  };

  const deleteFolder = async (target: string) => {
    if (!window.confirm(t('admin-confirm-delete-folder', { name: folderName(target) }))) return;
    try {
      await adminApi('DELETE', '/files/folders', { json: { path: target } });
      await open(path);
    } catch (failure) {
      setError(firstError(failure, t('admin-request-failed')));
    }
  };

  const openCatalogue = async (kind: CataloguePictureKind, page = 1) => {
    ++lastListing.current;
    setError(undefined);
    try {
      setCatalogue(
        await adminCall(catalogueImagesResponse, 'GET', '/files/catalogue', { query: { kind, page } }),
      );
    } catch (failure) {
      setError(firstError(failure, t('admin-request-failed')));
    }
  };
  const openFolder = (target: string) => {
    setCatalogue(null);
    void open(target);
  };

  /** Renames a file or moves it to another folder (both prompt; an empty answer changes nothing). */
  const changeFile = async (file: ManagedFile, change: 'name' | 'folder') => {
    const answer = window.prompt(
      t(change === 'name' ? 'admin-file-rename-prompt' : 'admin-file-move-prompt'),
      change === 'name' ? file.originalName : file.folder,
    );
    if (answer === null || (change === 'name' && answer.trim() === '')) return;
    try {
      await adminApi('PATCH', `/files/${file.id}`, { json: { [change]: answer.trim() } });
      await open(path);
    } catch (failure) {
      setError(firstError(failure, t('admin-request-failed')));
    }
  };

  const moveFolder = async (target: string) => {
    const answer = window.prompt(t('admin-folder-move-prompt'), target);
    if (answer === null || answer.trim() === '' || answer.trim() === target) return;
    try {
      await adminApi('PATCH', '/files/folders', { json: { path: target, to: answer.trim() } });
      await open(path);
    } catch (failure) {
      setError(firstError(failure, t('admin-request-failed')));
    }
  };

  const deleteFile = async (file: ManagedFile) => {
    if (!window.confirm(t('admin-confirm-delete-file', { name: file.originalName }))) return;
    try {
      await adminApi('DELETE', `/files/${file.id}`);
      onSelectedChange(selected.filter((existing) => existing.id !== file.id));
      setFolder((current) =>
        current
          ? { ...current, files: current.files.filter((existing) => existing.id !== file.id) }
          : current,
      );
    } catch (failure) {
      setError(firstError(failure, t('admin-request-failed')));
    }
  };

  const crumbs = path === '' ? [] : path.split('/');
  const statusText: Record<UploadStatus, string> = {
    queued: t('admin-upload-queued'),
    uploading: t('admin-upload-uploading'),
    done: t('admin-upload-done'),
    failed: t('admin-upload-failed'),
    cancelled: t('admin-upload-cancelled'),
  };
  const folderInputId = `${uploadId}-folder`;

  return (
    <div className="file-manager" aria-busy={fetching}>
      <nav className="file-manager__crumbs" aria-label={t('admin-folder-path')}>
        <ol>
          <li>
            <button
              type="button"
              className="link-button"
              onClick={() => openFolder('')}
              aria-current={path === '' && !catalogue ? 'location' : undefined}
            >
              {t('admin-files-root')}
            </button>
          </li>
          {crumbs.map((name, index) => {
            const target = crumbs.slice(0, index + 1).join('/');
            return (
              <li key={target}>
                <button
                  type="button"
                  className="link-button"
                  onClick={() => openFolder(target)}
                  aria-current={target === path && !catalogue ? 'location' : undefined}
                >
                  {name}
                </button>
              </li>
            );
          })}
        </ol>
      </nav>

      {error ? <FormAlert>{error}</FormAlert> : null}

      <nav className="file-manager__catalogue" aria-label={t('admin-catalogue-pictures')}>
        <span className="admin-muted">{t('admin-catalogue-pictures')}:</span>
        {CATALOGUE_PICTURE_KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            className="link-button"
            aria-pressed={catalogue?.kind === kind}
            onClick={() => openCatalogue(kind)}
          >
            {t(CATALOGUE_LABELS[kind])}
          </button>
        ))}
      </nav>

      {catalogue ? (
        <section aria-label={t(CATALOGUE_LABELS[catalogue.kind])}>
          {catalogue.list.length === 0 ? (
            <p className="admin-muted">{t('admin-folder-empty')}</p>
          ) : (
            <ul className="file-manager__files">
              {catalogue.list.map((picture) => {
                const file = catalogueFile(picture, locale);
                const isSelected = selected.some((existing) => sameFile(existing, file));
                return (
                  <li
                    key={picture.url}
                    className={isSelected ? 'file-card file-card--selected' : 'file-card'}
                  >
                    <label className="file-card__pick">
                      <input type="checkbox" checked={isSelected} onChange={() => toggle(file)} />
                      <img src={picture.url} alt="" loading="lazy" />
                      <span className="file-card__name">{file.originalName}</span>
                    </label>
                    <span className="file-card__meta">{picture.name}</span>
                  </li>
                );
              })}
            </ul>
          )}
          {catalogue.lastPage > 1 ? (
            <p className="admin-actions">
              <button
                type="button"
                className="button"
                disabled={catalogue.currentPage <= 1}
                onClick={() => openCatalogue(catalogue.kind, catalogue.currentPage - 1)}
              >
                {t('admin-previous-page')}
              </button>
              <span>{t('admin-page-of', { page: catalogue.currentPage, last: catalogue.lastPage })}</span>
              <button
                type="button"
                className="button"
                disabled={catalogue.currentPage >= catalogue.lastPage}
                onClick={() => openCatalogue(catalogue.kind, catalogue.currentPage + 1)}
              >
                {t('admin-next-page')}
              </button>
            </p>
          ) : null}
        </section>
      ) : (
        <>
          <div className="file-manager__tools">
            <div className="file-manager__upload">
              <label htmlFor={uploadId} className="button button--primary">
                {t('admin-upload-files')}
              </label>
              <input
                id={uploadId}
                className="visually-hidden"
                type="file"
                multiple
                accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
                onChange={(event) => {
                  enqueue(event.target.files);
                  event.target.value = '';
                }}
              />
            </div>
            <form className="file-manager__new-folder" onSubmit={createFolder} noValidate>
              <label htmlFor={folderInputId}>{t('admin-new-folder')}</label>
              <div className="admin-inline">
                <input
                  id={folderInputId}
                  value={newFolder}
                  onChange={(event) => setNewFolder(event.target.value)}
                  pattern="[\p{Ll}\p{Lo}\p{Nd}_\-]{1,40}"
                  aria-invalid={folderErrors.name ? true : undefined}
                  aria-describedby={`${folderInputId}-note`}
                />
                <button type="submit" className="button">
                  {t('admin-create-folder')}
                </button>
              </div>
              <p
                id={`${folderInputId}-note`}
                className={folderErrors.name ? 'form-field__error' : 'form-field__hint'}
              >
                {folderErrors.name?.join(' ') ?? t('admin-folder-name-hint')}
              </p>
            </form>
          </div>

          {queue.length > 0 ? (
            <section className="upload-queue" aria-label={t('admin-upload-queue')}>
              <ul>
                {queue.map((upload) => (
                  <li key={upload.key} className={`upload-queue__item upload-queue__item--${upload.status}`}>
                    <span className="upload-queue__name">{upload.file.name}</span>
                    <progress
                      max={upload.total || 1}
                      value={upload.loaded}
                      aria-label={t('admin-upload-progress', { name: upload.file.name })}
                    />
                    <span
                      className="upload-queue__status"
                      role={upload.status === 'failed' ? 'alert' : undefined}
                    >
                      {upload.error && upload.status === 'failed' ? upload.error : statusText[upload.status]}
                    </span>
                    {ACTIVE.includes(upload.status) ? (
                      <button type="button" className="link-button" onClick={() => cancel(upload)}>
                        {t('admin-cancel')}
                        <span className="visually-hidden"> {upload.file.name}</span>
                      </button>
                    ) : upload.status !== 'done' && !upload.refused ? (
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => update(upload.key, { status: 'queued', loaded: 0, error: undefined })}
                      >
                        {t('admin-retry')}
                        <span className="visually-hidden"> {upload.file.name}</span>
                      </button>
                    ) : (
                      <span />
                    )}
                  </li>
                ))}
              </ul>
              {queue.some((upload) => !ACTIVE.includes(upload.status)) ? (
                <button
                  type="button"
                  className="link-button upload-queue__clear"
                  onClick={() => setQueue((items) => items.filter((item) => ACTIVE.includes(item.status)))}
                >
                  {t('admin-clear-finished')}
                </button>
              ) : null}
            </section>
          ) : null}

          {folder && folder.folders.length > 0 ? (
            <ul className="file-manager__folders" aria-label={t('admin-folders')}>
              {folder.folders.map((name) => (
                <li key={name}>
                  <button
                    type="button"
                    className="file-manager__folder"
                    onClick={() => openFolder(join(path, name))}
                  >
                    <FolderIcon /> {name}
                  </button>
                  <button type="button" className="link-button" onClick={() => moveFolder(join(path, name))}>
                    {t('admin-folder-move')}
                    <span className="visually-hidden"> {name}</span>
                  </button>
                  {mayDelete ? (
                    <button
                      type="button"
                      className="link-button file-manager__delete"
                      onClick={() => deleteFolder(join(path, name))}
                    >
                      {t('admin-delete')}
                      <span className="visually-hidden"> {name}</span>
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : null}

          {folder === null ? (
            fetching ? (
              <p role="status">{t('admin-loading')}</p>
            ) : null
          ) : folder.files.length === 0 ? (
            <p className="admin-muted">{t('admin-folder-empty')}</p>
          ) : (
            <ul className="file-manager__files" aria-label={t('admin-files-in-folder')}>
              {folder.files.map((file) => {
                const isSelected = selected.some((existing) => existing.id === file.id);
                return (
                  <li key={file.id} className={isSelected ? 'file-card file-card--selected' : 'file-card'}>
                    <label className="file-card__pick">
                      <input type="checkbox" checked={isSelected} onChange={() => toggle(file)} />
                      <img
                        src={file.url}
                        alt=""
                        loading="lazy"
                        width={file.width ?? undefined}
                        height={file.height ?? undefined}
                      />
                      <span className="file-card__name">{file.originalName}</span>
                    </label>
                    <span className="file-card__meta">
                      {file.width && file.height ? `${file.width}×${file.height} · ` : ''}
                      {format.fileSize(file.size)}
                    </span>
                    <span className="file-card__actions">
                      <button type="button" className="link-button" onClick={() => changeFile(file, 'name')}>
                        {t('admin-file-rename')}
                        <span className="visually-hidden"> {file.originalName}</span>
                      </button>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => changeFile(file, 'folder')}
                      >
                        {t('admin-file-move')}
                        <span className="visually-hidden"> {file.originalName}</span>
                      </button>
                    </span>
                    {mayDelete ? (
                      <button
                        type="button"
                        className="link-button file-card__delete"
                        onClick={() => deleteFile(file)}
                      >
                        {t('admin-delete')}
                        <span className="visually-hidden"> {file.originalName}</span>
                      </button>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
