import { useEffect, useState } from 'react';

export interface CanvasSize {
  width: number;
  height: number;
  dpr: number;
}

/** The CSS size of an element and the device pixel ratio, following resizes and zoom changes. */
export function useCanvasSize(element: HTMLElement | null): CanvasSize | null {
  const [size, setSize] = useState<CanvasSize | null>(null);
  useEffect(() => {
    if (!element) return;
    let media: MediaQueryList | null = null;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      setSize((old) =>
        old?.width === rect.width && old.height === rect.height && old.dpr === dpr
          ? old
          : { width: rect.width, height: rect.height, dpr },
      );
      // A change of devicePixelRatio (browser zoom, another screen) is only seen this way.
      media?.removeEventListener('change', measure);
      media = window.matchMedia(`(resolution: ${String(dpr)}dppx)`);
      media.addEventListener('change', measure);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    measure();
    return () => {
      observer.disconnect();
      media?.removeEventListener('change', measure);
    };
  }, [element]);
  return size;
}

/** The canvas theme changes with the colour scheme: a counter that bumps when it does. */
export function useColorScheme(): boolean {
  const query = '(prefers-color-scheme: dark)';
  const [dark, setDark] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => {
      setDark(list.matches);
    };
    list.addEventListener('change', onChange);
    return () => {
      list.removeEventListener('change', onChange);
    };
  }, []);
  return dark;
}
