import { useShop } from '../lib/shop.ts';
import { FormField } from './form-field.tsx';

/** A new password and its confirmation, as registration and the password reset ask for them. */
export function NewPasswordFields({
  label,
  minLength,
  errors,
}: {
  label: string;
  minLength: number;
  errors: { password?: string[] | undefined; password_confirmation?: string[] | undefined } | undefined;
}) {
  const { t } = useShop();
  return (
    <>
      <FormField
        name="password"
        type="password"
        label={label}
        autoComplete="new-password"
        required
        minLength={minLength}
        hint={t('password-hint', { count: minLength })}
        errors={errors?.password}
      />
      <FormField
        name="password_confirmation"
        type="password"
        label={t('password-confirmation')}
        autoComplete="new-password"
        required
        errors={errors?.password_confirmation}
      />
    </>
  );
}
