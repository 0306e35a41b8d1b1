/** Colours of the canvases, read from the page's CSS variables so they follow light and dark. */
export interface CanvasTheme {
  background: string;
  lane: string;
  string: string;
  text: string;
  muted: string;
  sustain: string;
  technique: string;
  chord: string;
  accent: string;
  accentText: string;
  loop: string;
  ruler: string;
  dark: boolean;
}

function luminance(color: string): number {
  const m = /^#([0-9a-f]{6})$/i.exec(color.trim());
  if (!m?.[1]) return 0;
  const n = parseInt(m[1], 16);
  return (0.2126 * ((n >> 16) & 255) + 0.7152 * ((n >> 8) & 255) + 0.0722 * (n & 255)) / 255;
}

/** The theme for the current colour scheme of `element`'s document. */
export function readCanvasTheme(element: Element): CanvasTheme {
  const css = getComputedStyle(element);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const background = v('--surface', '#171a21');
  const dark = luminance(background) < 0.5;
  const accent = v('--accent', '#f5a524');
  return dark
    ? {
        background,
        lane: '#1c2029',
        string: '#444c5c',
        text: '#eef1f6',
        muted: '#8c94a4',
        sustain: 'rgba(150, 170, 205, 0.55)',
        technique: '#8ec5ff',
        chord: '#ffd58a',
        accent,
        accentText: v('--accent-text', '#1a1205'),
        loop: 'rgba(245, 165, 36, 0.13)',
        ruler: '#6b7384',
        dark,
      }
    : {
        background,
        lane: '#f4f1ea',
        string: '#b9b4a8',
        text: '#16181d',
        muted: '#6a6f7a',
        sustain: 'rgba(70, 90, 130, 0.45)',
        technique: '#1f63c6',
        chord: '#7a4a00',
        accent,
        accentText: v('--accent-text', '#ffffff'),
        loop: 'rgba(184, 110, 0, 0.12)',
        ruler: '#8d8a82',
        dark,
      };
}
