import { USER_ROLES } from './accounts.ts';
import { OPTION_KINDS } from './catalog.ts';
import { DELIVERY_METHODS } from './delivery.ts';
import { STOCK_REASONS } from './order-timeline.ts';
import { PAYMENT_METHODS } from './orders.ts';
import { STATIC_PAGES } from './pages.ts';
import { z } from './zod.ts';

/**
 * The back office's success answers (`/api/admin/*` and the staff invitation), field by field:
 * the server documents them in `/api/docs/json` (the route tests fail on any field not described
 * here), and the back office parses the same answers with them. Prices are roubles unless a field
 * says otherwise; times are ISO 8601.
 */

const id = z.number().int();
const count = z.number().int();
const roubles = z.number().describe('Roubles');
const time = z.string().describe('ISO 8601');
const done = { success: z.literal(true) } as const;
/** A page of a list: `total` rows in all, 20 a page. */
const paging = { total: count, currentPage: count, lastPage: count } as const;
const orderStatus = z.number().int().min(0).max(6).describe("The spec's order status code");
const currency = z.enum(['RUB', 'USD']);
const carrier = z.enum(['russian_post', 'boxberry']);
const customsMissing = z.enum(['hs_code', 'origin_country', 'customs_description', 'net_weight']);
const customs = {
  hs_code: z.string().nullable(),
  origin_country: z.string().nullable(),
  customs_description: z.string().nullable(),
  net_weight: z.number().nullable().describe('Grams'),
} as const;
const names = { name_ru: z.string(), name_en: z.string() } as const;
/** A staff note on an order or a customer. */
const staffNote = z.object({
  id,
  body: z.string(),
  author: z.string().nullable().describe("The staff member's e-mail; null once their account is gone"),
  date: time,
});

// ── Catalogue: projects, categories, products, variants, stock ─────────────────────────────────

export const adminProject = z.object({
  id,
  ...names,
  link: z.string(),
  image: z.string().nullable(),
  visible: z.boolean(),
  position: count,
  version: count,
});
export const adminProjectsResponse = z.object({
  ...done,
  projects: z.array(
    adminProject.extend({ imageMissing: z.boolean().describe('The logo is named but not stored') }),
  ),
});
export const adminProjectResponse = z.object({ ...done, project: adminProject });

export const adminCategory = z.object({
  id,
  ...names,
  link: z.string(),
  visible: z.boolean(),
  position: count,
  size_guide_ru: z.string(),
  size_guide_en: z.string(),
  version: count,
});
export const adminCategoriesResponse = z.object({ ...done, categories: z.array(adminCategory) });
export const adminCategoryResponse = z.object({ ...done, category: adminCategory });

export const adminProductListItem = z.object({
  id,
  link: z.string(),
  ...names,
  image: z.string().nullable(),
  price: roubles,
  sale: roubles.nullable(),
  quantity: count.describe('Units in stock, every variant together'),
  visible: z.boolean(),
  weekSale: z.boolean(),
  envisioned: z.boolean(),
  project_ru: z.string(),
  project_en: z.string(),
  drop_id: id.nullable(),
});
export const adminProductListResponse = z.object({ ...done, ...paging, list: z.array(adminProductListItem) });
export const productBulkResponse = z.object({ ...done, changed: count.describe('Products changed') });

/** A product as its editor loads and saves it. */
export const productEditor = z.object({
  id,
  project: id,
  categories: z.array(id),
  ...names,
  desc_ru: z.string(),
  desc_en: z.string(),
  link: z.string(),
  images: z.array(z.string()),
  price: roubles,
  sale: roubles.nullable(),
  weight: z.number().describe('Grams'),
  currentQuantity: count,
  visible: z.boolean(),
  weekSale: z.boolean(),
  envisioned: z.boolean(),
  position: count,
  release_at: time.nullable(),
  drop: z.object({ id, ...names }).nullable(),
  per_customer_limit: count.nullable(),
  box_length: z.number().nullable(),
  box_width: z.number().nullable(),
  box_height: z.number().nullable(),
  ...customs,
  version: count,
});
export const productEditorResponse = z.object({ ...done, product: productEditor });

/** A product's options and variants as the variants editor loads and saves them. */
export const productVariantsEditor = z.object({
  id,
  link: z.string(),
  price: roubles,
  sale: roubles.nullable(),
  weight: z.number(),
  version: count,
  options: z.array(
    z.object({
      id,
      kind: z.enum(OPTION_KINDS),
      ...names,
      values: z.array(
        z.object({
          id,
          value_ru: z.string(),
          value_en: z.string(),
          swatch: z.string().nullable(),
          images: z.array(z.string()),
        }),
      ),
    }),
  ),
  variants: z.array(
    z.object({
      id,
      options: z.array(z.string()),
      sku: z.string(),
      price: roubles.nullable().describe("Null: the product's"),
      sale: roubles.nullable(),
      weight: z.number().nullable(),
      quantity: count,
      quantity_seen: count.describe('The stock the editor loaded, to tell a concurrent sale'),
      per_customer_limit: count.nullable(),
      ...customs,
    }),
  ),
});
export const productVariantsEditorResponse = z.object({ ...done, product: productVariantsEditor });

export const stockMovementsResponse = z.object({
  ...done,
  movements: z.array(
    z.object({
      id,
      variantId: id,
      sku: z.string(),
      delta: z.number().int(),
      balance: count,
      reason: z.enum(STOCK_REASONS),
      orderId: id.nullable(),
      actorEmail: z.string().nullable(),
      note: z.string().nullable(),
      createdAt: time,
    }),
  ),
});

// ── Orders ─────────────────────────────────────────────────────────────────────────────────────

export const adminOrderListItem = z.object({
  id,
  date: time,
  status: orderStatus,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  country: z.string(),
  deliveryMethod: z.enum(DELIVERY_METHODS),
  productCount: count.describe('Units ordered'),
  productsCost: roubles,
  deliveryCost: roubles,
});
export const adminOrderListResponse = z.object({
  ...done,
  ...paging,
  list: z.array(adminOrderListItem),
  allStatuses: z.boolean().describe('The list holds every status (no status filter)'),
  statusCounts: z.record(z.string(), count).describe('Orders found, by status code'),
  productCount: count.describe('Units in the orders of this page'),
});

/** An item's customs declaration line (issue 29): what it declares and which fields it lacks. */
const customsLine = z.object({
  product: id,
  sku: z.string(),
  name: z.string(),
  count,
  value: z.number().describe("In the order's currency"),
  value_roubles: roubles,
  missing: z.array(customsMissing),
  ...customs,
});

/** An order as the back office's order page shows it. */
export const adminOrder = z.object({
  id,
  date: time,
  locale: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  products_cost: roubles,
  discount: roubles,
  promo_code: z.string().nullable(),
  delivery_cost: roubles,
  delivery_method: z.enum(DELIVERY_METHODS),
  delivery_country: z.string(),
  delivery_city: z.string(),
  delivery_address: z.string(),
  delivery_zip: z.string(),
  pickup_point_code: z
    .string()
    .nullable()
    .describe('The Boxberry pickup point the shopper chose; null for other methods and older pickup orders'),
  comment: z.string().nullable(),
  payment_method: z.enum(PAYMENT_METHODS),
  currency,
  usd_rate: z.number().nullable(),
  products: z.array(
    z.object({
      id,
      name: z.string(),
      price: roubles,
      sale: roubles.nullable(),
      count,
      discount: roubles,
      variant: id.nullable(),
      sku: z.string(),
      options: z.string().nullable(),
      image: z.string().nullable(),
    }),
  ),
  track_code: z.string().nullable(),
  delivery_cost_actual: roubles.nullable(),
  manager_comment: z.string().nullable(),
  notes: z.array(staffNote),
  status: orderStatus,
  nextStatuses: z.array(orderStatus).describe('The statuses it may move to'),
  shipped_mail_at: time.nullable(),
  version: count,
  history: z.array(
    z.object({
      date: time,
      author: z.string().nullable(),
      status: orderStatus,
      reason: z.string().nullable(),
    }),
  ),
  customs: z.array(customsLine).nullable().describe('Null: a domestic order declares nothing'),
  receipts: z.array(
    z.object({
      id,
      purpose: z.enum(['payment', 'refund', 'settlement']),
      sno: z.string().nullable(),
      state: z.string(),
      error: z.string().nullable(),
      date: time,
      total: roubles,
      items: z.array(
        z.object({
          name: z.string(),
          quantity: z.number(),
          sum: roubles,
          tax: z.string(),
          paymentMethod: z.string(),
          paymentObject: z.string(),
        }),
      ),
    }),
  ),
});
export const adminOrderResponse = z.object({ ...done, order: adminOrder });
export const staffNotesResponse = z.object({ ...done, notes: z.array(staffNote).describe('Oldest first') });

export const packingSlipResponse = z.object({
  ...done,
  shop: z.object({ email: z.string() }),
  slip: z.object({
    id,
    date: time,
    status: orderStatus,
    shipTo: z.object({
      name: z.string(),
      phone: z.string(),
      email: z.string(),
      country: z.string(),
      city: z.string(),
      zip: z.string(),
      address: z.string(),
      deliveryMethod: z.enum(DELIVERY_METHODS),
    }),
    comment: z.string().nullable(),
    items: z.array(z.object({ name: z.string(), options: z.string().nullable(), sku: z.string(), count })),
    units: count,
    currency,
    customs: z.array(customsLine).nullable(),
  }),
});

const restockLine = z.object({ productId: id, variantId: id, count });
export const orderPaymentsResponse = z.object({
  ...done,
  payments: z.object({
    currency,
    usdRate: z.number().nullable(),
    deliveryMinor: z.number().int().describe("Delivery in the currency's minor units"),
    lines: z.array(
      z.object({
        variantId: id,
        count,
        returned: count,
        unit: z.number().int().describe("Unit price in the currency's minor units"),
        discount: z.number().int().describe("The line's discount in minor units"),
      }),
    ),
    paid: z.string().describe('In `currency`, dot decimal'),
    refunded: z.string(),
    left: z.string().describe('What may still be refunded'),
    restockable: z.array(restockLine),
    list: z.array(
      z.object({
        id,
        kind: z.enum(['payment', 'refund']),
        provider: z.enum(PAYMENT_METHODS),
        externalId: z.string(),
        state: z.string(),
        amount: z.string(),
        currency: z.string(),
        accepted: z.boolean(),
        restock: z.array(restockLine),
        date: time,
      }),
    ),
  }),
});
export const refundResponse = z.object({ ...done, refund: z.object({ id, state: z.string() }) });
export const refundCheckResponse = z.object({
  ...done,
  state: z.enum(['pending', 'finished', 'requested', 'canceled']),
});

// ── Dashboard, audit, search ───────────────────────────────────────────────────────────────────

const salesDay = z.object({ day: z.string().describe('YYYY-MM-DD'), orders: count, revenue: roubles });
export const dashboardResponse = z.object({
  ...done,
  last30: z.array(salesDay),
  last90: z.array(salesDay),
  lowStock: z.array(
    z.object({
      id,
      variantId: id,
      name: z.string(),
      options: z.string().nullable(),
      sku: z.string(),
      link: z.string(),
      quantity: count,
    }),
  ),
  toShip: count.describe('Paid orders waiting to be shipped'),
  unreadFeedback: count,
  topProducts: z.array(z.object({ id, name: z.string(), units: count, revenue: roubles })),
});

/** Any JSON value: an audit entry keeps the record as it was, whatever record it is. */
const recordSnapshot = z.json();
export const auditResponse = z.object({
  ...done,
  ...paging,
  actors: z.array(z.object({ id, email: z.string(), name: z.string().nullable() })),
  entries: z.array(
    z.object({
      id,
      actor: z.string().nullable().describe("The staff member's e-mail"),
      actorName: z.string().nullable(),
      action: z.string(),
      entity: z.string(),
      entityId: z.string().nullable(),
      before: recordSnapshot.describe('The record before the change; null when created'),
      after: recordSnapshot.describe('The record after the change; null when deleted'),
      date: time,
    }),
  ),
});

const searchSynonym = z.object({ id, term: z.string(), meaning: z.string() });
export const searchSynonymsResponse = z.object({ ...done, synonyms: z.array(searchSynonym) });
export const searchSynonymResponse = z.object({ ...done, synonym: searchSynonym });
const searchedQuery = z.object({ query: z.string(), searches: count, results: count });
export const searchStatsResponse = z.object({
  ...done,
  top: z.array(searchedQuery),
  empty: z.array(searchedQuery).describe('Searches that found nothing'),
});

// ── Files, partners, feedback, reviews ─────────────────────────────────────────────────────────

export const managedFile = z.object({
  id,
  name: z.string(),
  originalName: z.string(),
  folder: z.string(),
  url: z.string(),
  size: count.describe('Bytes'),
  width: count.nullable().describe('Pixels, for a picture'),
  height: count.nullable(),
  date: time,
});
export const managedFilesResponse = z.object({
  ...done,
  path: z.string().describe('The folder listed'),
  folders: z.array(z.string()),
  files: z.array(managedFile),
});
export const managedFileResponse = z.object({ ...done, file: managedFile });
export const fileFolderResponse = z.object({ ...done, path: z.string() });
export const fileDeletedResponse = z.object({
  ...done,
  keptOnDisk: z
    .boolean()
    .describe('The stored file is still used (a product, another entry, a rich text): only this entry went'),
});
export const catalogueImagesResponse = z.object({
  ...done,
  ...paging,
  kind: z.enum(['projects', 'products', 'partners']),
  list: z.array(
    z.object({
      name: z.string(),
      url: z.string(),
      usedBy: z.object({ ru: z.string(), en: z.string() }),
    }),
  ),
});

export const adminPartner = z.object({
  id,
  ...names,
  desc_ru: z.string(),
  desc_en: z.string(),
  image: z.string().nullable(),
  link: z.string().nullable(),
  email: z.string().nullable(),
  phone_number: z.string().nullable(),
  phone_number_mobile: z.string().nullable(),
  telegram: z.string().nullable(),
  messenger: z.string().nullable(),
  socials: z.array(z.object({ type: z.string(), link: z.string() })),
  visible: z.boolean(),
  position: count,
  version: count,
});
export const adminPartnersResponse = z.object({
  ...done,
  partners: z.array(
    adminPartner.extend({ imageMissing: z.boolean().describe('The picture is named but not stored') }),
  ),
});
export const adminPartnerResponse = z.object({ ...done, partner: adminPartner });

export const feedbackMessage = z.object({
  id,
  name: z.string(),
  email: z.string(),
  message: z.string(),
  read: z.boolean(),
  readAt: time.nullable(),
  date: time,
});
export const feedbackListResponse = z.object({
  ...done,
  ...paging,
  list: z.array(feedbackMessage),
  unread: count,
});
export const feedbackMessageResponse = z.object({ ...done, feedback: feedbackMessage });

export const adminReview = z.object({
  id,
  product: z.object({ id, link: z.string(), ...names }),
  email: z.string(),
  rating: count,
  body: z.string(),
  hidden: z.boolean(),
  date: time,
});
export const adminReviewsResponse = z.object({ ...done, ...paging, list: z.array(adminReview) });
export const adminReviewResponse = z.object({ ...done, review: adminReview });

// ── Customers and staff ────────────────────────────────────────────────────────────────────────

export const customerListItem = z.object({
  id,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string(),
  country: z.string(),
  registeredAt: time,
  blocked: z.boolean(),
  orders: count,
  spent: roubles,
  lastOrderAt: time.nullable(),
});
export const customerListResponse = z.object({ ...done, ...paging, list: z.array(customerListItem) });
export const customerResponse = z.object({
  ...done,
  customer: customerListItem.extend({
    city: z.string(),
    zip: z.string(),
    address: z.string(),
    locale: z.string(),
    orderList: z.array(z.object({ id, date: time, status: orderStatus, total: roubles })),
    notes: z.array(staffNote),
  }),
});
export const customerBlockResponse = z.object({ ...done, blocked: z.boolean() });

const role = z.enum(USER_ROLES);
export const staffListResponse = z.object({
  ...done,
  staff: z.array(
    z.object({
      id,
      email: z.string(),
      name: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      role,
      confirmed: z.boolean(),
    }),
  ),
  invitations: z.array(
    z.object({
      id,
      email: z.string(),
      role,
      invitedBy: z.string().nullable(),
      expiresAt: time,
      createdAt: time,
    }),
  ),
});
export const staffInvitedResponse = z.object({ ...done, invitation: id });
export const staffRoleResponse = z.object({ ...done, role });
export const staffInvitationResponse = z.object({
  ...done,
  invitation: z.object({ email: z.string(), role }),
});

// ── Drops ──────────────────────────────────────────────────────────────────────────────────────

const dropState = z.enum(['upcoming', 'live', 'past']);
const dropFields = {
  id,
  ...names,
  release_at: time,
  hold_minutes: count.nullable(),
  per_customer_limit: count.nullable(),
  state: dropState,
} as const;
export const dropListResponse = z.object({
  ...done,
  drops: z.array(z.object({ ...dropFields, products: count, unitsLeft: count })),
});
/** A drop as its editor loads and saves it. */
export const dropEditor = z.object({
  ...dropFields,
  version: count,
  products: z.array(
    z.object({ id, ...names, link: z.string(), quantity: count, per_customer_limit: count.nullable() }),
  ),
});
export const dropEditorResponse = z.object({ ...done, drop: dropEditor });

const dropUnits = { left: count, sold: count, held: count } as const;
export const dropLiveResponse = z.object({
  ...done,
  now: time,
  drop: z.object({
    id,
    name: z.string(),
    release_at: time,
    hold_minutes: count.nullable(),
    per_customer_limit: count.nullable(),
    state: dropState,
  }),
  totals: z.object(dropUnits),
  products: z.array(
    z.object({
      id,
      name: z.string(),
      link: z.string(),
      perCustomerLimit: count.nullable(),
      ...dropUnits,
      variants: z.array(
        z.object({
          id,
          sku: z.string(),
          options: z.string().nullable(),
          perCustomerLimit: count.nullable(),
          ...dropUnits,
        }),
      ),
    }),
  ),
  ordersPerMinute: z.array(z.object({ minutesAgo: count, orders: count })),
  holds: z.object({
    orders: count,
    units: count,
    list: z.array(z.object({ id, units: count, placedAt: time, expiresAt: time })),
  }),
});

// ── Exchange rate, promo codes, shipments, information pages ──────────────────────────────────

export const exchangeRateResponse = z.object({
  ...done,
  current: z
    .object({
      rate: z.number().describe('Roubles a dollar'),
      rateDate: z.string().describe('YYYY-MM-DD the rate is of'),
      source: z.string(),
      setBy: z.string().nullable().describe('The staff member who set it by hand'),
      fetchedAt: time,
    })
    .nullable(),
  withheld: z.boolean().describe('The shop stopped taking dollar orders: the rate is too old'),
  maxAgeDays: count,
});

export const promoCode = z.object({
  id,
  code: z.string(),
  kind: z.enum(['percent', 'amount']),
  value: z.number().describe('Percent, or roubles'),
  min_order: roubles,
  starts_at: time.nullable(),
  ends_at: time.nullable(),
  total_limit: count.nullable(),
  per_customer_limit: count.nullable(),
  applies_to_drops: z.boolean(),
  projects: z.array(id),
  categories: z.array(id),
  products: z.array(id),
  uses: count,
  paused: z.boolean(),
  state: z.enum(['active', 'paused', 'scheduled', 'expired', 'used-up']),
  version: count,
});
export const promoCodeListResponse = z.object({
  ...done,
  promoCodes: z.array(promoCode.extend({ paid_orders: count, revenue: roubles, discount_given: roubles })),
});
export const promoCodeResponse = z.object({
  ...done,
  promoCode: promoCode.extend({
    orders: z.array(
      z.object({ id, date: time, email: z.string(), status: orderStatus, discount: roubles, total: roubles }),
    ),
  }),
});

const trackingEvent = z.object({
  occurred_at: time,
  description: z.string(),
  location: z.string().nullable(),
  kind: z.string(),
});
const shippedItem = z.object({ sku: z.string(), count });
export const shipment = z.object({
  id,
  carrier,
  state: z.string(),
  track_code: z.string().nullable(),
  batch: z.string().nullable(),
  weight: z.number().describe('Grams'),
  declared_value: roubles,
  error: z.string().nullable(),
  delivered_at: time.nullable(),
  created_at: time,
  items: z.array(shippedItem),
  events: z.array(trackingEvent),
});
export const orderShipmentsResponse = z.object({
  ...done,
  shipments: z.object({
    list: z.array(shipment),
    left: z.array(shippedItem).describe('Units no shipment carries yet'),
  }),
});
export const shipmentResponse = z.object({ ...done, shipment });
export const stalledShipmentsResponse = z.object({
  ...done,
  days: count.describe('Without a tracking event for this many days'),
  shipments: z.array(
    z.object({
      id,
      order: id,
      carrier,
      track_code: z.string().nullable(),
      last_event_at: time.nullable(),
      created_at: time,
    }),
  ),
});

export const infoPage = z.object({
  page: z.enum(STATIC_PAGES),
  html_ru: z.string(),
  html_en: z.string(),
  version: count,
  updatedAt: time.nullable(),
});
export const infoPagesResponse = z.object({ ...done, pages: z.array(infoPage) });
export const infoPageResponse = z.object({ ...done, page: infoPage });
