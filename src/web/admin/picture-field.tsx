import { useState } from 'react';
import { type ImageFolder, imageUrl } from '../../contract/images.ts';
import { FilePicker } from './file-picker.tsx';
import { useAdminShop } from './text.ts';

/**
 * A project's logo or a partner's picture, chosen in the file manager (where it can be uploaded
 * first). Its name is what is saved; the server refuses a name that is not stored. A saved name
 * that points nowhere (`missing`, or a picture that fails to load) is said to be missing rather
 * than shown as a broken image. Render it outside the form: the file manager has a form of its own.
 */
export function PictureField({
  label,
  folder,
  value,
  missing,
  onChange,
  errors,
}: {
  label: string;
  folder: Exclude<ImageFolder, 'products'>;
  value: string;
  /** The server found the saved name not stored. */
  missing: boolean;
  onChange: (name: string) => void;
  errors?: string[] | undefined;
}) {
  const { t } = useAdminShop();
  const [picking, setPicking] = useState(false);
  // A picture just chosen is still among the uploads until the save makes it a logo.
  const [chosen, setChosen] = useState<{ name: string; url: string } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const preview = chosen?.name === value ? chosen.url : value ? imageUrl(folder, value, 160) : null;
  const isMissing = value !== '' && chosen?.name !== value && (missing || failed === value);

  return (
    <fieldset className="form-field picture-field">
      <legend className="admin-label">{label}</legend>
      <div className="picture-field__row">
        {value === '' ? (
          <span className="admin-muted">{t('admin-picture-none')}</span>
        ) : isMissing || !preview ? (
          <span className="picture-field__missing" role="note">
            {t('admin-picture-missing', { name: value })}
          </span>
        ) : (
          <img
            src={preview}
            alt={t('admin-picture-current', { name: value })}
            width={80}
            height={80}
            className="admin-thumb"
            onError={() => setFailed(value)}
          />
        )}
        <button type="button" className="button" onClick={() => setPicking(true)}>
          {t('admin-picture-choose')}
        </button>
        {value !== '' ? (
          <button type="button" className="link-button" onClick={() => onChange('')}>
            {t('admin-picture-remove')}
          </button>
        ) : null}
      </div>
      {errors && errors.length > 0 ? (
        <p className="form-field__error" role="alert">
          {errors.join(' ')}
        </p>
      ) : null}
      <FilePicker
        open={picking}
        single
        heading={t('admin-picture-choose-heading', { label })}
        pickLabel={() => t('admin-picture-use')}
        onPick={([file]) => {
          if (!file) return;
          setChosen({ name: file.name, url: file.url });
          onChange(file.name);
        }}
        onClose={() => setPicking(false)}
      />
    </fieldset>
  );
}
