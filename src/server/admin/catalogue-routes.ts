import { doneResponse } from '../../contract/accounts.ts';
import {
  categoryDeleteQuery,
  categoryEdit,
  categoryInput,
  idParams,
  projectEdit,
  projectInput,
} from '../../contract/admin.ts';
import {
  adminCategoriesResponse,
  adminCategoryResponse,
  adminProjectResponse,
  adminProjectsResponse,
} from '../../contract/admin-answers.ts';
import { listCategoriesForAdmin, listProjectsForAdmin } from '../catalog/editing.ts';
import { defineRoute } from '../http/api.ts';
import type { Services } from '../requests/services.ts';

/**
 * The back office's projects and categories: list, create, edit, delete. Staff only (deletions admin
 * only): the API refuses a call (401/403) before reading any input.
 */
export function adminCatalogueRoutes(services: Services) {
  const { db, writes } = services;
  const staff = { access: 'manager' as const, tags: ['admin'] };
  /** Deleting data is an admin's call, not a manager's. */
  const adminOnly = { access: 'admin' as const, tags: ['admin'] };
  return [
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/projects',
      summary: 'All projects, hidden ones too',
      response: adminProjectsResponse,
      handler: async () => ({ success: true, projects: await listProjectsForAdmin(db, services.storage) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/projects',
      summary: 'Create a project',
      body: projectInput,
      response: adminProjectResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        project: await writes.saveProject(services.storage, staffId, body),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/projects/:id',
      summary: 'Edit a project; a stale version gets 409',
      params: idParams,
      body: projectEdit,
      response: adminProjectResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        project: await writes.saveProject(services.storage, staffId, body, {
          id: params.id,
          version: body.version,
        }),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/projects/:id',
      summary: 'Delete a project without products',
      params: idParams,
      response: doneResponse,
      handler: async ({ params, staffId }) => {
        await writes.deleteProject(staffId, params.id);
        return { success: true };
      },
    }),
    defineRoute({
      ...staff,
      method: 'GET',
      url: '/api/admin/categories',
      summary: 'All categories, hidden ones too',
      response: adminCategoriesResponse,
      handler: async () => ({ success: true, categories: await listCategoriesForAdmin(db) }),
    }),
    defineRoute({
      ...staff,
      method: 'POST',
      url: '/api/admin/categories',
      summary: 'Create a category',
      body: categoryInput,
      response: adminCategoryResponse,
      handler: async ({ body, staffId }) => ({
        success: true,
        category: await writes.saveCategory(staffId, body),
      }),
    }),
    defineRoute({
      ...staff,
      method: 'PATCH',
      url: '/api/admin/categories/:id',
      summary: 'Edit a category; a stale version gets 409',
      params: idParams,
      body: categoryEdit,
      response: adminCategoryResponse,
      handler: async ({ params, body, staffId }) => ({
        success: true,
        category: await writes.saveCategory(staffId, body, {
          id: params.id,
          version: body.version,
        }),
      }),
    }),
    defineRoute({
      ...adminOnly,
      method: 'DELETE',
      url: '/api/admin/categories/:id',
      summary:
        'Delete a category: one with products is refused (409, `products` their number) unless `moveTo` names the category they go to',
      params: idParams,
      query: categoryDeleteQuery,
      response: doneResponse,
      handler: async ({ params, query, staffId }) => {
        await writes.deleteCategory(staffId, params.id, { moveTo: query.moveTo });
        return { success: true };
      },
    }),
  ];
}
