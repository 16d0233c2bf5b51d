import sharp from 'sharp';

/**
 * Demo artwork drawn from SVG: merchandise "product photos", project logos and partner cards. Only
 * shapes and gradients (no text, fonts may be missing). Every picture is deterministic, so the
 * content-addressed file names stay the same from one start to the next.
 */

// ── Design vocabulary (used by the catalogue) ───────────────────────────────────────────────────

export type EmblemKind = 'compass' | 'sheriff-star' | 'shield' | 'flame';
export type ItemKind = 'tshirt' | 'hoodie' | 'mug' | 'poster' | 'figure' | 'pin';
/** front and back of the item, a close-up of the print, the item in a setting, or (pins) a set of three. */
export type View = 'front' | 'back' | 'detail' | 'scene' | 'set';
/** The item's own colour: one of the project's brand colours or a garment classic. */
export type Tone = 'primary' | 'secondary' | 'accent' | 'black' | 'white' | 'heather';
export type Backdrop = 'light' | 'tint' | 'dark';
export type Character = 'knight' | 'mage' | 'outlaw' | 'pilot';
export type Landscape = 'fjords' | 'aurora' | 'canyon' | 'town' | 'space' | 'starmap' | 'forest';

export interface Brand {
  /** Dark base colour of the project. */
  primary: string;
  /** Second colour, usually lighter. */
  secondary: string;
  /** Bright highlight colour. */
  accent: string;
  emblem: EmblemKind;
}

export interface ImageDesign {
  item: ItemKind;
  view?: View;
  tone?: Tone;
  backdrop?: Backdrop;
  /** Figures: who stands on the base. */
  character?: Character;
  /** Posters: what the print shows. */
  landscape?: Landscape;
}

export interface PartnerArt {
  colours: readonly [string, string];
  mark: 'hexagon' | 'circle' | 'diamond' | 'triangle' | 'arch';
}

// ── Rendering entry points ──────────────────────────────────────────────────────────────────────

const PRODUCT_SIZE = 1200;

export async function renderProductImage(design: ImageDesign, brand: Brand): Promise<Buffer> {
  return rasterize(productSvg(design, brand));
}

export async function renderProjectLogo(brand: Brand): Promise<Buffer> {
  return rasterize(projectLogoSvg(brand));
}

export async function renderPartnerImage(art: PartnerArt): Promise<Buffer> {
  return rasterize(partnerSvg(art));
}

/** PNG with light compression: it is re-encoded to WebP by the image store right away. */
function rasterize(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
}

export function productSvg(design: ImageDesign, brand: Brand): string {
  const canvas = new Canvas(PRODUCT_SIZE, PRODUCT_SIZE);
  const look = lookOf(design, brand);
  const art = ITEMS[design.item];
  const view = design.view ?? 'front';
  const backdrop = design.backdrop ?? (view === 'front' ? 'light' : 'tint');
  let body: string;
  if (view === 'scene') body = art.scene(canvas, look);
  else if (view === 'set' && art.set) body = art.set(canvas, look);
  else if (view === 'back') body = paintBackdrop(canvas, backdrop, brand) + art.back(canvas, look);
  else if (view === 'detail')
    body = paintBackdrop(canvas, backdrop, brand) + zoom(art.focus, art.front(canvas, look));
  else body = paintBackdrop(canvas, backdrop, brand) + art.front(canvas, look);
  return canvas.svg(body);
}

// ── Colours ─────────────────────────────────────────────────────────────────────────────────────

type Rgb = [number, number, number];

function rgbOf(hex: string): Rgb {
  const value = Number.parseInt(hex.replace('#', ''), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

const hexOf = (rgb: Rgb) => `#${rgb.map((part) => Math.round(part).toString(16).padStart(2, '0')).join('')}`;

function mix(from: string, to: string, amount: number): string {
  const a = rgbOf(from);
  const b = rgbOf(to);
  return hexOf(
    [0, 1, 2].map((index) => (a[index] ?? 0) + ((b[index] ?? 0) - (a[index] ?? 0)) * amount) as Rgb,
  );
}

const shade = (colour: string, amount: number) => mix(colour, '#000000', amount);
const tint = (colour: string, amount: number) => mix(colour, '#ffffff', amount);

function luminance(colour: string): number {
  const [r, g, b] = rgbOf(colour).map((part) => {
    const channel = part / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const isDark = (colour: string) => luminance(colour) < 0.25;

const TONES: Record<'black' | 'white' | 'heather', string> = {
  black: '#232328',
  white: '#f3f2ef',
  heather: '#9da3a8',
};

const SKIN = '#f3c9a5';
const INK = '#2a2630';
const GOLD = ['#fff1b0', '#d9a93a', '#f6dc84', '#a8761c'] as const;

/** Everything a painter needs to know: the item colour and the two print colours that read on it. */
interface Look {
  body: string;
  print: { main: string; second: string };
  brand: Brand;
  character: Character;
  landscape: Landscape;
}

function lookOf(design: ImageDesign, brand: Brand): Look {
  const tone = design.tone ?? 'primary';
  const body = tone === 'primary' || tone === 'secondary' || tone === 'accent' ? brand[tone] : TONES[tone];
  return {
    body,
    print: printColours(body, brand),
    brand,
    character: design.character ?? 'knight',
    landscape: design.landscape ?? 'fjords',
  };
}

/** The brand colours that stand out on `body`, falling back to white or ink when none does. */
function printColours(body: string, brand: Brand): { main: string; second: string } {
  const brandColours = [brand.accent, brand.secondary, brand.primary].filter((colour) => colour !== body);
  const readable = brandColours.filter((colour) => contrast(colour, body) >= 2.2);
  const main = readable[0] ?? (isDark(body) ? '#ffffff' : INK);
  const second =
    brandColours.find((colour) => colour !== main && contrast(colour, body) >= 1.6) ??
    (isDark(body) ? tint(main, 0.5) : shade(main, 0.4));
  return { main, second };
}

// ── SVG canvas with a definitions collector ─────────────────────────────────────────────────────

type Stop = [offset: number, colour: string, opacity?: number];

class Canvas {
  private readonly definitions: string[] = [];
  private counter = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  private define(prefix: string, markup: (id: string) => string): string {
    const id = `${prefix}${++this.counter}`;
    this.definitions.push(markup(id));
    return `url(#${id})`;
  }

  /** A linear gradient, top to bottom unless told otherwise (coordinates relative to the shape). */
  linear(stops: Stop[], direction = { x1: 0, y1: 0, x2: 0, y2: 1 }): string {
    const { x1, y1, x2, y2 } = direction;
    return this.define(
      'l',
      (id) =>
        `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stopsOf(stops)}</linearGradient>`,
    );
  }

  radial(stops: Stop[], centre = { cx: 0.5, cy: 0.5, r: 0.5 }): string {
    const { cx, cy, r } = centre;
    return this.define(
      'r',
      (id) => `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stopsOf(stops)}</radialGradient>`,
    );
  }

  clip(shape: string): string {
    return this.define('c', (id) => `<clipPath id="${id}">${shape}</clipPath>`);
  }

  /** Vertical ribbing (cuffs, waistbands) as a repeating pattern. */
  ribs(colour: string): string {
    return this.define(
      'p',
      (id) =>
        `<pattern id="${id}" width="12" height="12" patternUnits="userSpaceOnUse"><rect width="5" height="12" fill="${colour}" opacity="0.16"/></pattern>`,
    );
  }

  svg(body: string): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}">` +
      `<defs>${this.definitions.join('')}</defs>${body}</svg>`
    );
  }
}

const stopsOf = (stops: Stop[]) =>
  stops
    .map(
      ([offset, colour, opacity = 1]) =>
        `<stop offset="${offset}" stop-color="${colour}" stop-opacity="${opacity}"/>`,
    )
    .join('');

/*
 * Soft edges without filters: librsvg spends about 0.2 s on every Gaussian blur of a 1200 px
 * picture, so shadows and creases are faked by stacking the shape with ever wider strokes at a low
 * opacity, and round shadows are radial gradients.
 */

/** A soft shadow of a shape (markup without its own fill), spread by `spread` px and moved. */
function shadowOf(
  shape: string,
  options: { dx?: number; dy?: number; spread?: number; opacity?: number } = {},
) {
  const { dx = 0, dy = 26, spread = 30, opacity = 0.3 } = options;
  return `<g transform="translate(${dx} ${dy})" fill="#000" stroke="#000" stroke-linejoin="round">${softLayers(spread, opacity, (width) => `<g stroke-width="${width}">${shape}</g>`)}</g>`;
}

/** Strokes (paths without fill) with a soft edge: `width` at the core, fading out to `width + spread`. */
function softStrokes(
  paths: string[],
  options: { colour: string; width: number; spread: number; opacity: number },
) {
  const { colour, width, spread, opacity } = options;
  const markup = paths.map((d) => `<path d="${d}"/>`).join('');
  return `<g fill="none" stroke="${colour}" stroke-linecap="round" stroke-linejoin="round">${softLayers(spread, opacity, (extra) => `<g stroke-width="${width + extra}">${markup}</g>`, 5)}</g>`;
}

/** Each layer adds a share of the opacity: the core gets all of them, the outer edge one. Layers cost time. */
function softLayers(
  spread: number,
  opacity: number,
  layer: (extraWidth: number) => string,
  steps = 8,
): string {
  const share = 1 - (1 - opacity) ** (1 / steps);
  return Array.from({ length: steps }, (_, index) => {
    const extra = ((steps - 1 - index) / (steps - 1)) * spread * 2;
    return `<g opacity="${share.toFixed(3)}">${layer(Math.round(extra))}</g>`;
  }).join('');
}

function groundShadow(canvas: Canvas, cx: number, cy: number, rx: number, ry: number, opacity = 0.3) {
  const fill = canvas.radial([
    [0, '#000', opacity],
    [0.55, '#000', opacity * 0.6],
    [1, '#000', 0],
  ]);
  return `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${fill}"/>`;
}

/** Enlarges `markup` around a point, for close-ups. */
function zoom(focus: { x: number; y: number; zoom: number }, markup: string): string {
  return `<g transform="translate(600 600) scale(${focus.zoom}) translate(${-focus.x} ${-focus.y})">${markup}</g>`;
}

/** Deterministic pseudo-random numbers (mulberry32), so the same design draws the same picture. */
function random(seedText: string): () => number {
  let seed = 0;
  for (const character of seedText) seed = (Math.imul(seed, 31) + character.charCodeAt(0)) | 0;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// ── Backdrops ───────────────────────────────────────────────────────────────────────────────────

/** A studio sweep: light falling from above onto a coloured paper. Linear, because large radial gradients are slow to draw. */
function paintBackdrop(canvas: Canvas, kind: Backdrop, brand: Brand): string {
  const stops: Record<Backdrop, Stop[]> = {
    light: [
      [0, tint(brand.secondary, 0.86)],
      [0.45, '#ffffff'],
      [1, tint(brand.secondary, 0.72)],
    ],
    tint: [
      [0, tint(brand.secondary, 0.28)],
      [0.5, tint(brand.secondary, 0.6)],
      [1, mix(brand.secondary, brand.primary, 0.12)],
    ],
    dark: [
      [0, shade(brand.primary, 0.45)],
      [0.45, tint(brand.primary, 0.12)],
      [1, shade(brand.primary, 0.55)],
    ],
  };
  return `<rect width="${canvas.width}" height="${canvas.height}" fill="${canvas.linear(stops[kind])}"/>`;
}

// ── Emblems: one geometric motif per project, drawn in a 200 × 200 box around (0, 0) ────────────

interface EmblemColours {
  main: string;
  second: string;
  /** Metal outline, as on an enamel pin. */
  outline?: string;
}

function emblem(
  kind: EmblemKind,
  x: number,
  y: number,
  size: number,
  colours: EmblemColours,
  extra = '',
): string {
  const stroke = colours.outline
    ? ` stroke="${colours.outline}" stroke-width="4" stroke-linejoin="round"`
    : '';
  return `<g transform="translate(${x} ${y}) scale(${size / 200}) ${extra}"${stroke}>${EMBLEMS[kind](colours)}</g>`;
}

const starPoints = (points: number, outer: number, inner: number, rotation = -90) =>
  Array.from({ length: points * 2 }, (_, index) => {
    const radius = index % 2 === 0 ? outer : inner;
    const angle = ((rotation + (index * 180) / points) * Math.PI) / 180;
    return `${(radius * Math.cos(angle)).toFixed(1)},${(radius * Math.sin(angle)).toFixed(1)}`;
  }).join(' ');

const EMBLEMS: Record<EmblemKind, (colours: EmblemColours) => string> = {
  compass: ({ main, second }) => {
    const rays = [0, 90, 180, 270]
      .map(
        (angle) =>
          `<g transform="rotate(${angle})"><path d="M0,-98 L15,-15 L0,0 Z" fill="${main}"/><path d="M0,-98 L-15,-15 L0,0 Z" fill="${second}"/></g>`,
      )
      .join('');
    const diagonals = [45, 135, 225, 315]
      .map(
        (angle) => `<path transform="rotate(${angle})" d="M0,-62 L10,-10 L0,0 L-10,-10 Z" fill="${second}"/>`,
      )
      .join('');
    const ticks = Array.from(
      { length: 24 },
      (_, index) =>
        `<rect transform="rotate(${index * 15})" x="-2" y="-86" width="4" height="10" fill="${main}"/>`,
    ).join('');
    return (
      `<circle r="88" fill="none" stroke="${main}" stroke-width="7"/>${ticks}` +
      `${diagonals}${rays}<circle r="9" fill="${main}"/><circle r="4" fill="${second}"/>`
    );
  },
  'sheriff-star': ({ main, second }) => {
    const tips = Array.from({ length: 6 }, (_, index) => {
      const angle = ((-90 + index * 60) * Math.PI) / 180;
      return `<circle cx="${(92 * Math.cos(angle)).toFixed(1)}" cy="${(92 * Math.sin(angle)).toFixed(1)}" r="11" fill="${main}"/>`;
    }).join('');
    return (
      `<polygon points="${starPoints(6, 88, 46)}" fill="${main}"/>${tips}` +
      `<circle r="36" fill="${second}"/><circle r="28" fill="none" stroke="${main}" stroke-width="4"/>` +
      `<polygon points="${starPoints(5, 20, 9)}" fill="${main}"/>`
    );
  },
  shield: ({ main, second }) => {
    const outline = 'M0,-96 L80,-66 L80,4 C80,56 42,84 0,100 C-42,84 -80,56 -80,4 L-80,-66 Z';
    return (
      `<path d="${outline}" fill="${main}"/>` +
      `<path d="${outline}" transform="scale(0.8)" fill="none" stroke="${second}" stroke-width="7"/>` +
      `<path d="M-52,18 L0,-22 L52,18 L52,44 L0,4 L-52,44 Z" fill="${second}"/>` +
      `<polygon points="${starPoints(4, 22, 7)}" transform="translate(0 -54)" fill="${second}"/>`
    );
  },
  flame: ({ main, second }) =>
    `<circle r="94" fill="none" stroke="${main}" stroke-width="6"/>` +
    `<path d="M0,-80 C26,-48 60,-22 60,22 C60,60 32,84 0,84 C-32,84 -60,60 -60,22 C-60,-6 -40,-24 -30,-46 C-22,-24 -14,-20 -8,-16 C-8,-44 -12,-62 0,-80 Z" fill="${main}"/>` +
    `<path d="M0,-8 C16,10 32,26 32,48 C32,68 18,78 0,78 C-18,78 -32,68 -32,48 C-32,30 -16,16 0,-8 Z" fill="${second}"/>` +
    `<circle cx="34" cy="-52" r="7" fill="${second}"/><circle cx="-40" cy="-70" r="5" fill="${second}"/>`,
};

// ── Items ───────────────────────────────────────────────────────────────────────────────────────

interface ItemArt {
  front(canvas: Canvas, look: Look): string;
  back(canvas: Canvas, look: Look): string;
  /** The item in a setting; paints its own background. */
  scene(canvas: Canvas, look: Look): string;
  set?(canvas: Canvas, look: Look): string;
  /** Where and how much a close-up enlarges. */
  focus: { x: number; y: number; zoom: number };
}

/** Shading laid over a flat garment: darker at the sides, a little lighter in the middle and at the top. */
function fabricShading(canvas: Canvas, shape: string): string {
  const sides = canvas.linear(
    [
      [0, '#000', 0.26],
      [0.2, '#000', 0.04],
      [0.5, '#fff', 0.07],
      [0.8, '#000', 0.04],
      [1, '#000', 0.26],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 0 },
  );
  const height = canvas.linear([
    [0, '#fff', 0.08],
    [0.6, '#000', 0],
    [1, '#000', 0.14],
  ]);
  return `<path d="${shape}" fill="${sides}"/><path d="${shape}" fill="${height}"/>`;
}

/** Soft creases: shadow strokes and, between them, light ones. */
function creases(paths: string[], dark: boolean): string {
  const shadows = paths.filter((_, index) => index % 2 === 0);
  const lights = paths.filter((_, index) => index % 2 === 1);
  return (
    softStrokes(shadows, { colour: '#000', width: 4, spread: 12, opacity: 0.12 }) +
    softStrokes(lights, { colour: '#fff', width: 4, spread: 12, opacity: dark ? 0.06 : 0.16 })
  );
}

const stitch = (d: string, colour: string) =>
  `<path d="${d}" fill="none" stroke="${colour}" stroke-width="3" stroke-dasharray="10 7" opacity="0.55"/>`;

// T-shirt ────────────────────────────────────────────────────────────────────────────────────────

const TEE_OUTLINE =
  'M528,232 C560,292 640,292 672,232 Q760,248 842,282 C900,320 940,390 968,452 L872,520 C850,490 830,470 812,452 ' +
  'C806,620 812,820 818,1000 Q600,1022 382,1000 C388,820 394,620 388,452 C370,470 350,490 328,520 L232,452 ' +
  'C260,390 300,320 358,282 Q440,248 528,232 Z';

/** A ghost-mannequin T-shirt; `print` is laid on the fabric before the shading, so it takes the folds. */
function teeBase(canvas: Canvas, look: Look, back: boolean, print: string): string {
  const { body } = look;
  const seam = shade(body, 0.22);
  const neckline = back ? 'M528,232 C560,252 640,252 672,232' : 'M528,232 C560,292 640,292 672,232';
  const insideNeck = back
    ? ''
    : `<path d="M528,232 C560,292 640,292 672,232 C640,214 560,214 528,232 Z" fill="${shade(body, 0.42)}"/>` +
      `<path d="M536,230 C570,216 630,216 664,230" fill="none" stroke="${shade(body, 0.18)}" stroke-width="12"/>` +
      `<rect x="584" y="228" width="32" height="18" rx="3" fill="#fafafa" opacity="0.85"/>`;
  return (
    shadowOf(`<path d="${TEE_OUTLINE}"/>`) +
    `<path d="${TEE_OUTLINE}" fill="${body}"/>` +
    print +
    fabricShading(canvas, TEE_OUTLINE) +
    creases(
      [
        'M420,480 C470,530 500,580 515,660',
        'M450,700 C470,760 480,820 470,900',
        'M780,480 C735,540 705,590 695,670',
        'M760,720 C735,790 730,850 740,930',
        'M480,940 C520,968 560,990 590,1000',
      ],
      isDark(body),
    ) +
    insideNeck +
    `<path d="${neckline}" fill="none" stroke="${shade(body, 0.12)}" stroke-width="18" stroke-linecap="round"/>` +
    `<path d="M358,282 C375,350 385,400 388,452 M842,282 C825,350 815,400 812,452" fill="none" stroke="${seam}" stroke-width="3" opacity="0.6"/>` +
    stitch('M384,978 Q600,1000 816,978', seam) +
    stitch('M242,437 L338,505 M958,437 L862,505', seam)
  );
}

const tshirt: ItemArt = {
  front: (canvas, look) => teeBase(canvas, look, false, emblem(look.brand.emblem, 600, 520, 230, look.print)),
  back: (canvas, look) =>
    teeBase(
      canvas,
      look,
      true,
      emblem(look.brand.emblem, 600, 300, 46, look.print) +
        emblem(look.brand.emblem, 600, 610, 360, look.print),
    ),
  scene: (canvas, look) => {
    const wall = canvas.linear([
      [0, tint(look.brand.secondary, 0.55)],
      [1, tint(look.brand.secondary, 0.3)],
    ]);
    const metal = canvas.linear([
      [0, '#f2f2f2'],
      [0.5, '#9a9a9a'],
      [1, '#5c5c5c'],
    ]);
    return (
      `<rect width="1200" height="1200" fill="${wall}"/>` +
      `<rect y="96" width="1200" height="22" fill="${metal}"/>` +
      `<path d="M600,250 L600,168 C600,120 560,112 548,150" fill="none" stroke="#7a7a7a" stroke-width="9" stroke-linecap="round"/>` +
      `<g transform="translate(600 640) scale(0.92) translate(-600 -600)">${tshirt.front(canvas, look)}</g>` +
      `<rect x="1040" y="118" width="14" height="1082" fill="#000" opacity="0.05"/>`
    );
  },
  focus: { x: 600, y: 540, zoom: 1.7 },
};

// Hoodie ─────────────────────────────────────────────────────────────────────────────────────────

const HOODIE_OUTLINE =
  'M510,262 Q600,300 690,262 C760,268 815,280 850,300 C925,345 958,470 966,620 L978,832 L892,842 ' +
  'C880,700 852,570 822,482 L826,936 L374,936 L378,482 C348,570 320,700 308,842 L222,832 L234,620 ' +
  'C242,470 275,345 350,300 C385,280 440,268 510,262 Z';
const HOOD_BACK = 'M462,310 C440,196 505,104 600,100 C695,104 760,196 738,310 Z';
const HOOD_OPENING = 'M520,292 C515,205 555,160 600,158 C645,160 685,205 680,292 C650,330 550,330 520,292 Z';
const HOODIE_RIBS = {
  cuffs: 'M978,832 L986,906 Q940,918 898,914 L892,842 Z M222,832 L214,906 Q260,918 302,914 L308,842 Z',
  waistband: 'M374,936 L826,936 L820,1016 Q600,1028 380,1016 Z',
};

/** A ghost-mannequin hoodie; `print` is laid on the fabric before the shading, so it takes the folds. */
function hoodieBase(canvas: Canvas, look: Look, back: boolean, print: string): string {
  const { body } = look;
  const seam = shade(body, 0.24);
  const ribs = canvas.ribs('#000');
  const hoodFill = canvas.radial(
    [
      [0, tint(body, 0.06)],
      [1, shade(body, 0.28)],
    ],
    { cx: 0.5, cy: 0.7, r: 0.7 },
  );
  const silhouette = `<path d="${HOODIE_OUTLINE}"/><path d="${HOOD_BACK}"/><path d="${HOODIE_RIBS.waistband}"/><path d="${HOODIE_RIBS.cuffs}"/>`;
  const garment =
    `<path d="${HOOD_BACK}" fill="${hoodFill}"/>` +
    `<path d="${HOODIE_OUTLINE}" fill="${body}"/>` +
    print +
    fabricShading(canvas, HOODIE_OUTLINE) +
    creases(
      [
        'M300,520 C290,600 285,680 290,780',
        'M420,520 C460,580 480,640 490,700',
        'M900,520 C910,600 915,680 910,780',
        'M780,520 C740,580 720,640 710,700',
      ],
      isDark(body),
    ) +
    `<path d="${HOODIE_RIBS.cuffs}" fill="${shade(body, 0.1)}"/><path d="${HOODIE_RIBS.cuffs}" fill="${ribs}"/>` +
    `<path d="${HOODIE_RIBS.waistband}" fill="${shade(body, 0.08)}"/><path d="${HOODIE_RIBS.waistband}" fill="${ribs}"/>` +
    `<path d="M350,300 C370,370 378,430 378,482 M850,300 C830,370 822,430 822,482" fill="none" stroke="${seam}" stroke-width="3" opacity="0.6"/>`;

  if (back) {
    const drape = 'M470,290 C455,400 515,470 600,474 C685,470 745,400 730,290 C690,262 510,262 470,290 Z';
    return (
      shadowOf(silhouette) +
      garment +
      shadowOf(`<path d="${drape}"/>`, { dy: 10, spread: 14, opacity: 0.25 }) +
      `<path d="${drape}" fill="${hoodFill}"/>` +
      `<path d="M600,276 L600,472" stroke="${seam}" stroke-width="3" opacity="0.6"/>`
    );
  }

  const pocket = 'M452,716 L748,716 C768,772 784,836 790,904 L410,904 C416,836 432,772 452,716 Z';
  const metal = '#c9c9c9';
  const cord = isDark(body) ? tint(look.print.main, 0.35) : '#f5f5f0';
  return (
    shadowOf(silhouette) +
    garment +
    `<path d="${HOOD_OPENING}" fill="${shade(body, 0.5)}"/>` +
    `<path d="${HOOD_OPENING}" fill="none" stroke="${tint(body, 0.04)}" stroke-width="24"/>` +
    `<path d="M520,292 C540,342 575,372 600,382 C625,372 660,342 680,292 C650,330 550,330 520,292 Z" fill="${body}"/>` +
    `<path d="M520,292 C540,342 575,372 600,382 C625,372 660,342 680,292" fill="none" stroke="${seam}" stroke-width="4"/>` +
    `<path d="M566,352 C562,400 558,450 555,500 M634,352 C638,400 642,450 645,500" fill="none" stroke="${cord}" stroke-width="9" stroke-linecap="round"/>` +
    `<path d="M555,494 L554,518 M645,494 L646,518" stroke="${metal}" stroke-width="12" stroke-linecap="round"/>` +
    `<circle cx="566" cy="352" r="8" fill="none" stroke="${metal}" stroke-width="4"/><circle cx="634" cy="352" r="8" fill="none" stroke="${metal}" stroke-width="4"/>` +
    `<path d="${pocket}" fill="${shade(body, 0.04)}"/>` +
    `<path d="${pocket}" fill="none" stroke="${seam}" stroke-width="3" opacity="0.7"/>` +
    `<path d="M452,716 C432,772 416,836 410,904 M748,716 C768,772 784,836 790,904" fill="none" stroke="${shade(body, 0.4)}" stroke-width="7"/>` +
    stitch('M458,732 L742,732', seam)
  );
}

const hoodie: ItemArt = {
  front: (canvas, look) =>
    hoodieBase(canvas, look, false, emblem(look.brand.emblem, 600, 612, 170, look.print)),
  back: (canvas, look) =>
    hoodieBase(canvas, look, true, emblem(look.brand.emblem, 600, 690, 330, look.print)),
  scene: (canvas, look) => {
    const wall = canvas.linear([
      [0, tint(look.brand.primary, 0.82)],
      [1, tint(look.brand.secondary, 0.45)],
    ]);
    const wood = canvas.linear(
      [
        [0, '#a8764a'],
        [1, '#7a5232'],
      ],
      { x1: 0, y1: 0, x2: 1, y2: 0 },
    );
    return (
      `<rect width="1200" height="1200" fill="${wall}"/>` +
      `<rect x="80" y="60" width="1040" height="34" rx="10" fill="${wood}"/>` +
      `<path d="M600,240 L600,150 C600,104 556,96 546,136" fill="none" stroke="#6e6e6e" stroke-width="9" stroke-linecap="round"/>` +
      `<g transform="translate(600 660) scale(0.88) translate(-600 -600)">${hoodie.front(canvas, look)}</g>`
    );
  },
  focus: { x: 600, y: 610, zoom: 1.7 },
};

// Mug ────────────────────────────────────────────────────────────────────────────────────────────

const MUG = { cx: 520, top: 380, bottom: 900, rx: 230, ry: 52 };

function mugBase(canvas: Canvas, look: Look): string {
  const { cx, top, bottom, rx, ry } = MUG;
  const { body } = look;
  const left = cx - rx;
  const right = cx + rx;
  const cylinder = `M${left},${top} L${left},${bottom} A${rx},${ry} 0 0 0 ${right},${bottom} L${right},${top} Z`;
  const ceramic = canvas.linear(
    [
      [0, shade(body, 0.38)],
      [0.12, shade(body, 0.12)],
      [0.3, tint(body, 0.22)],
      [0.45, body],
      [0.82, shade(body, 0.16)],
      [1, shade(body, 0.42)],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 0 },
  );
  const handle = canvas.linear(
    [
      [0, shade(body, 0.3)],
      [0.5, tint(body, 0.1)],
      [1, shade(body, 0.35)],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 1 },
  );
  const highlight = canvas.linear(
    [
      [0, '#fff', 0],
      [0.5, '#fff', 0.38],
      [1, '#fff', 0],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 0 },
  );
  const inside = isDark(body) ? tint(look.brand.accent, 0.1) : look.brand.primary;
  const coffee = canvas.radial(
    [
      [0, '#8a5634'],
      [1, '#3a2012'],
    ],
    { cx: 0.45, cy: 0.4, r: 0.7 },
  );
  return (
    groundShadow(canvas, cx + 40, bottom + ry - 6, rx + 70, 38, 0.32) +
    `<path d="M${right - 6},480 C${right + 150},462 ${right + 176},560 ${right + 170},640 C${right + 164},740 ${right + 100},800 ${right - 6},806" fill="none" stroke="${handle}" stroke-width="58" stroke-linecap="round"/>` +
    `<path d="M${right + 40},520 C${right + 120},520 ${right + 136},590 ${right + 132},640" fill="none" stroke="#fff" stroke-opacity="0.25" stroke-width="10" stroke-linecap="round"/>` +
    `<path d="${cylinder}" fill="${ceramic}"/>` +
    `<rect x="${left + 44}" y="${top + 40}" width="54" height="${bottom - top - 60}" rx="27" fill="${highlight}"/>` +
    `<path d="M${left},${bottom - 14} A${rx},${ry} 0 0 0 ${right},${bottom - 14}" fill="none" stroke="#000" stroke-opacity="0.16" stroke-width="5"/>` +
    `<ellipse cx="${cx}" cy="${top}" rx="${rx}" ry="${ry}" fill="${tint(body, 0.3)}"/>` +
    `<ellipse cx="${cx}" cy="${top + 2}" rx="${rx - 16}" ry="${ry - 11}" fill="${shade(inside, 0.2)}"/>` +
    `<ellipse cx="${cx}" cy="${top + 14}" rx="${rx - 34}" ry="${ry - 22}" fill="${coffee}"/>`
  );
}

const mug: ItemArt = {
  front: (canvas, look) =>
    mugBase(canvas, look) + emblem(look.brand.emblem, MUG.cx, 650, 250, look.print, 'scale(0.9 1)'),
  back: (canvas, look) => {
    const { cx, rx, ry } = MUG;
    const band = (y: number, height: number, colour: string) =>
      `<path d="M${cx - rx},${y} L${cx - rx},${y + height} A${rx},${ry} 0 0 0 ${cx + rx},${y + height} L${cx + rx},${y} A${rx},${ry} 0 0 1 ${cx - rx},${y} Z" fill="${colour}" opacity="0.92"/>`;
    const row = [
      [cx - 150, 0.45],
      [cx, 1],
      [cx + 150, 0.45],
    ] as const;
    // Mirrored around the picture's centre: the handle turns to the left, the wrap print faces us.
    const mirroredCentre = 1200 - cx;
    return (
      `<g transform="translate(1200 0) scale(-1 1)">${mugBase(canvas, look)}</g>` +
      `<g transform="translate(${mirroredCentre - cx} 0)">` +
      band(470, 26, look.print.second) +
      band(510, 12, look.print.main) +
      row
        .map(([x, squeeze]) => emblem(look.brand.emblem, x, 680, 120, look.print, `scale(${squeeze} 1)`))
        .join('') +
      band(820, 12, look.print.main) +
      `</g>`
    );
  },
  scene: (canvas, look) => {
    const wall = canvas.linear([
      [0, tint(look.brand.secondary, 0.7)],
      [1, tint(look.brand.accent, 0.6)],
    ]);
    const table = canvas.linear([
      [0, '#b88b5e'],
      [1, '#8a6240'],
    ]);
    const puff = (x: number) =>
      `M${x},330 C${x - 40},270 ${x + 40},230 ${x},170 C${x - 30},130 ${x + 20},100 ${x},70`;
    return (
      `<rect width="1200" height="1200" fill="${wall}"/>` +
      `<rect y="800" width="1200" height="400" fill="${table}"/>` +
      `<rect y="800" width="1200" height="6" fill="#fff" opacity="0.25"/>` +
      `<ellipse cx="${MUG.cx + 20}" cy="${MUG.bottom + 40}" rx="320" ry="74" fill="#d9b98c"/>` +
      `<ellipse cx="${MUG.cx + 20}" cy="${MUG.bottom + 40}" rx="300" ry="64" fill="none" stroke="#000" stroke-opacity="0.08" stroke-width="4"/>` +
      `<g transform="translate(0 20)">${mug.front(canvas, look)}</g>` +
      softStrokes([puff(470), puff(570)], { colour: '#fff', width: 6, spread: 12, opacity: 0.7 })
    );
  },
  focus: { x: MUG.cx + 60, y: 640, zoom: 1.45 },
};

// Poster ─────────────────────────────────────────────────────────────────────────────────────────

const FRAME = { x: 300, y: 150, width: 600, height: 900, border: 30, mat: 48 };
const ART = {
  x: FRAME.x + FRAME.border + FRAME.mat,
  y: FRAME.y + FRAME.border + FRAME.mat,
  width: FRAME.width - 2 * (FRAME.border + FRAME.mat),
  height: FRAME.height - 2 * (FRAME.border + FRAME.mat),
};

/** A mountain ridge (or dunes, when smooth) across the print, filled to the bottom. */
function ridge(
  rand: () => number,
  baseline: number,
  amplitude: number,
  step: number,
  smooth = false,
): string {
  const { x, width } = ART;
  const bottom = ART.y + ART.height;
  const points: Array<[number, number]> = [];
  for (let position = x - step; position <= x + width + step; position += step) {
    const peak = points.length % 2 === 0;
    points.push([
      position + (rand() - 0.5) * step * 0.5,
      baseline - (peak ? 0.55 + 0.45 * rand() : 0.1 * rand()) * amplitude,
    ]);
  }
  const line = smooth
    ? points
        .slice(1)
        .map(([px, py], index) => {
          const [qx, qy] = points[index] ?? [px, py];
          return `Q${qx},${qy} ${(qx + px) / 2},${(qy + py) / 2}`;
        })
        .join(' ')
    : points.map(([px, py]) => `L${px.toFixed(0)},${py.toFixed(0)}`).join(' ');
  return `M${x - step},${bottom} L${x - step},${baseline} ${line} L${x + width + step},${bottom} Z`;
}

function stars(rand: () => number, count: number, bottom: number): string {
  return Array.from({ length: count }, () => {
    const cx = ART.x + rand() * ART.width;
    const cy = ART.y + rand() * (bottom - ART.y);
    return `<circle cx="${cx.toFixed(0)}" cy="${cy.toFixed(0)}" r="${(1 + rand() * 2.6).toFixed(1)}" fill="#fff" opacity="${(0.4 + rand() * 0.6).toFixed(2)}"/>`;
  }).join('');
}

function pines(rand: () => number, baseline: number, count: number, colour: string): string {
  return Array.from({ length: count }, (_, index) => {
    const cx = ART.x + ((index + rand() * 0.8) / count) * ART.width;
    const height = 70 + rand() * 90;
    const base = baseline + rand() * 30;
    const half = height * 0.28;
    return `<path d="M${cx},${base - height} L${cx + half},${base} L${cx - half},${base} Z" fill="${colour}"/>`;
  }).join('');
}

function landscape(canvas: Canvas, look: Look): string {
  const { primary, secondary, accent } = look.brand;
  const rand = random(`${look.landscape}${primary}${accent}`);
  const { x, y, width, height } = ART;
  const centre = x + width / 2;
  const sky = (stops: Stop[]) =>
    `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="${canvas.linear(stops)}"/>`;
  const glow = (cx: number, cy: number, r: number, colour: string) =>
    `<circle cx="${cx}" cy="${cy}" r="${r * 2.2}" fill="${canvas.radial([
      [0, colour, 0.55],
      [1, colour, 0],
    ])}"/><circle cx="${cx}" cy="${cy}" r="${r}" fill="${tint(colour, 0.35)}"/>`;
  const nebula = (cx: number, cy: number, r: number, colour: string, opacity: number) =>
    `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${canvas.radial([
      [0, colour, opacity],
      [1, colour, 0],
    ])}"/>`;
  const mark = (cy: number, colours: EmblemColours) => emblem(look.brand.emblem, centre, cy, 110, colours);

  switch (look.landscape) {
    case 'aurora':
      return (
        sky([
          [0, shade(primary, 0.55)],
          [0.7, shade(primary, 0.15)],
          [1, mix(primary, secondary, 0.4)],
        ]) +
        stars(rand, 70, y + height * 0.6) +
        softStrokes(
          [`M${x},${y + 300} C${x + 120},${y + 180} ${x + 260},${y + 360} ${x + width},${y + 200}`],
          {
            colour: secondary,
            width: 30,
            spread: 40,
            opacity: 0.6,
          },
        ) +
        softStrokes(
          [`M${x},${y + 380} C${x + 160},${y + 260} ${x + 300},${y + 420} ${x + width},${y + 300}`],
          {
            colour: accent,
            width: 16,
            spread: 26,
            opacity: 0.4,
          },
        ) +
        mark(y + 130, { main: tint(secondary, 0.5), second: accent }) +
        `<path d="${ridge(rand, y + height * 0.7, 190, 55)}" fill="${shade(primary, 0.35)}"/>` +
        `<path d="${ridge(rand, y + height * 0.82, 120, 70)}" fill="${shade(primary, 0.6)}"/>` +
        `<rect x="${x}" y="${y + height * 0.9}" width="${width}" height="${height * 0.1}" fill="${mix(primary, secondary, 0.3)}" opacity="0.6"/>`
      );
    case 'town': {
      // High noon on an empty main street: false-front buildings and a water tower under a pale sky.
      const buildings = [
        [0, 150, 230],
        [120, 110, 170],
        [230, 130, 260],
        [360, 90, 150],
      ] as const;
      const ground = y + height * 0.74;
      return (
        sky([
          [0, tint(secondary, 0.2)],
          [0.7, tint(secondary, 0.75)],
          [1, tint(accent, 0.6)],
        ]) +
        glow(centre - 90, y + 120, 44, '#fff7d6') +
        `<path d="${ridge(rand, ground - 60, 70, 120, true)}" fill="${tint(accent, 0.35)}"/>` +
        buildings
          .map(([offset, buildingWidth, buildingHeight], index) => {
            const left = x + offset;
            const top = ground - buildingHeight;
            const colour = index % 2 === 0 ? shade(accent, 0.35) : mix(primary, accent, 0.35);
            const windows = [0.25, 0.6]
              .map(
                (share) =>
                  `<rect x="${left + buildingWidth * share}" y="${top + 50}" width="${buildingWidth * 0.18}" height="34" fill="${tint(secondary, 0.3)}"/>`,
              )
              .join('');
            return `<rect x="${left}" y="${top}" width="${buildingWidth}" height="${buildingHeight}" fill="${colour}"/>${windows}<rect x="${left - 6}" y="${top + buildingHeight * 0.55}" width="${buildingWidth + 12}" height="12" fill="${shade(colour, 0.3)}"/>`;
          })
          .join('') +
        `<path d="M${x + width - 70},${ground - 250} l40,0 l0,70 l-40,0 Z M${x + width - 66},${ground - 180} l-10,180 M${x + width - 34},${ground - 180} l10,180" fill="${shade(primary, 0.1)}" stroke="${shade(primary, 0.1)}" stroke-width="8"/>` +
        `<rect x="${x}" y="${ground}" width="${width}" height="${y + height - ground}" fill="${canvas.linear([
          [0, mix(secondary, accent, 0.3)],
          [1, shade(secondary, 0.25)],
        ])}"/>` +
        mark(y + 250, { main: shade(accent, 0.2), second: tint(secondary, 0.6) })
      );
    }
    case 'starmap': {
      // A navigation chart: orbits, a grid and constellation lines between systems.
      const middle = y + height / 2;
      // Systems around the chart's centre, joined in the order of their bearing: a route, not a scribble.
      const systems = Array.from({ length: 8 }, (_, index) => {
        const angle = ((index + rand() * 0.6) / 8) * 2 * Math.PI;
        const distance = 110 + rand() * 120;
        return [
          centre + Math.cos(angle) * distance * 0.85,
          middle + Math.sin(angle) * distance * 1.25,
        ] as const;
      });
      const route = systems
        .map(([px, py], index) => `${index === 0 ? 'M' : 'L'}${px.toFixed(0)},${py.toFixed(0)}`)
        .join(' ');
      const grid = Array.from({ length: 9 }, (_, index) => {
        const gx = x + (index * width) / 8;
        const gy = y + (index * height) / 8;
        return `<path d="M${gx},${y} L${gx},${y + height} M${x},${gy} L${x + width},${gy}"/>`;
      }).join('');
      return (
        sky([
          [0, shade(primary, 0.5)],
          [1, shade(primary, 0.15)],
        ]) +
        `<g stroke="${secondary}" stroke-opacity="0.12" stroke-width="2">${grid}</g>` +
        stars(rand, 90, y + height) +
        [120, 200, 290]
          .map(
            (r) =>
              `<ellipse cx="${centre}" cy="${middle}" rx="${r}" ry="${r * 0.62}" fill="none" stroke="${secondary}" stroke-opacity="0.35" stroke-width="3" stroke-dasharray="12 10"/>`,
          )
          .join('') +
        `<path d="${route}" fill="none" stroke="${accent}" stroke-width="4" stroke-opacity="0.8"/>` +
        systems
          .map(
            ([px, py], index) =>
              `<circle cx="${px.toFixed(0)}" cy="${py.toFixed(0)}" r="${index % 3 === 0 ? 14 : 9}" fill="${index % 3 === 0 ? accent : tint(secondary, 0.3)}"/>`,
          )
          .join('') +
        emblem(look.brand.emblem, centre, middle, 130, { main: tint(secondary, 0.3), second: accent })
      );
    }
    case 'canyon':
      return (
        sky([
          [0, mix(primary, accent, 0.2)],
          [0.55, accent],
          [1, tint(accent, 0.5)],
        ]) +
        glow(centre + 70, y + height * 0.48, 66, tint(accent, 0.3)) +
        mark(y + 130, { main: tint(accent, 0.7), second: primary }) +
        `<path d="M${x},${y + 470} L${x + 40},${y + 470} L${x + 70},${y + 420} L${x + 170},${y + 420} L${x + 190},${y + 470} L${x + width},${y + 480} L${x + width},${y + height} L${x},${y + height} Z" fill="${mix(secondary, primary, 0.35)}"/>` +
        `<path d="M${x + 230},${y + 520} L${x + 250},${y + 440} L${x + 330},${y + 440} L${x + 350},${y + 520} Z" fill="${mix(secondary, primary, 0.5)}"/>` +
        `<path d="${ridge(rand, y + height * 0.8, 60, 90, true)}" fill="${shade(secondary, 0.25)}"/>` +
        `<path d="${ridge(rand, y + height * 0.9, 40, 110, true)}" fill="${shade(primary, 0.2)}"/>` +
        `<path d="M${x + 300},${y + height - 10} l0,-90 m0,30 l-24,-12 m24,32 l22,-16" stroke="${shade(primary, 0.35)}" stroke-width="12" stroke-linecap="round" fill="none"/>`
      );
    case 'space':
      return (
        sky([
          [0, shade(primary, 0.7)],
          [1, shade(primary, 0.2)],
        ]) +
        nebula(x + 100, y + 200, 230, secondary, 0.4) +
        nebula(x + width - 60, y + 420, 200, accent, 0.32) +
        stars(rand, 110, y + height) +
        `<circle cx="${centre - 20}" cy="${y + height * 0.62}" r="150" fill="${canvas.radial(
          [
            [0, tint(accent, 0.35)],
            [1, shade(accent, 0.45)],
          ],
          { cx: 0.35, cy: 0.3, r: 0.8 },
        )}"/>` +
        `<ellipse cx="${centre - 20}" cy="${y + height * 0.62}" rx="240" ry="42" fill="none" stroke="${tint(secondary, 0.3)}" stroke-width="14" transform="rotate(-14 ${centre - 20} ${y + height * 0.62})"/>` +
        `<circle cx="${x + width - 90}" cy="${y + 140}" r="34" fill="${tint(secondary, 0.2)}"/>` +
        mark(y + height - 130, { main: tint(secondary, 0.4), second: accent })
      );
    case 'forest':
      return (
        sky([
          [0, tint(secondary, 0.4)],
          [0.6, tint(accent, 0.55)],
          [1, tint(accent, 0.2)],
        ]) +
        glow(centre - 60, y + height * 0.42, 70, tint(accent, 0.4)) +
        mark(y + 130, { main: shade(primary, 0.1), second: accent }) +
        `<path d="${ridge(rand, y + height * 0.6, 80, 120, true)}" fill="${tint(primary, 0.45)}"/>` +
        pines(rand, y + height * 0.66, 9, tint(primary, 0.2)) +
        `<path d="${ridge(rand, y + height * 0.78, 60, 130, true)}" fill="${primary}"/>` +
        pines(rand, y + height * 0.82, 7, shade(primary, 0.35)) +
        `<rect x="${x}" y="${y + height * 0.56}" width="${width}" height="110" fill="${canvas.linear([
          [0, '#fff', 0],
          [0.5, '#fff', 0.35],
          [1, '#fff', 0],
        ])}"/>`
      );
    default:
      return (
        sky([
          [0, mix(primary, secondary, 0.35)],
          [0.6, tint(secondary, 0.35)],
          [1, tint(accent, 0.45)],
        ]) +
        glow(centre + 60, y + height * 0.5, 56, tint(accent, 0.2)) +
        mark(y + 130, { main: tint(secondary, 0.6), second: accent }) +
        `<path d="${ridge(rand, y + height * 0.6, 230, 60)}" fill="${mix(primary, secondary, 0.45)}"/>` +
        `<path d="${ridge(rand, y + height * 0.72, 170, 75)}" fill="${mix(primary, secondary, 0.15)}"/>` +
        `<rect x="${x}" y="${y + height * 0.8}" width="${width}" height="${height * 0.2}" fill="${canvas.linear(
          [
            [0, tint(secondary, 0.2)],
            [1, shade(primary, 0.2)],
          ],
        )}"/>` +
        `<path d="${ridge(rand, y + height * 0.84, 90, 90)}" fill="${shade(primary, 0.3)}"/>` +
        `<path d="M${x + 280},${y + height * 0.86} l40,0 l-12,14 l-30,0 Z M${x + 300},${y + height * 0.86} l0,-40 l24,34 Z" fill="${shade(primary, 0.45)}"/>`
      );
  }
}

function framedPoster(canvas: Canvas, look: Look): string {
  const { x, y, width, height, border } = FRAME;
  const frameColour = look.body === look.brand.primary ? '#5b3a22' : look.body;
  const frame = canvas.linear(
    [
      [0, tint(frameColour, 0.18)],
      [1, shade(frameColour, 0.3)],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 1 },
  );
  const glare = canvas.linear(
    [
      [0, '#fff', 0],
      [0.45, '#fff', 0.16],
      [0.6, '#fff', 0],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 1 },
  );
  const artRect = `<rect x="${ART.x}" y="${ART.y}" width="${ART.width}" height="${ART.height}"/>`;
  return (
    shadowOf(`<rect x="${x}" y="${y}" width="${width}" height="${height}"/>`, {
      dx: 14,
      dy: 26,
      spread: 30,
      opacity: 0.35,
    }) +
    `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="${frame}"/>` +
    `<rect x="${x + border}" y="${y + border}" width="${width - 2 * border}" height="${height - 2 * border}" fill="#f7f5f0"/>` +
    `<rect x="${x + border}" y="${y + border}" width="${width - 2 * border}" height="${height - 2 * border}" fill="none" stroke="#000" stroke-opacity="0.12" stroke-width="6"/>` +
    `<g clip-path="${canvas.clip(artRect)}">${landscape(canvas, look)}</g>` +
    `<rect x="${ART.x}" y="${ART.y}" width="${ART.width}" height="${ART.height}" fill="none" stroke="#000" stroke-opacity="0.18" stroke-width="2"/>` +
    `<rect x="${x + border}" y="${y + border}" width="${width - 2 * border}" height="${height - 2 * border}" fill="${glare}"/>`
  );
}

const poster: ItemArt = {
  front: framedPoster,
  back: (canvas, look) => poster.scene(canvas, look),
  scene: (canvas, look) => {
    const wall = canvas.linear([
      [0, tint(look.brand.secondary, 0.78)],
      [1, tint(look.brand.secondary, 0.6)],
    ]);
    const wood = canvas.linear([
      [0, '#c49a6c'],
      [1, '#8d6540'],
    ]);
    const leaf = (angle: number, length: number) =>
      `<ellipse cx="0" cy="${-length / 2}" rx="${length / 5}" ry="${length / 2}" fill="#4f8a4b" transform="rotate(${angle})"/>`;
    return (
      `<rect width="1200" height="1200" fill="${wall}"/>` +
      `<rect y="1060" width="1200" height="140" fill="${shade(look.brand.secondary, 0.25)}" opacity="0.5"/>` +
      `<g transform="translate(600 470) scale(0.66) translate(-600 -600)">${framedPoster(canvas, look)}</g>` +
      groundShadow(canvas, 600, 1050, 430, 20, 0.3) +
      `<rect x="200" y="860" width="800" height="170" rx="8" fill="${wood}"/>` +
      `<rect x="200" y="860" width="800" height="14" fill="#fff" opacity="0.2"/>` +
      `<path d="M598,880 L598,1010 M240,1030 L240,1060 M960,1030 L960,1060" stroke="${shade('#8d6540', 0.3)}" stroke-width="10"/>` +
      `<g transform="translate(300 860)">${[-50, -25, 0, 20, 45].map((angle, index) => leaf(angle, 120 + (index % 2) * 50)).join('')}</g>` +
      `<path d="M258,860 L342,860 L332,790 L268,790 Z" fill="${tint(look.brand.accent, 0.2)}"/>` +
      `<rect x="780" y="800" width="120" height="60" rx="6" fill="${look.brand.primary}"/><rect x="790" y="770" width="100" height="30" rx="6" fill="${look.brand.accent}"/>`
    );
  },
  focus: { x: ART.x + ART.width / 2, y: ART.y + ART.height * 0.42, zoom: 1.45 },
};

// Figure ─────────────────────────────────────────────────────────────────────────────────────────

const BASE = { cx: 600, top: 930, rx: 240, ry: 60, depth: 70 };

function figureBase(canvas: Canvas, look: Look): string {
  const { cx, top, rx, ry, depth } = BASE;
  const dark = shade(look.brand.primary, 0.25);
  const side = canvas.linear(
    [
      [0, shade(dark, 0.4)],
      [0.35, tint(dark, 0.2)],
      [1, shade(dark, 0.5)],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 0 },
  );
  return (
    groundShadow(canvas, cx, top + depth + 20, rx + 40, 40, 0.35) +
    `<path d="M${cx - rx},${top} L${cx - rx},${top + depth} A${rx},${ry} 0 0 0 ${cx + rx},${top + depth} L${cx + rx},${top} Z" fill="${side}"/>` +
    `<ellipse cx="${cx}" cy="${top}" rx="${rx}" ry="${ry}" fill="${tint(dark, 0.15)}"/>` +
    `<ellipse cx="${cx}" cy="${top}" rx="${rx - 14}" ry="${ry - 10}" fill="none" stroke="${look.brand.accent}" stroke-width="4" opacity="0.8"/>` +
    emblem(
      look.brand.emblem,
      cx,
      top + depth + 18,
      62,
      { main: look.brand.accent, second: tint(look.brand.secondary, 0.3) },
      'scale(1 0.8)',
    )
  );
}

/** A chibi character in the style of a vinyl collectible, standing on the base. */
function character(canvas: Canvas, look: Look, back: boolean): string {
  const { primary, secondary, accent } = look.brand;
  const who = look.character;
  const outfit = who === 'pilot' ? '#eceff3' : who === 'outlaw' ? mix(secondary, '#7a4a2a', 0.5) : primary;
  const trim = who === 'pilot' ? primary : accent;
  const hair = who === 'mage' ? '#d8d8d8' : who === 'outlaw' ? '#5a3520' : shade(secondary, 0.55);
  const cloth = canvas.linear(
    [
      [0, shade(outfit, 0.25)],
      [0.4, tint(outfit, 0.12)],
      [1, shade(outfit, 0.3)],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 0 },
  );
  const skin = canvas.radial(
    [
      [0, tint(SKIN, 0.25)],
      [1, shade(SKIN, 0.12)],
    ],
    { cx: 0.4, cy: 0.35, r: 0.7 },
  );
  const robe = who === 'mage';
  const torso = robe ? 'M505,540 L695,540 L752,918 L448,918 Z' : 'M505,540 L695,540 L722,850 L478,850 Z';
  const parts: string[] = [];

  // Behind the body: cape (knight), backpack (pilot), staff (mage).
  if (who === 'knight')
    parts.push(
      `<path d="M492,545 C430,700 420,830 444,918 L756,918 C780,830 770,700 708,545 Z" fill="${shade(secondary, 0.15)}"/>`,
    );
  if (who === 'pilot')
    parts.push(`<rect x="470" y="560" width="260" height="240" rx="40" fill="${shade(primary, 0.1)}"/>`);
  if (who === 'mage' && !back) {
    const orb = canvas.radial([
      [0, '#ffffff'],
      [0.4, tint(accent, 0.3)],
      [1, accent, 0],
    ]);
    parts.push(
      `<path d="M770,330 L760,920" stroke="#7b5535" stroke-width="16" stroke-linecap="round"/>` +
        `<circle cx="770" cy="310" r="80" fill="${orb}"/><circle cx="770" cy="310" r="26" fill="${tint(accent, 0.5)}"/>`,
    );
  }
  // Legs and boots.
  if (!robe) {
    parts.push(
      `<rect x="528" y="820" width="62" height="110" rx="22" fill="${shade(outfit, 0.35)}"/>` +
        `<rect x="610" y="820" width="62" height="110" rx="22" fill="${shade(outfit, 0.35)}"/>` +
        `<path d="M518,930 L518,890 Q518,876 532,876 L592,876 L596,930 Z M604,930 L608,876 L668,876 Q682,876 682,890 L682,930 Z" fill="${INK}"/>`,
    );
  }
  parts.push(`<path d="${torso}" fill="${cloth}"/>`);
  if (!robe)
    parts.push(
      `<rect x="488" y="742" width="224" height="26" fill="${shade(outfit, 0.5)}"/><rect x="584" y="738" width="32" height="34" rx="4" fill="${trim}"/>`,
    );
  if (who === 'outlaw')
    parts.push(
      `<path d="M505,540 L560,540 L575,740 L492,740 Z M695,540 L640,540 L625,740 L708,740 Z" fill="${shade('#7a4a2a', 0.2)}"/>`,
    );
  if (who === 'pilot')
    parts.push(
      `<rect x="500" y="640" width="200" height="18" fill="${primary}"/><rect x="560" y="590" width="80" height="36" rx="8" fill="${accent}"/>`,
    );
  // Arms.
  const sleeve = who === 'outlaw' ? tint(secondary, 0.2) : outfit;
  parts.push(
    `<path d="M505,565 C462,610 448,680 454,752" fill="none" stroke="${shade(sleeve, 0.1)}" stroke-width="50" stroke-linecap="round"/>` +
      `<path d="M695,565 C738,610 752,680 746,752" fill="none" stroke="${shade(sleeve, 0.1)}" stroke-width="50" stroke-linecap="round"/>` +
      `<circle cx="454" cy="770" r="28" fill="${SKIN}"/><circle cx="746" cy="770" r="28" fill="${SKIN}"/>`,
  );
  // The project emblem: on the shield, the sheriff's badge, or the chest.
  if (!back) {
    if (who === 'knight') {
      const steel = canvas.linear(
        [
          [0, '#f4f4f4'],
          [1, '#8c8c8c'],
        ],
        { x1: 0, y1: 0, x2: 1, y2: 0 },
      );
      parts.push(
        `<path d="M749,740 L749,300 L760,262 L771,300 L771,740 Z" fill="${steel}"/><path d="M760,270 L760,730" stroke="#fff" stroke-opacity="0.5" stroke-width="3"/>` +
          `<rect x="722" y="730" width="76" height="16" rx="6" fill="${accent}"/>` +
          `<path d="M370,660 L520,660 L520,760 C520,830 470,860 445,872 C420,860 370,830 370,760 Z" fill="${tint(secondary, 0.1)}" stroke="${accent}" stroke-width="10"/>` +
          emblem(look.brand.emblem, 445, 760, 120, { main: primary, second: accent }),
      );
    } else {
      parts.push(
        emblem(look.brand.emblem, who === 'outlaw' ? 540 : 600, 640, who === 'outlaw' ? 70 : 110, {
          main: trim,
          second: who === 'pilot' ? accent : secondary,
        }),
      );
    }
  } else {
    parts.push(emblem(look.brand.emblem, 600, 690, 150, { main: trim, second: tint(secondary, 0.3) }));
  }
  if (who === 'outlaw' && !back) parts.push(`<path d="M520,520 L680,520 L600,610 Z" fill="${accent}"/>`);

  // Head.
  parts.push(`<rect x="575" y="500" width="50" height="50" fill="${shade(SKIN, 0.15)}"/>`);
  const headFill = !back ? skin : who === 'pilot' ? '#dfe3e8' : hair;
  parts.push(`<circle cx="600" cy="400" r="150" fill="${headFill}"/>`);
  if (back && who !== 'pilot') {
    parts.push(
      `<path d="M500,330 C540,280 600,268 660,285" fill="none" stroke="#fff" stroke-opacity="0.18" stroke-width="18" stroke-linecap="round"/>` +
        `<path d="M470,470 C500,520 560,545 600,548 C640,545 700,520 730,470" fill="none" stroke="#000" stroke-opacity="0.15" stroke-width="10"/>`,
    );
  }
  if (!back) {
    parts.push(
      `<path d="M450,396 C440,290 516,238 600,238 C684,238 760,290 750,396 C726,334 668,318 600,326 C532,318 474,334 450,396 Z" fill="${hair}"/>` +
        `<ellipse cx="548" cy="428" rx="19" ry="27" fill="${INK}"/><ellipse cx="652" cy="428" rx="19" ry="27" fill="${INK}"/>` +
        `<circle cx="541" cy="417" r="7" fill="#fff"/><circle cx="645" cy="417" r="7" fill="#fff"/>` +
        `<circle cx="510" cy="470" r="20" fill="#f08a8a" opacity="0.35"/><circle cx="690" cy="470" r="20" fill="#f08a8a" opacity="0.35"/>` +
        `<path d="M582,482 Q600,498 618,482" fill="none" stroke="${INK}" stroke-width="6" stroke-linecap="round"/>`,
    );
  }
  // Headwear.
  if (who === 'mage') {
    parts.push(
      `<path d="M600,90 C640,150 690,230 720,300 L480,300 C520,220 560,150 600,90 Z" fill="${primary}"/>` +
        `<ellipse cx="600" cy="300" rx="200" ry="38" fill="${shade(primary, 0.15)}"/>` +
        `<path d="M490,280 L710,280 L716,298 L484,298 Z" fill="${accent}"/>`,
    );
  }
  if (who === 'outlaw') {
    parts.push(
      `<ellipse cx="600" cy="286" rx="220" ry="44" fill="${shade('#7a4a2a', 0.1)}"/>` +
        `<path d="M490,286 C490,200 520,160 560,170 Q600,190 640,170 C680,160 710,200 710,286 Z" fill="${tint('#7a4a2a', 0.08)}"/>` +
        `<rect x="492" y="252" width="216" height="22" fill="${accent}"/>`,
    );
  }
  if (who === 'pilot') {
    const glass = canvas.radial(
      [
        [0, '#ffffff', 0.05],
        [0.8, tint(secondary, 0.4), 0.25],
        [1, secondary, 0.55],
      ],
      { cx: 0.4, cy: 0.35, r: 0.65 },
    );
    parts.push(
      `<circle cx="600" cy="400" r="178" fill="${glass}" stroke="#f4f6f8" stroke-width="16"/>` +
        `<path d="M490,330 C520,270 570,250 620,250" fill="none" stroke="#fff" stroke-opacity="0.7" stroke-width="16" stroke-linecap="round"/>` +
        `<rect x="480" y="556" width="240" height="30" rx="14" fill="${tint(primary, 0.1)}"/>` +
        `<path d="M700,250 L740,170" stroke="#c7cbd0" stroke-width="8"/><circle cx="742" cy="164" r="12" fill="${accent}"/>`,
    );
  }
  return parts.join('');
}

const figure: ItemArt = {
  front: (canvas, look) => figureBase(canvas, look) + character(canvas, look, false),
  back: (canvas, look) => figureBase(canvas, look) + character(canvas, look, true),
  scene: (canvas, look) => {
    const { primary, secondary, accent } = look.brand;
    const box = canvas.linear(
      [
        [0, tint(primary, 0.1)],
        [1, shade(primary, 0.3)],
      ],
      { x1: 0, y1: 0, x2: 1, y2: 1 },
    );
    const inner = canvas.radial([
      [0, tint(secondary, 0.55)],
      [1, mix(secondary, primary, 0.3)],
    ]);
    const shine = canvas.linear(
      [
        [0, '#fff', 0],
        [0.4, '#fff', 0.22],
        [0.5, '#fff', 0],
        [0.7, '#fff', 0.12],
        [0.75, '#fff', 0],
      ],
      { x1: 0, y1: 0, x2: 1, y2: 1 },
    );
    const background = canvas.linear([
      [0, tint(accent, 0.75)],
      [1, tint(secondary, 0.45)],
    ]);
    return (
      `<rect width="1200" height="1200" fill="${background}"/>` +
      groundShadow(canvas, 640, 1110, 420, 30, 0.35) +
      `<path d="M920,120 L990,160 L990,1120 L920,1090 Z" fill="${shade(primary, 0.45)}"/>` +
      `<path d="M280,120 L920,120 L990,160 L350,160 Z" fill="${tint(primary, 0.2)}"/>` +
      `<rect x="280" y="120" width="640" height="970" fill="${box}"/>` +
      `<rect x="330" y="260" width="540" height="760" rx="18" fill="${inner}"/>` +
      `<g clip-path="${canvas.clip('<rect x="330" y="260" width="540" height="760" rx="18"/>')}"><g transform="translate(600 665) scale(0.74) translate(-600 -600)">${figure.front(canvas, look)}</g></g>` +
      `<rect x="330" y="260" width="540" height="760" rx="18" fill="${shine}" stroke="${tint(primary, 0.35)}" stroke-width="6"/>` +
      emblem(look.brand.emblem, 600, 190, 96, { main: accent, second: tint(secondary, 0.3) }) +
      `<rect x="330" y="1040" width="540" height="14" rx="7" fill="${accent}" opacity="0.8"/>`
    );
  },
  focus: { x: 600, y: 430, zoom: 1.9 },
};

// Pin ────────────────────────────────────────────────────────────────────────────────────────────

function goldGradient(canvas: Canvas): string {
  return canvas.linear(
    [
      [0, GOLD[0]],
      [0.35, GOLD[1]],
      [0.6, GOLD[2]],
      [1, GOLD[3]],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 1 },
  );
}

/** A round enamel pin of radius 300 centred on (600, 600); scale it with a transform. */
function pinFace(canvas: Canvas, look: Look, withShadow = true): string {
  const gold = goldGradient(canvas);
  const enamel = canvas.radial(
    [
      [0, tint(look.body, 0.12)],
      [1, shade(look.body, 0.18)],
    ],
    { cx: 0.4, cy: 0.35, r: 0.75 },
  );
  const gloss = canvas.linear([
    [0, '#fff', 0.45],
    [1, '#fff', 0],
  ]);
  return (
    (withShadow
      ? shadowOf('<circle cx="600" cy="600" r="300"/>', { dx: 10, dy: 22, spread: 26, opacity: 0.35 })
      : '') +
    `<circle cx="600" cy="616" r="300" fill="${GOLD[3]}"/>` +
    `<circle cx="600" cy="600" r="300" fill="${gold}"/>` +
    `<circle cx="600" cy="600" r="264" fill="${enamel}"/>` +
    `<circle cx="600" cy="600" r="264" fill="none" stroke="#000" stroke-opacity="0.22" stroke-width="6"/>` +
    `<circle cx="600" cy="600" r="228" fill="none" stroke="${gold}" stroke-width="10"/>` +
    emblem(look.brand.emblem, 600, 600, 330, { ...look.print, outline: GOLD[1] }) +
    `<path d="M370,520 A240,240 0 0 1 690,370 A280,280 0 0 0 370,520 Z" fill="${gloss}" opacity="0.8"/>`
  );
}

const pin: ItemArt = {
  front: (canvas, look) => pinFace(canvas, look),
  back: (canvas, look) => {
    const metal = canvas.radial(
      [
        [0, '#f1e3a8'],
        [0.7, GOLD[1]],
        [1, GOLD[3]],
      ],
      { cx: 0.45, cy: 0.4, r: 0.7 },
    );
    const clutch = (x: number) =>
      `<g transform="translate(${x} 600)"><path d="M-50,-22 C-50,-46 -10,-46 0,-24 C10,-46 50,-46 50,-22 L50,22 C50,46 10,46 0,24 C-10,46 -50,46 -50,22 Z" fill="#b9b9b9" stroke="#7d7d7d" stroke-width="4"/><circle r="14" fill="#8e8e8e"/><circle r="6" fill="#d9d9d9"/></g>`;
    const rings = [250, 200, 150, 100]
      .map(
        (r) =>
          `<circle cx="600" cy="600" r="${r}" fill="none" stroke="#000" stroke-opacity="0.06" stroke-width="3"/>`,
      )
      .join('');
    return (
      shadowOf('<circle cx="600" cy="600" r="300"/>', { dx: 10, dy: 22, spread: 26, opacity: 0.35 }) +
      `<circle cx="600" cy="616" r="300" fill="${GOLD[3]}"/><circle cx="600" cy="600" r="300" fill="${metal}"/>${rings}` +
      `<g opacity="0.18">${emblem(look.brand.emblem, 600, 600, 200, { main: '#000', second: '#000' })}</g>` +
      clutch(470) +
      clutch(730)
    );
  },
  scene: (canvas, look) => {
    const card = canvas.linear([
      [0, tint(look.brand.secondary, 0.2)],
      [1, shade(look.brand.secondary, 0.1)],
    ]);
    const background = canvas.linear([
      [0, tint(look.brand.primary, 0.85)],
      [1, tint(look.brand.primary, 0.65)],
    ]);
    return (
      `<rect width="1200" height="1200" fill="${background}"/>` +
      shadowOf('<rect x="330" y="150" width="540" height="900" rx="28"/>', {
        dx: 12,
        dy: 24,
        spread: 32,
        opacity: 0.3,
      }) +
      `<rect x="330" y="150" width="540" height="900" rx="28" fill="${card}"/>` +
      `<rect x="360" y="180" width="480" height="840" rx="18" fill="none" stroke="${look.brand.primary}" stroke-opacity="0.35" stroke-width="4" stroke-dasharray="14 10"/>` +
      `<rect x="550" y="200" width="100" height="24" rx="12" fill="${tint(look.brand.primary, 0.75)}"/>` +
      `<g transform="translate(600 600) scale(0.62) translate(-600 -600)">${pinFace(canvas, look)}</g>` +
      `<rect x="470" y="880" width="260" height="16" rx="8" fill="${look.brand.primary}" opacity="0.45"/>` +
      `<rect x="520" y="912" width="160" height="12" rx="6" fill="${look.brand.primary}" opacity="0.3"/>`
    );
  },
  set: (canvas, look) => {
    const { brand } = look;
    const background = canvas.linear([
      [0, tint(brand.secondary, 0.7)],
      [1, tint(brand.accent, 0.55)],
    ]);
    const card = canvas.linear([
      [0, tint(brand.primary, 0.15)],
      [1, shade(brand.primary, 0.25)],
    ]);
    const tones = [brand.primary, brand.secondary, brand.accent];
    const placements = [
      [420, 480, 0.4],
      [780, 560, 0.36],
      [560, 820, 0.34],
    ] as const;
    return (
      `<rect width="1200" height="1200" fill="${background}"/>` +
      shadowOf('<rect x="170" y="180" width="860" height="860" rx="30"/>', {
        dx: 12,
        dy: 24,
        spread: 32,
        opacity: 0.3,
      }) +
      `<rect x="170" y="180" width="860" height="860" rx="30" fill="${card}"/>` +
      placements
        .map(([x, y, scale], index) => {
          const body = tones[index] ?? brand.primary;
          const variant = { ...look, body, print: printColours(body, brand) };
          return `<g transform="translate(${x} ${y}) scale(${scale}) translate(-600 -600)">${pinFace(canvas, variant)}</g>`;
        })
        .join('')
    );
  },
  focus: { x: 600, y: 600, zoom: 1.6 },
};

const ITEMS: Record<ItemKind, ItemArt> = { tshirt, hoodie, mug, poster, figure, pin };

// ── Project logos and partner cards ─────────────────────────────────────────────────────────────

export function projectLogoSvg(brand: Brand): string {
  const canvas = new Canvas(600, 600);
  const background = canvas.radial(
    [
      [0, tint(brand.primary, 0.18)],
      [1, shade(brand.primary, 0.35)],
    ],
    { cx: 0.5, cy: 0.4, r: 0.75 },
  );
  const halo = canvas.radial([
    [0, brand.accent, 0.35],
    [1, brand.accent, 0],
  ]);
  return canvas.svg(
    `<rect width="600" height="600" fill="${background}"/>` +
      `<circle cx="300" cy="300" r="260" fill="${halo}"/>` +
      `<circle cx="300" cy="300" r="236" fill="none" stroke="${brand.accent}" stroke-width="6" opacity="0.9"/>` +
      `<circle cx="300" cy="300" r="216" fill="none" stroke="${tint(brand.secondary, 0.3)}" stroke-width="2" stroke-dasharray="6 10" opacity="0.8"/>` +
      emblem(brand.emblem, 300, 300, 330, { main: tint(brand.secondary, 0.55), second: brand.accent }),
  );
}

const MARKS: Record<PartnerArt['mark'], string> = {
  hexagon: 'M0,-70 L61,-35 L61,35 L0,70 L-61,35 L-61,-35 Z',
  circle: 'M-70,0 A70,70 0 1 0 70,0 A70,70 0 1 0 -70,0 Z',
  diamond: 'M0,-76 L64,0 L0,76 L-64,0 Z',
  triangle: 'M0,-74 L70,52 L-70,52 Z',
  arch: 'M-64,64 L-64,0 A64,64 0 0 1 64,0 L64,64 Z',
};

export function partnerSvg(art: PartnerArt): string {
  const canvas = new Canvas(600, 400);
  const [first, second] = art.colours;
  const background = canvas.linear(
    [
      [0, tint(first, 0.1)],
      [1, shade(first, 0.35)],
    ],
    { x1: 0, y1: 0, x2: 1, y2: 1 },
  );
  const stripes = Array.from(
    { length: 9 },
    (_, index) =>
      `<rect x="${index * 90 - 200}" y="-100" width="34" height="700" fill="#fff" opacity="0.05" transform="rotate(30 300 200)"/>`,
  ).join('');
  const mark = MARKS[art.mark];
  return canvas.svg(
    `<rect width="600" height="400" fill="${background}"/>${stripes}` +
      `<circle cx="520" cy="60" r="150" fill="${mix(first, second, 0.55)}" opacity="0.85"/>` +
      `<circle cx="520" cy="60" r="112" fill="none" stroke="${tint(second, 0.3)}" stroke-width="3" opacity="0.7"/>` +
      `<circle cx="70" cy="380" r="110" fill="${mix(first, second, 0.3)}" opacity="0.8"/>` +
      `<g transform="translate(300 200)">` +
      `<circle r="118" fill="#fff" opacity="0.95"/>` +
      `<path d="${mark}" fill="${second}"/>` +
      `<path d="${mark}" transform="scale(0.45)" fill="${shade(first, 0.1)}"/>` +
      `</g>`,
  );
}
