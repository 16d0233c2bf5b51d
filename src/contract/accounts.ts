import { LOCALES } from './locale.ts';
import { z } from './zod.ts';

/** A customer, or staff: a manager runs catalogue and orders; an admin also staff and deletions. */
export const USER_ROLES = ['customer', 'manager', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export type StaffRole = Exclude<UserRole, 'customer'>;

/**
 * Wire shapes of the account calls (spec sections 3, 5, 7). Messages are keys of
 * src/contract/error-messages.ts, translated into the visitor's language at the edge.
 */

export const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 200;

export const email = z
  .string({ error: 'email-required' })
  .trim()
  .min(1, 'email-required')
  .max(254, 'email-invalid')
  .pipe(z.email('email-invalid'))
  .transform((value) => value.toLowerCase());

const password = z
  .string({ error: 'password-required' })
  .min(1, 'password-required')
  .max(PASSWORD_MAX_LENGTH, 'password-too-long');
const newPassword = password.pipe(z.string().min(PASSWORD_MIN_LENGTH, 'password-too-short'));
const confirmation = z.string({ error: 'password-confirmation-required' });

/** Forms send '1', JSON may send 1 or true. */
const agreed = z
  .union([z.literal('1'), z.literal(1), z.literal(true), z.literal('0'), z.literal(0), z.literal(false)], {
    error: 'privacy-policy-required',
  })
  .optional()
  .transform((value) => value === '1' || value === 1 || value === true);

const token = z
  .string({ error: 'link-incomplete' })
  .trim()
  .min(1, 'link-incomplete')
  .max(200, 'link-incomplete');

export const loginBody = z.object({ email, password, remember: z.unknown().optional() });

/** The second step of a staff sign-in: six digits from the app, or a recovery code. */
const secondFactorCode = z
  .string({ error: 'second-factor-required' })
  .trim()
  .min(1, 'second-factor-required')
  .max(40, 'second-factor-invalid');
export const secondFactorBody = z.object({ code: secondFactorCode });

export const registrationBody = z
  .object({
    locale: z.enum(LOCALES).default('ru'),
    email,
    password: newPassword,
    password_confirmation: confirmation,
    privacy_policy: agreed,
  })
  .superRefine((value, context) => {
    if (value.password !== value.password_confirmation) {
      context.addIssue({
        code: 'custom',
        path: ['password_confirmation'],
        message: 'password-confirmation-mismatch',
      });
    }
    if (!value.privacy_policy) {
      context.addIssue({ code: 'custom', path: ['privacy_policy'], message: 'privacy-policy-required' });
    }
  });

export const restoreBody = z.object({ email, locale: z.enum(LOCALES).optional() });

export const resetBody = z
  .object({ email, password: newPassword, password_confirmation: confirmation, token })
  .refine((value) => value.password === value.password_confirmation, {
    path: ['password_confirmation'],
    message: 'password-confirmation-mismatch',
  });

export const verifyQuery = z.object({ token });

const profileField = (max: number) =>
  z
    .string()
    .trim()
    .max(max, 'field-too-long')
    .optional()
    .transform((value) => (value ? value : undefined));

/** Personal details: only non-empty fields change (spec section 5). */
export const profileBody = z.object({
  first_name: profileField(100),
  last_name: profileField(100),
  phone: profileField(40).refine((value) => value === undefined || /^[+\d][\d\s()-]{4,}$/.test(value), {
    message: 'phone-invalid',
  }),
  country: profileField(2).refine((value) => value === undefined || /^[A-Z]{2}$/.test(value), {
    message: 'country-invalid',
  }),
  city: profileField(100),
  zip: profileField(20),
  address: profileField(300),
});

export const userSchema = z.object({
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  phone: z.string().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  address: z.string().nullable(),
  isAdmin: z.boolean().describe('Staff: may open the back office'),
  emailConfirmed: z
    .boolean()
    .describe('The e-mail was confirmed by its link; until then the order history shows only orders to pay'),
  role: z
    .enum(USER_ROLES)
    .describe('customer; manager (catalogue and orders); admin (also staff and deletions)'),
});

export const userResponse = z.object({ success: z.literal(true), user: userSchema.nullable() });
/** A sign-in: the user, or `secondFactor: true` (user null) when staff must send their code next. */
export const loginResponse = userResponse.extend({
  secondFactor: z
    .literal(true)
    .optional()
    .describe('The password passed; POST the code to /api/login/code to finish signing in'),
});
export const twoFactorSetupResponse = z.object({
  success: z.literal(true),
  uri: z.string().describe('otpauth:// URI for an authenticator app'),
  secret: z.string().describe('The same secret in base32, to type in by hand'),
  qrSvg: z.string().describe('The URI as a QR code, an SVG document'),
});
export const twoFactorConfirmResponse = z.object({
  success: z.literal(true),
  recoveryCodes: z.array(z.string()).describe('Ten single-use codes for a lost phone, shown this once'),
});
export const doneResponse = z.object({ success: z.literal(true), message: z.string().optional() });

export type LoginInput = z.infer<typeof loginBody>;
export type RegistrationInput = z.infer<typeof registrationBody>;
export type ResetInput = z.infer<typeof resetBody>;
export type ProfileInput = z.infer<typeof profileBody>;
export type User = z.infer<typeof userSchema>;
