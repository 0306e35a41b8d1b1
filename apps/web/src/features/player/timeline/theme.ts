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
  /** The editor's selection ring and rectangle. */
  selection: string;
  /** The mark under a doubtful note (review queue); at least 3:1 against the background. */
  doubt: string;
  /** Listen & check's marks: hit, early or late, missed (at least 3:1 against the background). */
  hit: string;
  off: string;
  missed: string;
  dark: boolean;
}

/**
 * Red, green and blue (0..255) of a CSS colour as the page writes it: #rgb, #rrggbb (with or
 * without alpha) or rgb()/rgba(). Null for anything else. A minifier may shorten #ffffff to #fff,
 * so both hex forms matter.
 */
export function parseColor(color: string): [number, number, number] | null {
  const c = color.trim();
  const hex = /^#([0-9a-f]{3,8})$/i.exec(c)?.[1];
  if (hex && (hex.length === 3 || hex.length === 4)) {
    return [0, 1, 2].map((k) => parseInt((hex[k] ?? '0').repeat(2), 16)) as [
      number,
      number,
      number,
    ];
  }
  if (hex && (hex.length === 6 || hex.length === 8)) {
    return [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16)) as [number, number, number];
  }
  const rgb = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/i.exec(c);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  return null;
}

/** WCAG relative luminance (0 black .. 1 white) of a CSS colour; null when it cannot be read. */
export function relativeLuminance(color: string): number | null {
  const rgb = parseColor(color);
  if (!rgb) return null;
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
}

/** WCAG contrast ratio of two CSS colours (1..21); 1 when either cannot be read. */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  if (la === null || lb === null) return 1;
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * The theme for the current colour scheme of `element`'s document. Light or dark is decided by
 * the surface colour the canvas sits on (the page's own scheme), so text is never drawn in the
 * other scheme's colours.
 */
export function readCanvasTheme(element: Element): CanvasTheme {
  const css = getComputedStyle(element);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const background = v('--surface', '#171a21');
  const surface = relativeLuminance(background);
  const dark =
    surface === null ? window.matchMedia('(prefers-color-scheme: dark)').matches : surface < 0.4;
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
        selection: '#5aa9ff',
        doubt: '#ff6fae',
        hit: '#4cd67a',
        off: '#ffc145',
        missed: '#ff6b5e',
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
        selection: '#1f63c6',
        doubt: '#c2126b',
        hit: '#187a3a',
        off: '#9a5b00',
        missed: '#c0261b',
        dark,
      };
}
