import { desc, eq } from 'drizzle-orm';
import type { User } from '../../contract/accounts.ts';
import { type DeliveryMethod, isDeliveryMethod } from '../../contract/delivery.ts';
import type { Recipient } from '../../contract/orders.ts';
import type { Executor } from '../db/client.ts';
import { orders } from '../db/schema.ts';

/**
 * The recipient the delivery step starts with when the shopper has not filled it in this session
 * (ADR 0059): the name and phone from the profile, else from the user's last order whatever became
 * of it (a cancelled one too); the address from the profile when it has one, else the last order's
 * address with its delivery method, so a pickup point comes back as a pickup point (with its code).
 */
export async function rememberedRecipient(
  db: Executor,
  userId: number,
  user: User,
): Promise<{ recipient: Recipient; method: DeliveryMethod | null }> {
  const [last] = await db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1);
  const filled = (value: string | null): value is string => value !== null && value.trim() !== '';
  const either = (own: string | null, ordered: string | undefined) => (filled(own) ? own : (ordered ?? ''));
  const profileAddress = filled(user.country) && filled(user.address);
  const address =
    profileAddress || !last
      ? {
          country: user.country ?? '',
          city: user.city ?? '',
          zip: user.zip ?? '',
          address: user.address ?? '',
        }
      : {
          country: last.deliveryCountry,
          city: last.deliveryCity,
          zip: last.deliveryZip,
          address: last.deliveryAddress,
          pickupPointCode: last.pickupPointCode ?? undefined,
        };
  const method =
    !profileAddress && last && isDeliveryMethod(last.deliveryMethod) ? last.deliveryMethod : null;
  return {
    recipient: {
      email: user.email,
      firstName: either(user.first_name, last?.firstName),
      lastName: either(user.last_name, last?.lastName),
      phone: either(user.phone, last?.phone),
      ...address,
    },
    method,
  };
}
