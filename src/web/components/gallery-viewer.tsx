import { type MouseEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { imageSrcSet, imageUrl } from '../../contract/images.ts';
import { useShop } from '../lib/shop.ts';
import { useSlides } from '../lib/slides.ts';
import { ChevronIcon, CloseIcon } from './icons.tsx';

/** How much larger than the fitted image a zoomed one is. */
const ZOOM = 2.5;

/** A zoomed image: its width in CSS pixels and the point (fractions of the image) to keep in the middle. */
interface Zoom {
  width: number;
  x: number;
  y: number;
}

/**
 * The product's images on the whole screen, in a modal `<dialog>`: swipe or the arrows between
 * them, a click (or Enter) on an image zooms into that point and scrolls around it, Escape or the
 * close button leave. `onClose` hears which image was shown last.
 */
export function GalleryViewer({
  images,
  name,
  start,
  onClose,
}: {
  images: string[];
  name: string;
  start: number;
  onClose: (index: number) => void;
}) {
  const { t } = useShop();
  const dialog = useRef<HTMLDialogElement>(null);
  const zoomedSlide = useRef<HTMLLIElement>(null);
  const slides = useSlides(images.length, start);
  const [zoom, setZoom] = useState<Zoom | null>(null);
  const { show } = slides;

  useEffect(() => {
    dialog.current?.showModal();
    show(start, { jump: true });
  }, [show, start]);

  useLayoutEffect(() => {
    const frame = zoomedSlide.current;
    if (!zoom || !frame) return;
    frame.scrollLeft = zoom.x * frame.scrollWidth - frame.clientWidth / 2;
    frame.scrollTop = zoom.y * frame.scrollHeight - frame.clientHeight / 2;
  }, [zoom]);

  const go = (index: number) => {
    setZoom(null);
    show(index);
  };

  const toggleZoom = (event: MouseEvent<HTMLButtonElement>) => {
    const image = event.currentTarget.querySelector('img');
    if (zoom || !image?.naturalWidth) return setZoom(null);
    // The row stops scrolling while zoomed: settle it on this image first.
    show(slides.current, { jump: true });
    // The picture as drawn inside the image's box (object-fit: contain).
    const box = image.getBoundingClientRect();
    const scale = Math.min(box.width / image.naturalWidth, box.height / image.naturalHeight);
    const width = image.naturalWidth * scale;
    const height = image.naturalHeight * scale;
    const left = box.left + (box.width - width) / 2;
    const top = box.top + (box.height - height) / 2;
    const within = (value: number) => Math.min(1, Math.max(0, value));
    // A click zooms into the point under it; Enter or Space (no pointer) into the middle.
    const pointed = event.detail > 0;
    setZoom({
      width: width * ZOOM,
      x: pointed ? within((event.clientX - left) / width) : 0.5,
      y: pointed ? within((event.clientY - top) / height) : 0.5,
    });
  };

  const several = images.length > 1;
  return (
    <dialog
      ref={dialog}
      className="gallery-viewer"
      aria-label={name}
      onClose={() => onClose(slides.current)}
      onKeyDown={(event) => {
        slides.onKeyDown(event);
        if (event.defaultPrevented) setZoom(null);
      }}
    >
      <p className="gallery-viewer__position" aria-live="polite">
        {t('image-position', { number: slides.current + 1, count: images.length })}
      </p>
      <ul
        className={`gallery-viewer__slides ${zoom ? 'gallery-viewer__slides--zoomed' : ''}`}
        {...slides.stripProps}
      >
        {images.map((file, index) => {
          const zoomed = zoom !== null && index === slides.current ? zoom : null;
          return (
            <li
              key={file}
              className={`gallery-viewer__slide ${zoomed ? 'gallery-viewer__slide--zoomed' : ''}`}
              ref={zoomed ? zoomedSlide : undefined}
            >
              <button
                type="button"
                className="gallery-viewer__zoom"
                tabIndex={index === slides.current ? 0 : -1}
                aria-label={zoomed ? t('zoom-out') : t('zoom-in')}
                onClick={toggleZoom}
              >
                <img
                  src={imageUrl('products', file, 1200)}
                  srcSet={imageSrcSet('products', file)}
                  sizes={zoomed ? `${Math.round(zoomed.width)}px` : '100vw'}
                  alt={name}
                  width={1200}
                  height={1200}
                  loading={index === start ? 'eager' : 'lazy'}
                  decoding="async"
                  style={zoomed ? { width: zoomed.width } : undefined}
                />
              </button>
            </li>
          );
        })}
      </ul>
      {several ? (
        <>
          <button
            type="button"
            className="gallery__arrow gallery__arrow--previous"
            aria-label={t('previous-image')}
            onClick={() => go(slides.current - 1)}
          >
            <ChevronIcon />
          </button>
          <button
            type="button"
            className="gallery__arrow gallery__arrow--next"
            aria-label={t('next-image')}
            onClick={() => go(slides.current + 1)}
          >
            <ChevronIcon />
          </button>
        </>
      ) : null}
      <button
        type="button"
        className="icon-button gallery-viewer__close"
        onClick={() => dialog.current?.close()}
      >
        <CloseIcon label={t('close-images')} />
      </button>
    </dialog>
  );
}
