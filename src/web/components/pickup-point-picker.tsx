import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { daysText } from '../lib/checkout.ts';
import { useShop } from '../lib/shop.ts';
import type { PickupPointsAnswer } from '../routes/order/pickup-points.ts';

const pointsUrl = (city: string, zip: string) =>
  `/order/shipping/points?${new URLSearchParams({ city: city.trim(), zip: zip.trim() })}`;

/**
 * The built-in pickup-point picker (test mode, or no real Boxberry token): a modal dialog listing the
 * points of a city, with a search by city. Opened with the shipping form's city; choosing a point
 * hands its code and address back ("620014, Екатеринбург г, Малышева ул, д.36").
 */
export function PickupPointPicker({
  open,
  city,
  zip,
  onChoose,
  onClose,
}: {
  open: boolean;
  city: string;
  zip: string;
  onChoose: (point: { code: string; address: string }) => void;
  onClose: () => void;
}) {
  const { locale, t } = useShop();
  const dialog = useRef<HTMLDialogElement>(null);
  const searchField = useRef<HTMLInputElement>(null);
  const fetcher = useFetcher<PickupPointsAnswer>();
  const [search, setSearch] = useState(city);
  const headingId = useId();
  const searchId = useId();
  const load = useRef(fetcher.load);
  load.current = fetcher.load;

  // The contents render only while open (so a closed picker adds nothing to the page); the effect
  // runs after they are in place, so the search field can take the focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: opens with the city of the moment it opens
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      searchField.current?.focus();
      setSearch(city);
      void load.current(pointsUrl(city, zip));
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  const answer = fetcher.data;
  const loading = fetcher.state !== 'idle';
  const points = answer && 'points' in answer ? answer.points : [];

  return (
    <dialog ref={dialog} className="pickup-dialog" aria-labelledby={headingId} onClose={onClose}>
      {open ? (
        <>
          <div className="pickup-dialog__header">
            <h2 id={headingId}>{t('pickup-point-choose-title')}</h2>
            <button
              type="button"
              className="icon-button pickup-dialog__close"
              aria-label={t('close')}
              onClick={() => dialog.current?.close()}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
          <fetcher.Form
            method="get"
            action="/order/shipping/points"
            className="pickup-dialog__search"
            role="search"
          >
            <label htmlFor={searchId}>{t('pickup-point-city')}</label>
            <div className="pickup-dialog__search-row">
              <input
                ref={searchField}
                id={searchId}
                name="city"
                type="search"
                autoComplete="address-level2"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
              <input type="hidden" name="zip" value={zip} />
              <button type="submit" className="button">
                {t('pickup-point-find')}
              </button>
            </div>
            <p className="form-field__hint">{t('pickup-point-search-hint')}</p>
          </fetcher.Form>
          <div className="pickup-dialog__results" aria-live="polite" aria-busy={loading}>
            {loading ? (
              <p className="pickup-dialog__status">
                <span className="spinner" aria-hidden="true" /> {t('pickup-points-loading')}
              </p>
            ) : answer && 'error' in answer ? (
              <p className="form-alert" role="alert">
                {answer.error}
              </p>
            ) : answer && points.length === 0 ? (
              <p className="pickup-dialog__status">{t('pickup-points-none', { city: answer.city || '—' })}</p>
            ) : null}
            {!loading && points.length > 0 ? (
              <ul className="pickup-points">
                {points.map((point) => (
                  <li key={point.code} className="pickup-point">
                    <div className="pickup-point__text">
                      <p className="pickup-point__name">{point.name}</p>
                      <p>{point.address}</p>
                      {point.workSchedule ? <p className="pickup-point__note">{point.workSchedule}</p> : null}
                      {point.period ? (
                        <p className="pickup-point__note">{daysText(t, locale, point.period)}</p>
                      ) : null}
                    </div>
                    <button type="button" className="button button--primary" onClick={() => onChoose(point)}>
                      {t('pickup-point-choose')}
                      <span className="visually-hidden">: {point.name}</span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </>
      ) : null}
    </dialog>
  );
}
