/**
 * The real Boxberry pickup-point widget (shared/providers.md): its script is loaded once from
 * Boxberry's host, then `boxberry.open(callback, token, city, targetStart, orderSum, weight, paySum,
 * height, width, depth)` shows Boxberry's own map; the callback gets the chosen point.
 */

export const BOXBERRY_WIDGET_SCRIPT = 'https://points.boxberry.ru/js/boxberry.js';

export interface BoxberryWidgetSettings {
  token: string;
  targetStart: string;
  /** Value of the goods, roubles. */
  orderSum: number;
  weightGrams: number;
}

interface BoxberryWidgetPoint {
  id: string;
  name: string;
  address: string;
  workschedule?: string;
  phone?: string;
}

declare global {
  interface Window {
    boxberry?: {
      open: (
        callback: (point: BoxberryWidgetPoint) => void,
        token: string,
        city: string,
        targetStart: string,
        orderSum: number,
        weight: number,
        paySum: number,
        height: number,
        width: number,
        depth: number,
      ) => void;
    };
  }
}

let loading: Promise<void> | undefined;

function loadScript(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = BOXBERRY_WIDGET_SCRIPT;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error('The Boxberry widget could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

/** Opens Boxberry's widget for the city; rejects when it cannot be loaded (the caller falls back). */
export async function openBoxberryWidget(
  settings: BoxberryWidgetSettings,
  city: string,
  onChoose: (point: { code: string; address: string }) => void,
): Promise<void> {
  await loadScript();
  const widget = window.boxberry;
  if (!widget) throw new Error('The Boxberry widget did not start');
  widget.open(
    (point) => onChoose({ code: String(point.id), address: point.address }),
    settings.token,
    city,
    settings.targetStart,
    settings.orderSum,
    settings.weightGrams,
    0,
    0,
    0,
    0,
  );
}
