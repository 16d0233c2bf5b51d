import type { csvImportResponse } from '../../contract/admin.ts';
import type {
  adminCategoriesResponse,
  adminOrderListResponse,
  adminOrderResponse,
  adminPartnersResponse,
  adminProductListResponse,
  adminProjectsResponse,
  adminReviewsResponse,
  auditResponse,
  catalogueImagesResponse,
  customerListResponse,
  customerResponse,
  dashboardResponse,
  dropEditorResponse,
  dropListResponse,
  dropLiveResponse,
  exchangeRateResponse,
  feedbackListResponse,
  managedFile,
  orderPaymentsResponse,
  orderShipmentsResponse,
  packingSlipResponse,
  searchStatsResponse,
  searchSynonymsResponse,
  staffListResponse,
  stalledShipmentsResponse,
} from '../../contract/admin-answers.ts';
import type { z } from '../../contract/zod.ts';
import type { AdminProduct as ServerAdminProduct } from '../../server/catalog/editing.ts';
import type { StockMovementView } from '../../server/catalog/stock.ts';
import type { AdminProductVariants as ServerProductVariants } from '../../server/catalog/variant-editing.ts';

/**
 * The answers of `/api/admin/*` as the back office reads them: the output of the contract's answer
 * schemas it parses them with (ADR 0073). `Json` is a service's own return type (a type-only import,
 * nothing of the server reaches the bundle) after JSON, where a Date is a string: what the product
 * editor's answers are typed with until they are parsed too.
 */
export type Json<T> = T extends Date
  ? string
  : T extends Array<infer Item>
    ? Array<Json<Item>>
    : T extends object
      ? { [Key in keyof T]: Json<T[Key]> }
      : T;

export type AdminProject = z.output<typeof adminProjectsResponse>['projects'][number];
export type AdminCategory = z.output<typeof adminCategoriesResponse>['categories'][number];
export type AdminProduct = Json<ServerAdminProduct>;
export type AdminProductVariants = Json<ServerProductVariants>;
export type StockMovement = Json<StockMovementView>;
export type ProductPage = z.output<typeof adminProductListResponse>;
export type ProductRow = ProductPage['list'][number];
export type OrderPage = z.output<typeof adminOrderListResponse>;
export type OrderRow = OrderPage['list'][number];
export type OrderPayments = z.output<typeof orderPaymentsResponse>['payments'];
export type OrderShipments = z.output<typeof orderShipmentsResponse>['shipments'];
export type StalledShipment = z.output<typeof stalledShipmentsResponse>['shipments'][number];
export type AdminOrder = z.output<typeof adminOrderResponse>['order'];
export type PackingSlip = z.output<typeof packingSlipResponse>['slip'];
export type CustomerPage = z.output<typeof customerListResponse>;
export type AdminCustomer = z.output<typeof customerResponse>['customer'];
export type StaffNote = AdminCustomer['notes'][number];
export type StaffMember = z.output<typeof staffListResponse>['staff'][number];
export type StaffInvitation = z.output<typeof staffListResponse>['invitations'][number];
export type AuditPage = z.output<typeof auditResponse>;
export type Synonym = z.output<typeof searchSynonymsResponse>['synonyms'][number];
export type SearchStat = z.output<typeof searchStatsResponse>['top'][number];
export type AuditEntry = AuditPage['entries'][number];
export type { AuditEntity } from '../../server/audit/audit.ts';
export type AdminPartner = z.output<typeof adminPartnersResponse>['partners'][number];
export type FeedbackPage = z.output<typeof feedbackListResponse>;
export type FeedbackMessage = FeedbackPage['list'][number];
export type ReviewPage = z.output<typeof adminReviewsResponse>;
export type AdminReview = ReviewPage['list'][number];
export type ManagedFile = z.output<typeof managedFile>;
export type CataloguePictures = z.output<typeof catalogueImagesResponse>;
export type CataloguePictureKind = CataloguePictures['kind'];
/** A products CSV import's report, from its answer or its refusal (422 csv-rows-invalid). */
export type CsvReport = Omit<z.output<typeof csvImportResponse>, 'success'>;
export type DropRow = z.output<typeof dropListResponse>['drops'][number];
export type AdminDrop = z.output<typeof dropEditorResponse>['drop'];
export type DropLive = z.output<typeof dropLiveResponse>;
/** A product the drop editor's picker found, or one already in the drop. */
export type DropProduct = AdminDrop['products'][number];

/** `GET /api/admin/exchange-rate`: the dollar rate in force and whether dollars are withheld (ADR 0053). */
export type ExchangeRateStatus = z.output<typeof exchangeRateResponse>;
export type Dashboard = z.output<typeof dashboardResponse>;
export type DayTotals = Dashboard['last30'][number];
