import { mkdir, readdir, realpath, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, count, desc, eq, or, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { folderSegments, MAX_UPLOAD_BYTES } from '../../contract/admin.ts';
import type { Database, Executor } from '../db/client.ts';
import { files, productImages, products } from '../db/schema.ts';
import { Conflict, DomainError, Invalid, NotFound } from '../errors.ts';
import { IMAGE_WIDTHS, storeImage } from '../files/images.ts';
import { recordAudit } from './audit.ts';

/**
 * The back office's file manager. Folders are real directories below `{uploadsDir}/files/`; an
 * uploaded file must be a picture (checked by its content), is stored as a product image under a
 * content-hash name (`{uploadsDir}/img/products/…`, so it can be used on products at once) and
 * "lives" in a folder through its `files` row, which also keeps the uploader's original name.
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

/** The file manager's root directory. */
export const filesRoot = (uploadsDir: string) => path.resolve(uploadsDir, 'files');

const isInside = (root: string, target: string) => target === root || target.startsWith(root + path.sep);

/**
 * The directory of a folder path, refusing anything that is not plain folder names or that would
 * resolve outside the root (also through a symbolic link planted inside it). With `mustExist` the
 * directory has to be there.
 */
async function folderDirectory(uploadsDir: string, folder: string, options: { mustExist: boolean }) {
  const segments = folderSegments(folder);
  if (segments === null) throw pathInvalid();
  const root = filesRoot(uploadsDir);
  const target = path.resolve(root, ...segments);
  if (!isInside(root, target)) throw pathInvalid();
  await mkdir(root, { recursive: true });
  if (!options.mustExist) return target;
  const real = await realpath(target).catch(() => null);
  if (real === null || !(await stat(real)).isDirectory()) throw folderNotFound();
  if (!isInside(await realpath(root), real)) throw pathInvalid();
  return target;
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
export async function listFolder(db: Executor, uploadsDir: string, folder: string) {
  const directory = await folderDirectory(uploadsDir, folder, { mustExist: true });
  const entries = await readdir(directory, { withFileTypes: true });
  const folders = entries
    .filter((entry) => entry.isDirectory() && folderSegments(entry.name) !== null)
    .map((entry) => entry.name)
    .sort();
  const rows = await db
    .select()
    .from(files)
    .where(eq(files.folder, folder))
    .orderBy(desc(files.createdAt), desc(files.id));
  return { path: folder, folders, files: rows.map(fileView) };
}

export async function createFolder(
  db: Executor,
  uploadsDir: string,
  actorId: number,
  input: { path: string; name: string },
) {
  const folder = input.path === '' ? input.name : `${input.path}/${input.name}`;
  if (folderSegments(folder) === null) throw pathInvalid();
  await folderDirectory(uploadsDir, input.path, { mustExist: true });
  const directory = await folderDirectory(uploadsDir, folder, { mustExist: false });
  try {
    await mkdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new Conflict('folder-exists', { name: ['folder-exists'] });
    throw error;
  }
  await recordAudit(db, { actorId, action: 'create', entity: 'folder', entityId: folder, after: { folder } });
  return { path: folder };
}

/** Deletes an empty folder: no sub-folders, no files. */
export async function deleteFolder(db: Database, uploadsDir: string, actorId: number, folder: string) {
  if (folder === '') throw pathInvalid();
  const directory = await folderDirectory(uploadsDir, folder, { mustExist: true });
  const notEmpty = () => new Conflict('folder-not-empty', { path: ['folder-not-empty'] });
  if ((await readdir(directory)).length > 0) throw notEmpty();
  await db.transaction(async (transaction) => {
    const [held] = await transaction
      .select({ id: files.id })
      .from(files)
      .where(or(eq(files.folder, folder), sql`starts_with(${files.folder}, ${`${folder}/`})`))
      .limit(1);
    if (held) throw notEmpty();
    try {
      await rmdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY') throw notEmpty();
      throw error;
    }
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
  uploadsDir: string,
  actorId: number,
  input: { path: string; file: { filename: string; data: Uint8Array } },
): Promise<ManagedFile> {
  const data = Buffer.isBuffer(input.file.data) ? input.file.data : Buffer.from(input.file.data);
  if (data.length > MAX_UPLOAD_BYTES) throw new FileTooLarge();
  await folderDirectory(uploadsDir, input.path, { mustExist: true });

  const storedName = await storeImage(uploadsDir, 'products', data);
  const storedPath = path.join(uploadsDir, 'img', 'products', storedName);
  const [metadata, stored] = await Promise.all([sharp(storedPath).metadata(), stat(storedPath)]);
  const [row] = await db
    .insert(files)
    .values({
      folder: input.path,
      storedName,
      originalName: displayName(input.file.filename),
      mimeType: 'image/webp',
      size: stored.size,
      width: metadata.width ?? null,
      height: metadata.height ?? null,
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

/**
 * Removes a file from the file manager. The picture stays on disk while a product shows it (as an
 * image or in its description) or another folder holds the same picture; otherwise the original and
 * its variants are deleted.
 */
export async function deleteFile(db: Database, uploadsDir: string, actorId: number, id: number) {
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
    // The rich-text editor may have put its URL into a description.
    const [inDescriptions] = await transaction
      .select({ count: count() })
      .from(products)
      .where(
        or(
          sql`strpos(${products.descriptionRu}, ${row.storedName}) > 0`,
          sql`strpos(${products.descriptionEn}, ${row.storedName}) > 0`,
        ),
      );
    await recordAudit(transaction, {
      actorId,
      action: 'delete',
      entity: 'file',
      entityId: id,
      before: fileView(row),
    });
    return {
      row,
      inUse: (onProducts?.count ?? 0) + (inFolders?.count ?? 0) + (inDescriptions?.count ?? 0) > 0,
    };
  });

  if (!removed.inUse) {
    const folder = path.join(uploadsDir, 'img', 'products');
    const name = removed.row.storedName;
    // The name comes from our own content hash, but never follow anything else out of the folder.
    if (/^[0-9a-f]{16}\.webp$/.test(name)) {
      await Promise.all(
        [path.join(folder, name), ...IMAGE_WIDTHS.map((width) => path.join(folder, String(width), name))].map(
          (file) => rm(file, { force: true }),
        ),
      );
    }
  }
  return { keptOnDisk: removed.inUse };
}
