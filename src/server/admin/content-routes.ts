import { finished } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { doneResponse } from '../../contract/accounts.ts';
import {
  cataloguePicturesQuery,
  csvImportQuery,
  csvImportRefusal,
  csvImportResponse,
  feedbackQuery,
  feedbackUpdate,
  fileUpdate,
  fileUpload,
  folderInput,
  folderMove,
  folderQuery,
  hiddenInput,
  idParams,
  MAX_CSV_BYTES,
  MAX_UPLOAD_BYTES,
  partnerEdit,
  partnerInput,
  reviewsAdminQuery,
} from '../../contract/admin.ts';
import {
  adminPartnerResponse,
  adminPartnersResponse,
  adminReviewResponse,
  adminReviewsResponse,
  catalogueImagesResponse,
  feedbackListResponse,
  feedbackMessageResponse,
  fileDeletedResponse,
  fileFolderResponse,
  managedFileResponse,
  managedFilesResponse,
} from '../../contract/admin-answers.ts';
import { exportProductsCsv } from '../catalog/products-csv/export.ts';
import { listFeedback, setFeedbackRead } from '../feedback/inbox.ts';
import {
  createFolder,
  deleteFile,
  deleteFolder,
  FileTooLarge,
  listCataloguePictures,
  listFolder,
  moveFolder,
  updateFile,
  uploadFile,
} from '../files/file-manager.ts';
import { readSpreadsheetFile, type SpreadsheetEncoding } from '../files/spreadsheet-csv.ts';
import { apiErrorResponse, defineRoute } from '../http/api.ts';
import { requestLocale } from '../http/locale.ts';
import { deletePartner, listPartnersForAdmin, savePartner } from '../partners/staff-partners.ts';
import type { Services } from '../requests/services.ts';
import { listReviewsForAdmin } from '../reviews/moderation.ts';

/** The only call that takes a file part; any other multipart call gets its text fields only. */
export const FILE_UPLOAD_URL = '/api/admin/files';
/** The upload's body: the file and its multipart envelope (the folder field, the parts' headers). */
const UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;

/**
 * `onFile` of the multipart parser (`attachFieldsToBody: 'keyValues'`): on the upload call a file
 * part becomes `{ filename, mimetype, data }` in the body; elsewhere it is read to the end and
 * dropped without being kept in memory. Over the size limit the call ends with 413.
 */
export async function bufferUploadedFile(this: FastifyRequest, part: MultipartFile) {
  if (this.routeOptions.url !== FILE_UPLOAD_URL) {
    await finished(part.file.resume());
    return;
  }
  try {
    const data = await part.toBuffer();
    (part as MultipartFile & { value?: unknown }).value = {
      filename: part.filename,
      mimetype: part.mimetype,
      data,
    };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE') throw new FileTooLarge();
    throw error;
  }
}

/**
 * `text/csv` bodies (the products import, whose route takes up to 5 MB) arrive as the file's text,
 * in UTF-8 or in the Windows-1251 a Russian Excel saves; a binary file is refused (readSpreadsheetFile).
 */
export function registerCsvBody(app: FastifyInstance) {
  app.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      const file = readSpreadsheetFile(body as Buffer);
      csvEncodings.set(request, file.encoding);
      done(null, file.text);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** How each request's CSV body was written, as its parser found (the body itself is the text). */
const csvEncodings = new WeakMap<FastifyRequest, SpreadsheetEncoding>();

/**
 * The back office's file manager, content moderation (partners, feedback, reviews) and the
 * products CSV. Every route is staff only (deletions admin only): refused (401/403) before any
 * input is read.
 */
export function adminContentRoutes(services: Services) {
  const staff = { access: 'manager' as const, tags: ['admin'] };
  /** Deleting data is an admin's call, not a manager's. */
  const adminOnly = { access: 'admin' as const, tags: ['admin'] };

  return [
    // ── File manager ──
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/files',
      summary: "A folder's sub-folders and files",
      query: folderQuery,
      response: managedFilesResponse,
      handler: async ({ query }) => ({
        success: true,
        ...(await listFolder(services.db, services.storage, query.path)),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/files/catalogue',
      summary: "The catalogue's own pictures (kind=products|projects|partners), each with what shows it",
      query: cataloguePicturesQuery,
      response: catalogueImagesResponse,
      handler: async ({ query }) => ({ success: true, ...(await listCataloguePictures(services.db, query)) }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/files/folders',
      summary: 'Rename or move a folder with everything in it (to: its new path; nothing is overwritten)',
      body: folderMove,
      response: fileFolderResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        ...(await moveFolder(services.db, services.storage, staffId, body)),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/files/:id',
      summary: 'Rename a file and/or move it to another folder; references to the picture stay valid',
      params: idParams,
      body: fileUpdate,
      response: managedFileResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        file: await updateFile(services.db, services.storage, staffId, params.id, body),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/files/folders',
      summary: 'Create a folder in a folder',
      body: folderInput,
      response: fileFolderResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        ...(await createFolder(services.db, services.storage, staffId, body)),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/files/folders',
      summary: 'Delete an empty folder',
      body: folderQuery,
      response: doneResponse,
      handler: async ({ body, staffId }) => {
        await deleteFolder(services.db, services.storage, staffId, body.path);
        return { success: true };
      },
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: FILE_UPLOAD_URL,
      summary: 'Upload a picture (multipart: path, file; at most 10 MB); usable as a product image',
      bodyLimit: UPLOAD_BODY_BYTES,
      body: fileUpload,
      response: managedFileResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        file: await uploadFile(services.db, services.storage, staffId, body),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/files/:id',
      summary: 'Remove a file; the picture stays on disk while a product uses it',
      params: idParams,
      response: fileDeletedResponse,
      handler: async ({ params, staffId }) => ({
        success: true,
        ...(await deleteFile(services.db, services.storage, staffId, params.id)),
      }),
    }),

    // ── Partners ──
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/partners',
      summary: 'All partners, hidden ones too',
      response: adminPartnersResponse,
      handler: async () => ({
        success: true,
        partners: await listPartnersForAdmin(services.db, services.storage),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/partners',
      summary: 'Add a partner',
      body: partnerInput,
      response: adminPartnerResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        partner: await savePartner(services.db, services.storage, staffId, body),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/partners/:id',
      summary: 'Edit a partner; a stale version gets 409',
      params: idParams,
      body: partnerEdit,
      response: adminPartnerResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        partner: await savePartner(services.db, services.storage, staffId, body, {
          id: params.id,
          version: body.version,
        }),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/partners/:id',
      summary: 'Delete a partner',
      params: idParams,
      response: doneResponse,
      handler: async ({ params, staffId }) => {
        await deletePartner(services.db, staffId, params.id);
        return { success: true };
      },
    }),

    // ── Feedback inbox ──
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/feedback',
      summary: 'Feedback messages: unread first, newest first; unread=1 for unread only',
      query: feedbackQuery,
      response: feedbackListResponse,
      handler: async ({ query }) => ({ success: true, ...(await listFeedback(services.db, query)) }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/feedback/:id',
      summary: 'Mark a message read or unread',
      params: idParams,
      body: feedbackUpdate,
      response: feedbackMessageResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        feedback: await setFeedbackRead(services.db, staffId, params.id, body.read),
      }),
    }),

    // ── Reviews ──
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/reviews',
      summary: 'Reviews newest first with product and author e-mail; hidden=1|0 filters',
      query: reviewsAdminQuery,
      response: adminReviewsResponse,
      handler: async ({ query }) => ({ success: true, ...(await listReviewsForAdmin(services.db, query)) }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/reviews/:id',
      summary: "Hide a review from the product's thread, or show it again",
      params: idParams,
      body: hiddenInput,
      response: adminReviewResponse,
      handler: async ({ params, body, staffId }) => {
        const review = await services.writes.moderateReview(staffId, params.id, body.hidden);
        return { success: true, review };
      },
    }),

    // ── Products CSV ──
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/products.csv',
      summary: 'Every product as CSV (project and categories by link, prices in roubles, flags 1/0)',
      response: z.string(),
      handler: async ({ reply }) =>
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="products.csv"')
          .send(await exportProductsCsv(services.db)),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/products.csv',
      summary:
        'Import products from CSV (text/csv body), matched by link, in one transaction; dryRun=1 only reports',
      query: csvImportQuery,
      bodyLimit: MAX_CSV_BYTES,
      body: z.string({ error: 'csv-invalid' }).max(MAX_CSV_BYTES, 'csv-invalid'),
      response: csvImportResponse,
      refusals: {
        422: {
          description:
            'csv-rows-invalid: the report with the rows refused; or the file or form refused; nothing changed',
          body: z.union([csvImportRefusal, apiErrorResponse]),
        },
      },
      handler: async ({ query, body, request, staffId }) => {
        const report = await services.writes.importProductsCsv({
          csv: body,
          encoding: csvEncodings.get(request) ?? 'utf-8',
          dryRun: query.dryRun,
          actorId: staffId,
          locale: query.locale ?? requestLocale(request),
          context: { publicUrl: services.config.publicUrl, shop: services.mailShop },
        });
        return { success: true, ...report };
      },
    }),
  ];
}
