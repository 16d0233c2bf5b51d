import type pg from 'pg';
import { hashPassword } from '../../src/server/accounts/passwords.ts';

/**
 * The scale shop's order book: 50,000 orders over the last year from 5,000 registered customers
 * and guests, one to four items each (the product's first variant, its price at the time), every
 * status from awaiting payment to shipped, each with its status history row. Set-based SQL over
 * `generate_series`, values derived from the order's number through `hashint4`, so two runs build
 * the same book; it takes a few seconds on top of the catalogue.
 */

export const SCALE_ORDERS = 50_000;
export const SCALE_CUSTOMERS = 5_000;
/** The back office's account in the scale database (the admin-screen timings sign in with it). */
export const SCALE_ADMIN = { email: 'scale-admin@example.com', password: 'scale admin password' };

/** `h(k)`: a non-negative pseudo-random integer for attribute k of row number `i`. */
const h = (k: number) => `abs(hashint4(i * 16 + ${k}))`;

const FIRST_NAMES = ['Анна', 'Иван', 'Мария', 'Олег', 'Ольга', 'Пётр', 'Alice', 'Bob', 'Chen', 'Dana'];
const LAST_NAMES = ['Иванова', 'Петров', 'Смирнова', 'Кузнецов', 'Орлова', 'Smith', 'Lee', 'Garcia'];
const CITIES = ['Москва', 'Санкт-Петербург', 'Казань', 'Новосибирск', 'Berlin', 'Almaty'];

/**
 * Share of each status out of 100 (0 awaiting payment, 1 paid, 2 cancelled, 3 processed, 4 ready
 * to ship, 5 shipped, 6 special), in order.
 */
const STATUS_SHARES = [2, 15, 15, 12, 10, 40, 6];
const statusCase = (draw: string) => {
  let upTo = 0;
  const branches = STATUS_SHARES.map((share, status) => {
    upTo += share;
    return `when ${draw} < ${upTo} then ${status}`;
  });
  return `case ${branches.join(' ')} else 5 end`;
};

const CUSTOMERS_SQL = `
  insert into users (email, password_hash, role, email_verified_at, locale, first_name, last_name,
    phone, country, city, zip, address, created_at, updated_at)
  select 'customer' || i || '@scale.example', $2, 'customer', now(),
    case when i % 3 = 0 then 'en' else 'ru' end,
    ($3::text[])[1 + ${h(1)} % array_length($3::text[], 1)],
    ($4::text[])[1 + ${h(2)} % array_length($4::text[], 1)],
    '+7 9' || lpad((${h(3)} % 1000000000)::text, 9, '0'),
    case when i % 3 = 0 then 'DE' else 'RU' end,
    ($5::text[])[1 + ${h(4)} % array_length($5::text[], 1)],
    lpad((${h(5)} % 1000000)::text, 6, '0'),
    'ул. Ленина, ' || (1 + ${h(6)} % 200),
    now() - make_interval(days => 400 + ${h(7)} % 400), now()
  from generate_series(1, $1::int) as i`;

/** Three in five orders are a registered customer's; the rest a guest's. */
const ORDERS_SQL = `
  with drawn as (
    select i, ${h(8)} % 100 as status_draw, ${h(9)} % 5 < 3 as registered,
      $3::int + ${h(10)} % $2::int as user_id,
      now() - make_interval(days => ${h(11)} % 365, secs => ${h(12)} % 86400) as placed
    from generate_series(1, $1::int) as i
  ),
  statused as (
    select d.*, ${statusCase('d.status_draw')} as status from drawn d
  ),
  -- Orders awaiting payment are the last hour's, and do not expire while the bench runs.
  placed as (
    select s.i, s.registered, s.user_id, s.status,
      case when s.status = 0 then now() - make_interval(secs => s.i % 3600) else s.placed end as placed,
      case when s.status = 0 then now() + interval '1 day' else s.placed + interval '1 hour' end as expires
    from statused s
  )
  insert into orders (user_id, locale, email, first_name, last_name, phone, delivery_method,
    delivery_country, delivery_city, delivery_address, delivery_zip, payment_method, products_cost,
    products_amount, delivery_cost, currency, usd_rate, status, track_code, expires_at, paid_at, created_at, updated_at)
  select case when p.registered then u.id end, u.locale,
    case when p.registered then u.email else 'guest' || p.i || '@scale.example' end,
    u.first_name, u.last_name, u.phone,
    (array['russian_post', 'boxberry', 'boxberry.courier'])[1 + p.i % 3],
    u.country, u.city, u.address, u.zip,
    case when u.locale = 'en' then 'paypal' else 'robokassa' end,
    0, 0, (25000 + (p.i % 7) * 5000), case when u.locale = 'en' then 'USD' else 'RUB' end,
    case when u.locale = 'en' then 92.5 end,
    p.status, case when p.status = 5 then 'RA' || lpad(p.i::text, 9, '0') || 'RU' end,
    p.expires,
    case when p.status not in (0, 2) then p.placed + interval '10 minutes' end,
    p.placed, p.placed
  from placed p
  join users u on u.id = p.user_id
  order by p.placed`;

/** One to four distinct products per order, each at the first variant's price, one to three units. */
const ORDER_ITEMS_SQL = `
  with picks as (
    select o.id as order_id, 1 + abs(hashint4(o.id * 8 + k)) % $1::int as position,
      1 + abs(hashint4(o.id * 8 + 5 + k)) % 3 as count
    from orders o
    cross join generate_series(0, 3) as k
    where k <= abs(hashint4(o.id * 8 + 4)) % 4
  )
  insert into order_items (order_id, product_id, variant_id, sku, name_ru, name_en, price, sale, count)
  select picks.order_id, p.id, v.id, v.sku, p.name_ru, p.name_en, p.price, p.sale, picks.count
  from picks
  join products p on p.position = picks.position
  join lateral (
    select id, sku from product_variants where product_id = p.id order by position, id limit 1
  ) v on true
  on conflict do nothing`;

const ORDER_TOTALS_SQL = `
  update orders o set products_cost = totals.cost,
    products_amount = case when o.currency = 'USD' then totals.cents else totals.cost end
  from (
    select i.order_id, sum(coalesce(i.sale, i.price) * i.count)::int as cost,
      sum(round(coalesce(i.sale, i.price) / (100 * o.usd_rate), 2) * 100 * i.count)::int as cents
    from order_items i join orders o on o.id = i.order_id group by i.order_id
  ) totals
  where o.id = totals.order_id`;

const STATUS_HISTORY_SQL = `
  insert into order_status_history (order_id, status, created_at)
  select id, 0, created_at from orders
  union all
  select id, status, coalesce(paid_at, created_at + interval '1 hour') from orders where status <> 0`;

/** Adds customers, the scale admin and the orders to the scale database `client` is connected to. */
export async function seedScaleOrders(
  client: pg.Client,
  step: (name: string, run: () => Promise<unknown>) => Promise<void>,
  options: { orders?: number; customers?: number } = {},
) {
  const orders = options.orders ?? SCALE_ORDERS;
  const customers = options.customers ?? SCALE_CUSTOMERS;
  const query = (text: string, values: unknown[] = []) => client.query(text, values);
  const { rows: products } = await query('select count(*)::int as count from products');
  const productCount = (products[0] as { count: number }).count;
  let firstCustomer = 0;
  await step(`${customers.toLocaleString('en-US')} customers and the admin`, async () => {
    // Customers never sign in here, so one hash serves all of them; the admin's is real.
    const [customerHash, adminHash] = await Promise.all([
      hashPassword('scale customer password'),
      hashPassword(SCALE_ADMIN.password),
    ]);
    await query(
      `insert into users (email, password_hash, role, email_verified_at, locale)
       values ($1, $2, 'admin', now(), 'en')`,
      [SCALE_ADMIN.email, adminHash],
    );
    const { rows } = await query(`${CUSTOMERS_SQL} returning id`, [
      customers,
      customerHash,
      FIRST_NAMES,
      LAST_NAMES,
      CITIES,
    ]);
    firstCustomer = Math.min(...rows.map((row: { id: number }) => row.id));
  });
  await step(`${orders.toLocaleString('en-US')} orders`, () =>
    query(ORDERS_SQL, [orders, customers, firstCustomer]),
  );
  await step('order items and totals', async () => {
    await query(ORDER_ITEMS_SQL, [productCount]);
    await query(ORDER_TOTALS_SQL);
  });
  await step('status history', () => query(STATUS_HISTORY_SQL));
}
