import { lazy, Suspense, useRef, useState } from 'react';
import { imageSrcSet, imageUrl } from '../../contract/images.ts';
import { useHydrated } from '../lib/enhanced-forms.ts';
import { useShop } from '../lib/shop.ts';
import { useSlides } from '../lib/slides.ts';
import { ChevronIcon } from './icons.tsx';

/** The full-screen view: its own chunk, downloaded when a shopper first opens it. */
const GalleryViewer = lazy(() =>
  import('./gallery-viewer.tsx').then((module) => ({ default: module.GalleryViewer })),
);

const SLIDE_SIZES = '(max-width: 860px) calc(100vw - 2rem), 560px';

/**
 * The product's images: a row of large ones a finger swipes (CSS scroll snapping: the browser
 * scrolls, the scripts only follow), arrows and the arrow keys, thumbnails when there are several,
 * and a zoomable full-screen view. The server sends the first image; the others follow once the
 * page runs. `images` is a plain list of file names: a new list (another colour
 * chosen) starts again at its first image.
 */
export function Gallery({ images, name }: { images: string[]; name: string }) {
  if (images.length === 0) return <div className="gallery gallery--empty" />;
  return <ImageRow key={images.join('\n')} images={images} name={name} />;
}

function ImageRow({ images, name }: { images: string[]; name: string }) {
  const { t } = useShop();
  const slides = useSlides(images.length);
  /** The image the full-screen view opened at, while it is open. */
  const [viewing, setViewing] = useState<number | null>(null);
  const openers = useRef<Array<HTMLButtonElement | null>>([]);
  const several = images.length > 1;
  // The other images come once the page runs: they must not compete with the first one's download.
  const hydrated = useHydrated();

  /** Back from the full screen at the image it showed, focus on that image's button. */
  const closeViewer = (index: number) => {
    setViewing(null);
    slides.show(index, { jump: true });
    openers.current[index]?.focus({ preventScroll: true });
  };

  return (
    <>
      {/* The arrow keys move between the images from any control inside. */}
      <section className="gallery" aria-label={t('product-images')} onKeyDown={slides.onKeyDown}>
        <div className="gallery__stage">
          <ul className="gallery__slides" {...slides.stripProps}>
            {images.map((file, index) => (
              <li key={file} className="gallery__slide">
                <button
                  type="button"
                  className="gallery__open"
                  ref={(button) => {
                    openers.current[index] = button;
                  }}
                  // One stop for Tab: the image in view; the arrows reach the others.
                  tabIndex={index === slides.current ? 0 : -1}
                  aria-label={t('open-image', { number: index + 1, count: images.length })}
                  onClick={() => setViewing(index)}
                >
                  {index === 0 || hydrated ? (
                    <img
                      src={imageUrl('products', file, 640)}
                      srcSet={imageSrcSet('products', file)}
                      sizes={SLIDE_SIZES}
                      alt={name}
                      width={640}
                      height={640}
                      {...(index === 0 ? { fetchPriority: 'high' } : { loading: 'lazy', decoding: 'async' })}
                    />
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
          {several ? (
            <>
              <button
                type="button"
                className="gallery__arrow gallery__arrow--previous"
                aria-label={t('previous-image')}
                onClick={() => slides.show(slides.current - 1)}
              >
                <ChevronIcon />
              </button>
              <button
                type="button"
                className="gallery__arrow gallery__arrow--next"
                aria-label={t('next-image')}
                onClick={() => slides.show(slides.current + 1)}
              >
                <ChevronIcon />
              </button>
            </>
          ) : null}
        </div>
        {several ? (
          <ul className="gallery__thumbnails">
            {images.map((file, index) => (
              <li key={file}>
                <button
                  type="button"
                  aria-label={t('show-image', { number: index + 1 })}
                  aria-pressed={index === slides.current}
                  onClick={() => slides.show(index)}
                >
                  <img
                    src={imageUrl('products', file, 160)}
                    srcSet={`${imageUrl('products', file, 160)} 1x, ${imageUrl('products', file, 320)} 2x`}
                    alt=""
                    width={72}
                    height={72}
                    loading="lazy"
                  />
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      {viewing === null ? null : (
        <Suspense fallback={null}>
          <GalleryViewer images={images} name={name} start={viewing} onClose={closeViewer} />
        </Suspense>
      )}
    </>
  );
}
