import { plainNote, type ChordEvent, type NoteEvent } from '@riffscribe/core';
import type { Page } from 'playwright-core';
import { STAFF_GUTTER } from '../../apps/web/src/features/player/timeline/scale.js';

/**
 * Helpers for the editor's e2e tests: a lesson whose fret numbers are all different (so a test
 * finds a note by its number), where the timeline drew each piece of text, clicks on them.
 */
export function editLesson(): { notes: NoteEvent[]; chords: ChordEvent[]; results: object } {
  const n = (time: number, string: number, fret: number) =>
    plainNote({ time, end_time: time + 0.4, string, fret });
  return {
    notes: [
      n(0.5, 3, 5),
      n(1.0, 2, 7),
      n(1.5, 4, 9),
      n(2.5, 1, 10),
      n(3.0, 5, 14),
      n(3.5, 6, 15),
      n(6.0, 3, 17),
    ],
    chords: [
      { time: 0.5, end_time: 1.5, chord: 'C', event_type: 'chord' },
      { time: 2.5, end_time: 3.5, chord: 'G', event_type: 'chord' },
    ],
    results: {
      capo: 0,
      tuning: [40, 45, 50, 55, 59, 64],
      tuning_name: 'Standard',
      musical_key: 'C major',
      duration: 10,
    },
  };
}

interface Drawn {
  kind: string;
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The fret numbers and chord names the timeline drew in its last frame. */
export function drawnText(page: Page): Promise<Drawn[]> {
  return page
    .getByTestId('timeline')
    .evaluate((el: HTMLCanvasElement & { drawnText?: () => Drawn[] }) => el.drawnText?.() ?? []);
}

/** The fret numbers on screen, sorted (as text, 'X' for muted notes). */
export async function fretTexts(page: Page): Promise<string[]> {
  return (await drawnText(page))
    .filter((d) => d.kind === 'fret')
    .map((d) => d.text)
    .sort();
}

/** Waits until the fret numbers on screen include all of `present` and none of `absent`. */
export async function waitForFrets(page: Page, present: string[], absent: string[] = []) {
  await page.waitForFunction(
    ({ present, absent }) => {
      const el = document.querySelector<HTMLCanvasElement & { drawnText?: () => Drawn[] }>(
        '[data-testid="timeline"]',
      );
      const texts = (el?.drawnText?.() ?? []).filter((d) => d.kind === 'fret').map((d) => d.text);
      return present.every((p) => texts.includes(p)) && absent.every((a) => !texts.includes(a));
    },
    { present, absent },
  );
}

/** Page coordinates of the middle of the drawn text `text` (the first one found). */
export async function textPoint(page: Page, text: string, kind = 'fret') {
  const box = (await page.getByTestId('timeline').boundingBox())!;
  const found = (await drawnText(page)).find((d) => d.text === text && d.kind === kind);
  if (!found) throw new Error(`"${text}" is not drawn`);
  return { x: box.x + found.left + found.width / 2, y: box.y + found.top + found.height / 2 };
}

/** Clicks the drawn fret number or chord name `text`, with modifiers if given. */
export async function clickText(
  page: Page,
  text: string,
  options: { kind?: string; modifiers?: ('Shift' | 'Control' | 'Meta')[] } = {},
) {
  const p = await textPoint(page, text, options.kind);
  // Mouse clicks take no modifiers of their own: hold the keys around the click.
  for (const key of options.modifiers ?? []) await page.keyboard.down(key);
  await page.mouse.click(p.x, p.y);
  for (const key of options.modifiers ?? []) await page.keyboard.up(key);
}

/** Page y of string `s`'s line (from the string names at the left of the staff). */
export async function stringLineY(page: Page, s: number): Promise<number> {
  const box = (await page
    .locator('[data-testid="string-names"] span')
    .nth(s - 1)
    .boundingBox())!;
  return box.y + box.height / 2;
}

/**
 * Where the string lines are on the timeline canvas (string 1's y and the gap, canvas px), from the
 * string names, measured in one frame: the page may be scrolling (smoothly) while a test reads it.
 */
export function staffLines(page: Page): Promise<{ first: number; gap: number }> {
  return page.getByTestId('timeline').evaluate((canvas) => {
    const top = canvas.getBoundingClientRect().top;
    const names = document.querySelectorAll('[data-testid="string-names"] span');
    const middle = (k: number) => {
      const r = names[k]!.getBoundingClientRect();
      return r.top + r.height / 2 - top;
    };
    return { first: middle(0), gap: middle(1) - middle(0) };
  });
}

/** Page x of `time` seconds while the view is at the start (zoom 100, the tab after the names). */
export async function timeX(page: Page, time: number): Promise<number> {
  const box = (await page.getByTestId('timeline').boundingBox())!;
  return box.x + STAFF_GUTTER + time * 100;
}
