import { LayoutMode, NotationElement, Settings } from '@coderline/alphatab';

/**
 * What the notation view and the print sheet draw alike: SVG pages with the Bravura font the
 * Vite plugin copies to /font/, and no dynamics (the engine hears none; alphaTab's default forte
 * under the first note says nothing). Each sets its player and layout options on top.
 */
export function sheetSettings(): Settings {
  const settings = new Settings();
  settings.core.fontDirectory = '/font/';
  settings.core.engine = 'svg';
  settings.display.layoutMode = LayoutMode.Page;
  settings.notation.elements.set(NotationElement.EffectDynamics, false);
  return settings;
}
