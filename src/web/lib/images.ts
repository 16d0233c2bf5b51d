/** Public URLs of stored images and their responsive variants (see src/server/files/images.ts). */
export const IMAGE_WIDTHS = [320, 640, 1200] as const;
export type ImageFolder = 'products' | 'projects' | 'partners';

export const imageUrl = (folder: ImageFolder, name: string, width?: number) =>
  width ? `/img/${folder}/${width}/${name}` : `/img/${folder}/${name}`;

export const imageSrcSet = (folder: ImageFolder, name: string) =>
  IMAGE_WIDTHS.map((width) => `${imageUrl(folder, name, width)} ${width}w`).join(', ');
