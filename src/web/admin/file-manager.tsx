import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { CATALOGUE_PICTURE_KINDS, MAX_UPLOAD_BYTES } from '../../contract/admin.ts';
import { managedFileResponse } from '../../contract/admin-answers.ts';
import { errorResponse } from '../../contract/catalog.ts';
import { translateError } from '../../contract/error-messages.ts';
import type { Locale } from '../../contract/locale.ts';
import { FormAlert } from '../components/form-field.tsx';
import type { clientAction as filesAction, clientLoader as filesLoader } from '../routes/admin/files.tsx';
import { adminUrl } from './api.ts';
import { resultAlert } from './forms.ts';
import { FolderIcon } from './icons.tsx';
import { useAdminShop } from './text.ts';
import type { CataloguePictureKind, CataloguePictures, ManagedFile } from './types.ts';
import { useAdminFormat, useMayDelete } from './ui.tsx';

/**
 * The file manager: folders below the uploads root, the pictures in the open folder, and an upload
 * queue. Used by the Files page and, as a picker, by the editors of other pages, so it reads and
 * writes through the Files page's route wherever it is shown: a folder or the catalogue's pictures
 * are a fetcher's load of its `clientLoader`, a folder or file changed a fetcher's submit to its
 * `clientAction` (after which the router reads the open folder again).
 *
 * Uploads alone go to the API with XMLHttpRequest, one file at a time: its upload progress events
 * let each file show how much of it is sent, which neither fetch nor a fetcher can tell. A cancel
 * aborts the request and resets the progress; a finished upload joins the grid selected.
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

/** The Files page's route: the manager's reads and writes, whichever page shows it. */
const FILES_ROUTE = '/admin/files';
const folderAddress = (path: string) => `${FILES_ROUTE}?${new URLSearchParams({ path })}`;
const catalogueAddress = (kind: CataloguePictureKind, page: number) =>
  `${FILES_ROUTE}?${new URLSearchParams({ catalogue: kind, page: String(page) })}`;

/** What the Files route's loader read: a folder or a page of catalogue pictures, or why not. */
export type FilesListing = Awaited<ReturnType<typeof filesLoader>>;

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

/**
 * What a refused write of the Files route says: a field's text first (the API's message for a
 * field it refuses is a general one), else the message.
 */
function refusalText(outcome: Awaited<ReturnType<typeof filesAction>> | null | undefined) {
  // A fetcher's data is null once reset (a folder opened after a refusal).
  if (!outcome) return undefined;
  if (!('ok' in outcome)) return outcome.error;
  if (outcome.ok) return undefined;
  const { message, errors } = resultAlert(outcome.result);
  return Object.values(errors).flat()[0] ?? message;
}

const folderName = (path: string) => path.split('/').pop() ?? path;
const join = (path: string, name: string) => (path === '' ? name : `${path}/${name}`);

export function FileManager({
  root,
  selected,
  onSelectedChange,
}: {
  /** The root folder as the Files page's loader read it; a picker loads it when it opens. */
  root?: FilesListing;
  selected: ManagedFile[];
  onSelectedChange: (files: ManagedFile[]) => void;
}) {
  const { t, locale } = useAdminShop();
  const format = useAdminFormat();
  const mayDelete = useMayDelete();
  const uploadId = useId();
  const folderBrowser = useFetcher<typeof filesLoader>();
  // The catalogue's own pictures, shown instead of a folder while one of their kinds is open.
  const catalogueBrowser = useFetcher<typeof filesLoader>();
  const writer = useFetcher<typeof filesAction>();
  const folderMaker = useFetcher<typeof filesAction>();
  const [queue, setQueue] = useState<Upload[]>([]);
  const requests = useRef(new Map<string, XMLHttpRequest>());

  const listing = folderBrowser.data ?? root;
  const folder = listing && 'folder' in listing ? listing.folder : undefined;
  const path = folder?.path ?? '';
  const catalogue =
    catalogueBrowser.data && 'catalogue' in catalogueBrowser.data
      ? catalogueBrowser.data.catalogue
      : undefined;
  const fetching = folderBrowser.state !== 'idle' || catalogueBrowser.state !== 'idle';
  const error = refusalText(writer.data) ?? catalogueBrowser.data?.error ?? listing?.error;
  const folderOutcome = folderMaker.data?.intent === 'create-folder' ? folderMaker.data : undefined;
  const folderError = refusalText(folderOutcome);
  // A folder made starts the name field afresh.
  const madeFolder = folderOutcome?.ok === true ? folderOutcome.answer.path : '';

  // Upload callbacks outlive renders: they read the latest folder and selection from here.
  const latest = useRef({ path, selected, onSelectedChange });
  latest.current = { path, selected, onSelectedChange };

  const { load: loadFolder } = folderBrowser;
  const needsRoot = root === undefined;
  useEffect(() => {
    if (needsRoot) void loadFolder(folderAddress(''));
  }, [needsRoot, loadFolder]);

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
    // The upload went to the API, not through the router: the folder shown is read again.
    if (upload.path === latest.current.path) void loadFolder(folderAddress(upload.path));
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

  /** A folder or file changed through the Files route's action; the router then reads the folder again. */
  const write = (fields: Record<string, string>) =>
    writer.submit(fields, { method: 'post', action: FILES_ROUTE });

  const deleteFolder = (target: string) => {
    if (window.confirm(t('admin-confirm-delete-folder', { name: folderName(target) }))) {
      void write({ intent: 'delete-folder', path: target });
    }
  };

  const openFolder = (target: string) => {
    catalogueBrowser.reset();
    writer.reset();
    void loadFolder(folderAddress(target));
  };
  const openCatalogue = (kind: CataloguePictureKind, page = 1) => {
    writer.reset();
    void catalogueBrowser.load(catalogueAddress(kind, page));
  };

  /** Renames a file or moves it to another folder (both prompt; an empty answer changes nothing). */
  const changeFile = (file: ManagedFile, change: 'name' | 'folder') => {
    const answer = window.prompt(
      t(change === 'name' ? 'admin-file-rename-prompt' : 'admin-file-move-prompt'),
      change === 'name' ? file.originalName : file.folder,
    );
    if (answer === null || (change === 'name' && answer.trim() === '')) return;
    void write({
      intent: change === 'name' ? 'rename-file' : 'move-file',
      id: String(file.id),
      [change]: answer.trim(),
    });
  };

  const moveFolder = (target: string) => {
    const answer = window.prompt(t('admin-folder-move-prompt'), target);
    if (answer === null || answer.trim() === '' || answer.trim() === target) return;
    void write({ intent: 'move-folder', path: target, to: answer.trim() });
  };

  const deleteFile = (file: ManagedFile) => {
    if (!window.confirm(t('admin-confirm-delete-file', { name: file.originalName }))) return;
    onSelectedChange(selected.filter((existing) => existing.id !== file.id));
    void write({ intent: 'delete-file', id: String(file.id) });
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
            <folderMaker.Form
              method="post"
              action={FILES_ROUTE}
              className="file-manager__new-folder"
              noValidate
              // React passes events up through portals: a form the manager is shown from must not submit.
              onSubmit={(event) => event.stopPropagation()}
            >
              <input type="hidden" name="intent" value="create-folder" />
              <input type="hidden" name="path" value={path} />
              <label htmlFor={folderInputId}>{t('admin-new-folder')}</label>
              <div className="admin-inline">
                <input
                  key={madeFolder}
                  id={folderInputId}
                  name="name"
                  pattern="[\p{Ll}\p{Lo}\p{Nd}_\-]{1,40}"
                  aria-invalid={folderError ? true : undefined}
                  aria-describedby={`${folderInputId}-note`}
                />
                <button type="submit" className="button">
                  {t('admin-create-folder')}
                </button>
              </div>
              <p
                id={`${folderInputId}-note`}
                className={folderError ? 'form-field__error' : 'form-field__hint'}
              >
                {folderError ?? t('admin-folder-name-hint')}
              </p>
            </folderMaker.Form>
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

          {folder === undefined ? (
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
