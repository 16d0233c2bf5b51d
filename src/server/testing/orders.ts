import type { OrderInput } from '../../contract/orders.ts';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';

/** A recipient in Kazan paying with Robokassa for delivery by Russian Post, for tests that place orders. */
export const orderInput = (overrides: Partial<OrderInput> = {}): OrderInput => ({
  locale: 'ru',
  paymentMethod: 'robokassa',
  email: 'buyer@example.com',
  firstName: 'Anna',
  lastName: 'Petrova',
  phone: '+7 900 000-00-00',
  deliveryMethod: 'russian_post',
  country: 'RU',
  city: 'Kazan',
  address: 'Kremlin st. 1',
  zip: '420111',
  comment: undefined,
  ...overrides,
});

let shoppers = 0;

/** A new shopper with a confirmed, unique e-mail address. */
export async function newShopper(db: Executor): Promise<{ id: number; email: string }> {
  const [user] = await db
    .insert(users)
    .values({
      email: `shopper${++shoppers}-${process.pid}@example.com`,
      passwordHash: '',
      emailVerifiedAt: new Date(),
    })
    .returning({ id: users.id, email: users.email });
  if (!user) throw new Error('the shopper was not stored');
  return user;
}
