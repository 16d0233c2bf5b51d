import type {
  adminPartnersResponse,
  adminReviewsResponse,
  customerResponse,
  feedbackListResponse,
  searchStatsResponse,
  searchSynonymsResponse,
  staffListResponse,
  stalledShipmentsResponse,
} from '../../contract/admin-answers.ts';
import type { z } from '../../contract/zod.ts';
import type { searchCustomers } from '../../server/accounts/customers.ts';
import type { listAudit } from '../../server/audit/audit.ts';
import type {
  listDrops,
  AdminDrop as ServerAdminDrop,
  DropLiveView as ServerDropLiveView,
} from '../../server/catalog/drops.ts';
import type {
  listCategoriesForAdmin,
  listProductsForAdmin,
  listProjectsForAdmin,
  lowStock,
  AdminProduct as ServerAdminProduct,
} from '../../server/catalog/editing.ts';
import type { CsvReport as ServerCsvReport } from '../../server/catalog/products-csv/columns.ts';
import type { StockMovementView } from '../../server/catalog/stock.ts';
import type { AdminProductVariants as ServerProductVariants } from '../../server/catalog/variant-editing.ts';
import type {
  CataloguePictures as ServerCataloguePictures,
  ManagedFile as ServerManagedFile,
} from '../../server/files/file-manager.ts';
import type { orderTransactions } from '../../server/orders/refunds.ts';
import type { orderShipments } from '../../server/orders/shipments.ts';
import type {
  getOrderForAdmin,
  ordersPerDay,
  packingSlip,
  searchOrders,
  topProducts,
} from '../../server/orders/staff-orders.ts';

/**
 * The answers of `/api/admin/*` as the browser receives them: the services' own return types
 * (type-only imports, nothing of the server reaches the bundle) after JSON, where a Date is a string.
 */
export type Json<T> = T extends Date
  ? string
  : T extends Array<infer Item>
    ? Array<Json<Item>>
    : T extends object
      ? { [Key in keyof T]: Json<T[Key]> }
      : T;

type Result<Service extends (...args: never[]) => Promise<unknown>> = Json<Awaited<ReturnType<Service>>>;

export type AdminProject = Result<typeof listProjectsForAdmin>[number];
export type AdminCategory = Result<typeof listCategoriesForAdmin>[number];
export type AdminProduct = Json<ServerAdminProduct>;
export type AdminProductVariants = Json<ServerProductVariants>;
export type StockMovement = Json<StockMovementView>;
export type ProductPage = Result<typeof listProductsForAdmin>;
export type ProductRow = ProductPage['list'][number];
export type OrderPage = Result<typeof searchOrders>;
export type OrderRow = OrderPage['list'][number];
export type OrderPayments = Result<typeof orderTransactions>;
export type OrderShipments = Result<typeof orderShipments>;
export type StalledShipment = z.output<typeof stalledShipmentsResponse>['shipments'][number];
export type AdminOrder = Result<typeof getOrderForAdmin>;
export type PackingSlip = Result<typeof packingSlip>;
export type TopProduct = Result<typeof topProducts>[number];
export type CustomerPage = Result<typeof searchCustomers>;
export type AdminCustomer = z.output<typeof customerResponse>['customer'];
export type StaffNote = AdminCustomer['notes'][number];
export type StaffMember = z.output<typeof staffListResponse>['staff'][number];
export type StaffInvitation = z.output<typeof staffListResponse>['invitations'][number];
export type DayTotals = Result<typeof ordersPerDay>[number];
export type LowStockRow = Result<typeof lowStock>[number];
export type AuditPage = Result<typeof listAudit>;
export type Synonym = z.output<typeof searchSynonymsResponse>['synonyms'][number];
export type SearchStat = z.output<typeof searchStatsResponse>['top'][number];
export type AuditEntry = AuditPage['entries'][number];
export type { AuditEntity } from '../../server/audit/audit.ts';
export type AdminPartner = z.output<typeof adminPartnersResponse>['partners'][number];
export type FeedbackPage = z.output<typeof feedbackListResponse>;
export type FeedbackMessage = FeedbackPage['list'][number];
export type ReviewPage = z.output<typeof adminReviewsResponse>;
export type AdminReview = ReviewPage['list'][number];
export type ManagedFile = Json<ServerManagedFile>;
export type CataloguePictures = Json<ServerCataloguePictures> & { success: true };
export type CataloguePictureKind = CataloguePictures['kind'];
export type CsvReport = Json<ServerCsvReport>;
export type DropRow = Result<typeof listDrops>[number];
export type AdminDrop = Json<ServerAdminDrop>;
export type DropLive = Json<ServerDropLiveView>;
/** A product the drop editor's picker found, or one already in the drop. */
export type DropProduct = AdminDrop['products'][number];

export interface Folder {
  path: string;
  folders: string[];
  files: ManagedFile[];
}

/** `GET /api/admin/exchange-rate`: the dollar rate in force and whether dollars are withheld (ADR 0053). */
export interface ExchangeRateStatus {
  current: { rate: number; source: string; rateDate: string; fetchedAt: string; setBy: string | null } | null;
  withheld: boolean;
  maxAgeDays: number;
}

export interface Dashboard {
  last30: DayTotals[];
  last90: DayTotals[];
  lowStock: LowStockRow[];
  /** Paid orders waiting to be shipped. */
  toShip: number;
  unreadFeedback: number;
  topProducts: TopProduct[];
}
