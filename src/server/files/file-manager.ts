import { type AnyColumn, and, count, desc, eq, or, sql } from 'drizzle-orm';
import { FOLDER_NAME, folderSegments, MAX_FOLDER_DEPTH, MAX_UPLOAD_BYTES } from '../../contract/admin.ts';
import { imageUrl } from '../../contract/images.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Database, Executor } from '../db/client.ts';
import { categories, files, partners, productImages, products, projects, staticPages } from '../db/schema.ts';
import { Conflict, DomainError, Invalid, NotFound } from '../errors.ts';
import { imageKeys, storeImage } from './images.ts';
import type { ObjectStorage } from './storage.ts';

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
  // One after another: `db` may be a transaction, whose one connection takes a query at a time.
  const lookups = [
    () =>
      db
        .select({ one: sql`1` })
        .from(products)
        .where(mentions(products.descriptionRu, products.descriptionEn))
        .limit(1),
    () =>
      db
        .select({ one: sql`1` })
        .from(categories)
        .where(mentions(categories.sizeGuideRu, categories.sizeGuideEn))
        .limit(1),
    () =>
      db
        .select({ one: sql`1` })
        .from(staticPages)
        .where(mentions(staticPages.htmlRu, staticPages.htmlEn))
        .limit(1),
  ];
  for (const lookup of lookups) if ((await lookup()).length > 0) return true;
  return false;
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

/**
 * Renames a file (the name the manager shows) and/or moves it to another folder. A stored picture's
 * name is the hash of its content and is what products, logos and texts refer to, so neither a
 * rename nor a move changes any reference. Nothing is overwritten: a folder that already holds a
 * file of that name, or the same picture, refuses it (409).
 */
export async function updateFile(
  db: Database,
  storage: ObjectStorage,
  actorId: number,
  id: number,
  change: { name?: string | undefined; folder?: string | undefined },
): Promise<ManagedFile> {
  if (change.folder !== undefined) await folderKey(storage, change.folder, { mustExist: true });
  return db.transaction(async (transaction) => {
    const [before] = await transaction.select().from(files).where(eq(files.id, id)).for('update');
    if (!before) throw new NotFound('not-found', { id: ['not-found'] });
    const folder = change.folder ?? before.folder;
    const originalName = change.name ?? before.originalName;
    const [taken] = await transaction
      .select({ id: files.id })
      .from(files)
      .where(
        and(
          eq(files.folder, folder),
          sql`${files.id} <> ${id}`,
          or(eq(files.originalName, originalName), eq(files.storedName, before.storedName)),
        ),
      )
      .limit(1);
    if (taken) throw new Conflict('file-exists', { name: ['file-exists'] });
    const [row] = await transaction
      .update(files)
      .set({ folder, originalName })
      .where(eq(files.id, id))
      .returning();
    if (!row) throw new NotFound('not-found', { id: ['not-found'] });
    await recordAudit(transaction, {
      actorId,
      action: 'update',
      entity: 'file',
      entityId: id,
      before: fileView(before),
      after: fileView(row),
    });
    return fileView(row);
  });
}

/** Every folder key below `key` (itself first), parents before their children. */
async function folderTree(storage: ObjectStorage, key: string): Promise<string[]> {
  const tree = [key];
  for (const child of (await storage.list(key)).folders) tree.push(...(await folderTree(storage, child)));
  return tree;
}

/**
 * Renames or moves a folder with its sub-folders and files to the path `to`. The target's parent
 * must exist and the target must not (nothing is merged or overwritten); a folder cannot go into
 * itself. The files' rows move in one transaction; their pictures stay where they are stored.
 */
export async function moveFolder(
  db: Database,
  storage: ObjectStorage,
  actorId: number,
  input: { path: string; to: string },
) {
  if (input.path === '' || input.to === '') throw pathInvalid();
  if (input.to === input.path || input.to.startsWith(`${input.path}/`)) {
    throw new Invalid('folder-into-itself', { to: ['folder-into-itself'] });
  }
  const fromKey = await folderKey(storage, input.path, { mustExist: true });
  const parent = input.to.includes('/') ? input.to.slice(0, input.to.lastIndexOf('/')) : '';
  await folderKey(storage, parent, { mustExist: true });
  const toKey = await folderKey(storage, input.to, { mustExist: false });
  if (await storage.exists(toKey)) throw new Conflict('folder-exists', { to: ['folder-exists'] });
  const tree = await folderTree(storage, fromKey);
  const depth = (key: string) =>
    key.split('/').length - fromKey.split('/').length + input.to.split('/').length;
  if (tree.some((key) => depth(key) > MAX_FOLDER_DEPTH)) throw pathInvalid();

  await db.transaction(async (transaction) => {
    await transaction
      .update(files)
      .set({ folder: sql`${input.to} || substr(${files.folder}, ${input.path.length + 1})` })
      .where(or(eq(files.folder, input.path), sql`starts_with(${files.folder}, ${`${input.path}/`})`));
    for (const key of tree)
      await storage.put(toKey + key.slice(fromKey.length), new Uint8Array(), FOLDER_MARKER_TYPE);
    await recordAudit(transaction, {
      actorId,
      action: 'update',
      entity: 'folder',
      entityId: input.path,
      before: { folder: input.path },
      after: { folder: input.to },
    });
  });
  // Children before their parents: a directory goes once it is empty.
  await storage.delete([...tree].reverse());
  return { path: input.to };
}

/** How many catalogue pictures one page of the file manager shows. */
export const CATALOGUE_PICTURES_PAGE = 48;

/**
 * The catalogue's own pictures, wherever the storage keeps them (the disk or a bucket): product
 * pictures newest first, project logos, partner pictures, each with the name of what shows it. They
 * can be picked like uploads; they are managed where they are used (products, projects, partners).
 */
export async function listCataloguePictures(
  db: Executor,
  options: { kind: 'products' | 'projects' | 'partners'; page: number },
) {
  const offset = (options.page - 1) * CATALOGUE_PICTURES_PAGE;
  const source =
    options.kind === 'products'
      ? db
          .select({
            name: productImages.file,
            usedByRu: sql<string>`min(${products.nameRu})`,
            usedByEn: sql<string>`min(${products.nameEn})`,
            total: sql<number>`(count(*) over ())::int`,
          })
          .from(productImages)
          .innerJoin(products, eq(products.id, productImages.productId))
          .groupBy(productImages.file)
          .orderBy(desc(sql`max(${productImages.id})`), productImages.file)
      : options.kind === 'projects'
        ? db
            .select({
              name: sql<string>`${projects.image}`,
              usedByRu: projects.nameRu,
              usedByEn: projects.nameEn,
              total: sql<number>`(count(*) over ())::int`,
            })
            .from(projects)
            .where(sql`${projects.image} is not null`)
            .orderBy(projects.position, projects.id)
        : db
            .select({
              name: sql<string>`${partners.image}`,
              usedByRu: partners.nameRu,
              usedByEn: partners.nameEn,
              total: sql<number>`(count(*) over ())::int`,
            })
            .from(partners)
            .where(sql`${partners.image} is not null`)
            .orderBy(partners.position, partners.id);
  const rows = await source.limit(CATALOGUE_PICTURES_PAGE).offset(offset);
  const total = rows[0]?.total ?? 0;
  return {
    kind: options.kind,
    list: rows.map((row) => ({
      name: row.name,
      url: imageUrl(options.kind, row.name, 640),
      usedBy: { ru: row.usedByRu, en: row.usedByEn },
    })),
    total,
    currentPage: options.page,
    lastPage: Math.max(1, Math.ceil(total / CATALOGUE_PICTURES_PAGE)),
  };
}

export type CataloguePictures = Awaited<ReturnType<typeof listCataloguePictures>>;
