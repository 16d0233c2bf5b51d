import { type KeyboardEvent, useCallback, useRef, useState } from 'react';

const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * A row of slides one screen wide each, scrolled sideways with CSS scroll snapping: a finger swipes
 * it, the browser snaps to a slide, and the slide in view becomes the current one. Buttons and the
 * arrow keys scroll it to another slide (round from the last to the first).
 */
export function useSlides(count: number, start = 0) {
  const strip = useRef<HTMLUListElement>(null);
  const [current, setCurrent] = useState(start);
  /** The slide a scroll of ours is heading to: the ones it passes on the way are not current. */
  const heading = useRef<number | null>(null);

  /** Scrolls to slide `index`; smoothly unless told to jump or the visitor asked for less motion. */
  const show = useCallback(
    (index: number, { jump = false } = {}) => {
      const next = (index + count) % count;
      const element = strip.current;
      if (element && element.scrollLeft !== next * element.clientWidth) {
        heading.current = next;
        element.scrollTo({
          left: next * element.clientWidth,
          behavior: jump || prefersReducedMotion() ? 'instant' : 'smooth',
        });
      }
      setCurrent(next);
    },
    [count],
  );

  /** The slide the row rests on is the current one, however it got there. */
  const onScroll = () => {
    const element = strip.current;
    if (!element || element.clientWidth === 0) return;
    const position = element.scrollLeft / element.clientWidth;
    const index = Math.min(count - 1, Math.max(0, Math.round(position)));
    if (heading.current !== null) {
      if (index !== heading.current || Math.abs(position - index) > 0.02) return;
      heading.current = null;
    }
    setCurrent(index);
  };

  /** A finger, a wheel or a scroll bar takes over from a scroll of ours. */
  const onUserScroll = () => {
    heading.current = null;
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (count < 2 || event.altKey || event.ctrlKey || event.metaKey) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    show(current + step);
  };

  /** Props for the scrolling list. */
  const stripProps = {
    ref: strip,
    onScroll,
    onPointerDown: onUserScroll,
    onTouchStart: onUserScroll,
    onWheel: onUserScroll,
  };

  return { stripProps, current, show, onKeyDown };
}
