/**
 * Stored images and their responsive variants: the original (at most 1200 px wide) at
 * `/img/{folder}/{name}` and one WebP per width at `/img/{folder}/{width}/{name}`.
 */
export const IMAGE_WIDTHS = [160, 320, 640, 800, 1200] as const;
export type ImageFolder = 'products' | 'projects' | 'partners';

export const imageUrl = (folder: ImageFolder, name: string, width?: number) =>
  width ? `/img/${folder}/${width}/${name}` : `/img/${folder}/${name}`;

export const imageSrcSet = (folder: ImageFolder, name: string) =>
  IMAGE_WIDTHS.map((width) => `${imageUrl(folder, name, width)} ${width}w`).join(', ');
