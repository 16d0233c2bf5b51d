import { useState } from 'react';
import { imageSrcSet, imageUrl } from '../../contract/images.ts';
import { useShop } from '../lib/shop.ts';

/** The product's images: a large one and, when there are several, thumbnails choosing it. */
export function Gallery({ images, name }: { images: string[]; name: string }) {
  const { t } = useShop();
  const [current, setCurrent] = useState(0);
  const image = images[current] ?? images[0];
  if (!image) return <div className="gallery gallery--empty" />;
  return (
    <section className="gallery" aria-label={t('product-images')}>
      <img
        key={image}
        className="gallery__main"
        src={imageUrl('products', image, 640)}
        srcSet={imageSrcSet('products', image)}
        sizes="(max-width: 860px) calc(100vw - 2rem), 560px"
        alt={name}
        width={640}
        height={640}
        fetchPriority="high"
      />
      {images.length > 1 ? (
        <ul className="gallery__thumbnails">
          {images.map((file, index) => (
            <li key={file}>
              <button
                type="button"
                aria-label={t('show-image', { number: index + 1 })}
                aria-pressed={index === current}
                onClick={() => setCurrent(index)}
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
  );
}
