import { type AnyColumn, and, count, desc, eq, or, sql } from 'drizzle-orm';
import { FOLDER_NAME, folderSegments, MAX_UPLOAD_BYTES } from '../../contract/admin.ts';
import type { Database, Executor } from '../db/client.ts';
import { categories, files, productImages, products, staticPages } from '../db/schema.ts';
import { Conflict, DomainError, Invalid, NotFound } from '../errors.ts';
import { imageKeys, storeImage } from '../files/images.ts';
import type { ObjectStorage } from '../files/storage.ts';
import { recordAudit } from './audit.ts';

/**
 * The back office's file manager. Folders live in the uploads storage below `files/` (directories
 * on the disk, marker objects `files/{path}/` in a bucket); an uploaded file must be a picture
 * (checked by its content), is stored as a product image under a content-hash name
 * (`img/products/…`, so it can be used on products at once) and "lives" in a folder through its
 * `files` row, which also keeps the uploader's original name.
 */

/** 413: the upload is larger than MAX_UPLOAD_BYTES. */
export class FileTooLarge extends DomainError {
  readonly status = 413;
  constructor() {
    super('file-too-large', { file: ['file-too-large'] });
  }
}

const pathInvalid = () => new Invalid('path-invalid', { path: ['path-invalid'] });
const folderNotFound = () => new NotFound('not-found', { path: ['not-found'] });

/** The file manager's root in the storage. */
const FILES_ROOT = 'files/';
/** The content type of a folder marker object, as S3 consoles and tools write it. */
const FOLDER_MARKER_TYPE = 'application/x-directory';

/**
 * The storage key of a folder path (`merch/2024` → `files/merch/2024/`), refusing anything that is
 * not plain folder names. With `mustExist` the folder has to be there.
 */
async function folderKey(storage: ObjectStorage, folder: string, options: { mustExist: boolean }) {
  const segments = folderSegments(folder);
  if (segments === null) throw pathInvalid();
  const key = FILES_ROOT + segments.map((segment) => `${segment}/`).join('');
  if (options.mustExist && segments.length > 0 && !(await storage.exists(key))) throw folderNotFound();
  return key;
}

const fileView = (row: typeof files.$inferSelect) => ({
  id: row.id,
  name: row.storedName,
  originalName: row.originalName,
  folder: row.folder,
  url: `/img/products/640/${row.storedName}`,
  size: row.size,
  width: row.width,
  height: row.height,
  date: row.createdAt.toISOString(),
});

export type ManagedFile = ReturnType<typeof fileView>;

/** A folder's sub-folders (by name) and files (newest first). */
export async function listFolder(db: Executor, storage: ObjectStorage, folder: string) {
  const key = await folderKey(storage, folder, { mustExist: true });
  const folders = (await storage.list(key)).folders
    .map((child) => child.slice(key.length, -1))
    .filter((name) => FOLDER_NAME.test(name));
  const rows = await db
    .select()
    .from(files)
    .where(eq(files.folder, folder))
    .orderBy(desc(files.createdAt), desc(files.id));
  return { path: folder, folders, files: rows.map(fileView) };
}

export async function createFolder(
  db: Executor,
  storage: ObjectStorage,
  actorId: number,
  input: { path: string; name: string },
) {
  const folder = input.path === '' ? input.name : `${input.path}/${input.name}`;
  if (folderSegments(folder) === null) throw pathInvalid();
  await folderKey(storage, input.path, { mustExist: true });
  const key = await folderKey(storage, folder, { mustExist: false });
  if (await storage.exists(key)) throw new Conflict('folder-exists', { name: ['folder-exists'] });
  await storage.put(key, new Uint8Array(), FOLDER_MARKER_TYPE);
  await recordAudit(db, { actorId, action: 'create', entity: 'folder', entityId: folder, after: { folder } });
  return { path: folder };
}

/** Deletes an empty folder: no sub-folders, no files. */
export async function deleteFolder(db: Database, storage: ObjectStorage, actorId: number, folder: string) {
  if (folder === '') throw pathInvalid();
  const key = await folderKey(storage, folder, { mustExist: true });
  const notEmpty = () => new Conflict('folder-not-empty', { path: ['folder-not-empty'] });
  const content = await storage.list(key);
  if (content.objects.length > 0 || content.folders.length > 0) throw notEmpty();
  await db.transaction(async (transaction) => {
    const [held] = await transaction
      .select({ id: files.id })
      .from(files)
      .where(or(eq(files.folder, folder), sql`starts_with(${files.folder}, ${`${folder}/`})`))
      .limit(1);
    if (held) throw notEmpty();
    await storage.delete([key]);
    // Something was put into it meanwhile: the folder goes on existing through it.
    if (await storage.exists(key)) throw notEmpty();
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'folder',
      entityId: folder,
      before: { folder },
    });
  });
}

/** The uploader's file name without any directory part or control characters, for display only. */
function displayName(filename: string) {
  const base = filename.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'image').slice(0, 200);
}

/**
 * Stores an uploaded picture in a folder. The content decides: anything sharp cannot read as a
 * raster picture (a script named `.png`, a text file, an SVG) is refused with 422 and nothing is
 * stored. The same picture uploaded twice into one folder gives the existing entry.
 */
export async function uploadFile(
  db: Executor,
  storage: ObjectStorage,
  actorId: number,
  input: { path: string; file: { filename: string; data: Uint8Array } },
): Promise<ManagedFile> {
  const data = Buffer.isBuffer(input.file.data) ? input.file.data : Buffer.from(input.file.data);
  if (data.length > MAX_UPLOAD_BYTES) throw new FileTooLarge();
  await folderKey(storage, input.path, { mustExist: true });

  const stored = await storeImage(storage, 'products', data);
  const storedName = stored.name;
  const [row] = await db
    .insert(files)
    .values({
      folder: input.path,
      storedName,
      originalName: displayName(input.file.filename),
      mimeType: 'image/webp',
      size: stored.size,
      width: stored.width,
      height: stored.height,
      uploadedBy: actorId,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    const [existing] = await db
      .select()
      .from(files)
      .where(and(eq(files.folder, input.path), eq(files.storedName, storedName)));
    if (!existing) throw new Error('uploaded file vanished');
    return fileView(existing);
  }
  const view = fileView(row);
  await recordAudit(db, { actorId, action: 'create', entity: 'file', entityId: row.id, after: view });
  return view;
}

/** Whether any staff-written HTML (descriptions, size guides, static pages) shows a stored picture. */
async function inRichTexts(db: Executor, storedName: string): Promise<boolean> {
  const mentions = (ru: AnyColumn, en: AnyColumn) =>
    or(sql`strpos(${ru}, ${storedName}) > 0`, sql`strpos(${en}, ${storedName}) > 0`);
  const found = await Promise.all([
    db
      .select({ one: sql`1` })
      .from(products)
      .where(mentions(products.descriptionRu, products.descriptionEn))
      .limit(1),
    db
      .select({ one: sql`1` })
      .from(categories)
      .where(mentions(categories.sizeGuideRu, categories.sizeGuideEn))
      .limit(1),
    db
      .select({ one: sql`1` })
      .from(staticPages)
      .where(mentions(staticPages.htmlRu, staticPages.htmlEn))
      .limit(1),
  ]);
  return found.some((rows) => rows.length > 0);
}

/**
 * Removes a file from the file manager. The picture stays stored while a product shows it (as an
 * image or in its description) or another folder holds the same picture; otherwise the original and
 * its variants are deleted.
 */
export async function deleteFile(db: Database, storage: ObjectStorage, actorId: number, id: number) {
  const removed = await db.transaction(async (transaction) => {
    const [row] = await transaction.delete(files).where(eq(files.id, id)).returning();
    if (!row) throw new NotFound('not-found', { id: ['not-found'] });
    const [onProducts] = await transaction
      .select({ count: count() })
      .from(productImages)
      .where(eq(productImages.file, row.storedName));
    const [inFolders] = await transaction
      .select({ count: count() })
      .from(files)
      .where(eq(files.storedName, row.storedName));
    // The rich-text editor may have put its URL into a description, a size guide or a static page.
    const inTexts = await inRichTexts(transaction, row.storedName);
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'file',
      entityId: id,
      before: fileView(row),
    });
    return {
      row,
      inUse: (onProducts?.count ?? 0) + (inFolders?.count ?? 0) > 0 || inTexts,
    };
  });

  // The name comes from our own content hash, but never delete anything else.
  if (!removed.inUse && /^[0-9a-f]{16}\.webp$/.test(removed.row.storedName)) {
    await storage.delete(imageKeys('products', removed.row.storedName));
  }
  return { keptOnDisk: removed.inUse };
}
