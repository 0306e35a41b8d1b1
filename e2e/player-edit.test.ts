import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MESSAGES, type ChordEvent, type NoteEvent } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../apps/server/test/support/test-server.js';
import { screenshot } from './support/browser.js';
import {
  clickText,
  editLesson,
  stringLineY,
  textPoint,
  timeX,
  waitForFrets,
} from './support/editor.js';
import { openLesson, seekTo } from './support/player.js';
import { seedLesson, userByEmail } from './support/lessons.js';
import { makeVideo } from './support/media.js';
import { signIn } from './support/auth.js';
import { endPlayerSession, startPlayerSession } from './support/session.js';

/**
 * Issue 11: the editor in Chromium against the real server. An editing session that uses every
 * command, saved and reloaded; the AI's version untouched; another user sees the edited tab in
 * the view-only player and can change nothing (UI and API).
 */
describe('tab editor in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jobId: string;
  let work: string;
  let owner: TestUser;

  const summary = () => page.getByTestId('edit-summary').textContent();
  const edited = async () => {
    const res = await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=true`, {
      token: owner.token,
    });
    return ((await res.json()) as { events: NoteEvent[] }).events;
  };
  const editedChords = async () => {
    const res = await server.request('GET', `/api/chords?jobId=${jobId}&edit_version=true`, {
      token: owner.token,
    });
    return ((await res.json()) as { events: ChordEvent[] }).events;
  };

  beforeAll(async () => {
    ({ work, server, browser, context, page, owner } = await startPlayerSession({
      email: 'eda@example.test',
      name: 'Eda Editor',
    }));
    jobId = await seedLesson(server, owner, {
      ...editLesson(),
      video: makeVideo(work, 'edit.mp4', 10, { sound: 'tone', portrait: true }),
      duration: 10,
    });
    const shared = await server.request('PATCH', `/api/job?id=${jobId}`, {
      token: owner.token,
      json: { sharedToExplore: true },
    });
    expect(shared.status).toBe(200);
    await openLesson(page, server.url, jobId);
    await seekTo(page, 0);
  });

  afterAll(async () => {
    await endPlayerSession({ work, server, browser, context, page, owner });
  });

  it('opens the owner in edit mode on the edited tabs', async () => {
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await waitForFrets(page, ['5', '7', '9', '10', '14', '15', '17']);
    expect(await summary()).toBe('Click a note to select it; double-click a string to add one');
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
  });

  it('selects by click, sets a fret by two quick digits, adds by Shift-click, nudges, clears', async () => {
    await clickText(page, '5');
    expect(await summary()).toBe('1 note selected');
    await page.keyboard.press('1');
    await page.keyboard.press('2');
    await waitForFrets(page, ['12'], ['5']);
    await clickText(page, '7', { modifiers: ['Shift'] });
    expect(await summary()).toBe('2 notes selected');
    await page.keyboard.press('.');
    await page.keyboard.press('Shift+.');
    await page.keyboard.press('Escape');
    expect(await summary()).toBe('Click a note to select it; double-click a string to add one');
    expect(await page.locator('.lp').getAttribute('data-dirty')).toBe('true');
  });

  it('moves a note to another string at the same pitch, deletes one, and sets techniques', async () => {
    await clickText(page, '9');
    await page.keyboard.press('PageUp'); // D string fret 9 -> G string fret 4
    await waitForFrets(page, ['4'], ['9']);
    await clickText(page, '10');
    await page.keyboard.press('Delete');
    await waitForFrets(page, [], ['10']);
    await clickText(page, '14');
    await page.keyboard.press('s');
    await page.keyboard.press('h'); // replaces the slide: one technique per side
    await page.keyboard.press('Shift+P');
    await page.keyboard.press('x');
    await waitForFrets(page, ['X'], ['14']);
    await page.keyboard.press('x');
    await page.keyboard.press('v');
    await page.keyboard.press('b');
    await waitForFrets(page, ['14']);
    expect(await page.getByLabel('Bend').inputValue()).toBe('bend-1');
    await page.getByLabel('Bend').selectOption('release-2');
  });

  it('copies and pastes at the playhead, adds a note by double-click, selects by rectangle', async () => {
    await clickText(page, '15');
    await page.keyboard.press('Control+c');
    await seekTo(page, 2);
    await page.keyboard.press('Control+v');
    await page.waitForFunction(() => {
      const el = document.querySelector<
        HTMLCanvasElement & { drawnText?: () => { text: string }[] }
      >('[data-testid="timeline"]');
      return (el?.drawnText?.() ?? []).filter((d) => d.text === '15').length === 2;
    });
    await page.keyboard.press('Escape');
    await seekTo(page, 0);
    await page.mouse.dblclick(await timeX(page, 4.5), await stringLineY(page, 2));
    expect(await summary()).toBe('1 note selected');
    await page.keyboard.press('2');
    await page.keyboard.press('1');
    await waitForFrets(page, ['21']);
    // A rectangle from before the first note over every string to 1.4 s: the two nudged notes.
    await seekTo(page, 0);
    const top = (await stringLineY(page, 1)) - 10;
    const bottom = (await stringLineY(page, 6)) + 10;
    await page.mouse.move(await timeX(page, 0.2), top);
    await page.mouse.down();
    await page.mouse.move(await timeX(page, 0.8), bottom, { steps: 4 });
    await page.mouse.move(await timeX(page, 1.4), bottom, { steps: 4 });
    await page.mouse.up();
    expect(await summary()).toBe('2 notes selected');
    await page.keyboard.press('Escape');
  });

  it('drags a note start and end, and bends it with the pitch-curve editor', async () => {
    await seekTo(page, 0);
    const start = await textPoint(page, '17');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(start.x + 10, start.y, { steps: 5 });
    await page.mouse.move(start.x + 20, start.y, { steps: 5 });
    await page.mouse.up();
    // The note's line now ends where it did (6.4 s): drag that end to 7.0 s.
    await page.mouse.move(await timeX(page, 6.4), start.y);
    await page.mouse.down();
    await page.mouse.move(await timeX(page, 6.7), start.y, { steps: 5 });
    await page.mouse.move(await timeX(page, 7.0), start.y, { steps: 5 });
    await page.mouse.up();
    expect(await summary()).toBe('1 note selected');
    const point = page.locator('[data-testid="pitch-curve"] circle[data-point="8"]');
    const box = (await point.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y - 10, { steps: 3 });
    await page.mouse.move(box.x + box.width / 2, box.y - 200, { steps: 3 });
    await page.mouse.up();
    await page.keyboard.press('Escape');
  });

  it('adds, renames, resizes and deletes chords; undo and redo', async () => {
    await seekTo(page, 5);
    await page.keyboard.press('c');
    await page.getByLabel('Chord name').fill('Em');
    await page.getByLabel('Chord name').press('Enter');
    expect(await summary()).toBe('Chord Em');
    await page.keyboard.press('Escape');
    await seekTo(page, 0);
    await clickText(page, 'C', { kind: 'chord' });
    expect(await summary()).toBe('Chord C');
    await page.keyboard.press('r');
    await page.getByLabel('Chord name').fill('  ');
    await page.getByLabel('Chord name').press('Enter');
    // An empty name is not saved.
    expect(await summary()).toBe('Chord C');
    await page.keyboard.press('r');
    await page.getByLabel('Chord name').fill(' Cadd9 ');
    await page.getByLabel('Chord name').press('Enter');
    expect(await summary()).toBe('Chord Cadd9');
    await page.keyboard.press('Shift+]');
    await page.keyboard.press(',');
    await clickText(page, 'G', { kind: 'chord' });
    await page.keyboard.press('Delete');
    expect((await summary())?.startsWith('Click')).toBe(true);
    await page.keyboard.press('Control+z');
    await clickText(page, 'G', { kind: 'chord' });
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+Shift+z');
    await page.keyboard.press('Delete');
  });

  it('shows the keyboard help with ?', async () => {
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.getByText('Fret (two digits quickly: 10–24)').count()).toBe(1);
    await screenshot(page, 'player-editor-help-1440');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
  });

  it('saves with the toast, and the edits are what the server stores; the AI version is unchanged', async () => {
    await seekTo(page, 0);
    await clickText(page, '21');
    await screenshot(page, 'player-editor-1440');
    // One more change (vibrato on and off), then Save. Auto-save runs every 30 s on the real
    // clock here, so it may have saved the earlier edits already; this change is saved now.
    await page.keyboard.press('v');
    await page.keyboard.press('v');
    const save = page.getByRole('button', { name: 'Save' });
    if (await save.isEnabled()) await save.click();
    await page.getByRole('status').filter({ hasText: MESSAGES.changesSaved }).waitFor();
    await page.locator('.lp[data-dirty="false"]').waitFor();
    const notes = await edited();
    const frets = notes.map((n) => n.fret).sort((a, b) => a - b);
    // 5 -> 12, 9 -> 4 on the G string, 10 deleted, 15 pasted, 21 added.
    expect(frets).toEqual([4, 7, 12, 14, 15, 15, 17, 21]);
    // Both nudged 0.05 s, then 0.2 s with Shift.
    expect(notes.find((n) => n.fret === 12)!.time).toBeCloseTo(0.75, 6);
    expect(notes.find((n) => n.fret === 7)!.time).toBeCloseTo(1.25, 6);
    expect(notes.find((n) => n.fret === 4)!.string).toBe(3);
    const fourteen = notes.find((n) => n.fret === 14)!;
    expect(fourteen).toMatchObject({
      trailing_hammer_on: true,
      trailing_slide: false,
      leading_pull_off: true,
      mute: false,
      vibrato: 'small',
      bend_to_fret: 16,
      release_to_fret: 14,
    });
    expect(notes.filter((n) => n.fret === 15).map((n) => n.time)).toEqual([2, 3.5]);
    const added = notes.find((n) => n.fret === 21)!;
    expect(added.string).toBe(2);
    expect(added.end_time - added.time).toBeCloseTo(0.1, 6);
    const seventeen = notes.find((n) => n.fret === 17)!;
    expect(seventeen.time).toBeCloseTo(6.2, 1);
    expect(seventeen.end_time).toBeCloseTo(7, 1);
    expect(Math.max(...seventeen.pitch_arr)).toBe(10);
    const chords = await editedChords();
    expect(chords.map((c) => c.chord)).toEqual(['Cadd9', 'Em']);
    expect(chords[0]!.time).toBeCloseTo(0.45, 6);
    expect(chords[0]!.end_time - chords[0]!.time).toBeCloseTo(1.2, 6);
    expect(chords[1]!.end_time - chords[1]!.time).toBeCloseTo(0.6, 6);
    const original = await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=false`, {
      token: owner.token,
    });
    expect(((await original.json()) as { events: NoteEvent[] }).events).toEqual(editLesson().notes);
  });

  it('shows the edited tab after a reload, and the AI tab under Original (AI)', async () => {
    await page.reload();
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await seekTo(page, 0);
    await waitForFrets(page, ['12', '4', '21'], ['5', '9', '10']);
    expect(await page.getByTestId('draft-banner').count()).toBe(0);
    await page.getByRole('button', { name: /Tabs source/ }).click();
    await page.getByRole('menuitemradio', { name: 'Original (AI)' }).click();
    await page.locator('.lp[data-mode="view"]').waitFor();
    await waitForFrets(page, ['5', '9', '10'], ['12', '21']);
    expect(await page.getByTestId('edit-bar').count()).toBe(0);
    await page.getByRole('button', { name: /Tabs source/ }).click();
    await page.getByRole('menuitemradio', { name: 'Edited' }).click();
    await page.locator('.lp[data-mode="edit"]').waitFor();
    // Editors rename the lesson in the player's header.
    const name = page.getByRole('textbox', { name: /^Project name for/ });
    await name.fill('Blues in C');
    await name.press('Enter');
    await page.getByRole('heading', { name: 'Blues in C' }).waitFor({ state: 'attached' });
  });

  it('gives another user the edited tab, view-only: the UI and the API refuse changes', async () => {
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const viewer = await other.newPage();
    await signIn(viewer, server.url, { email: 'vera@example.test', name: 'Vera Viewer' });
    await viewer.goto(`${server.url}/lesson/${jobId}`);
    await viewer.getByRole('button', { name: 'Continue' }).click();
    await openLesson(viewer, server.url, jobId);
    await seekTo(viewer, 0);
    await viewer.locator('.lp[data-mode="view"]').waitFor();
    await waitForFrets(viewer, ['12', '4', '21'], ['5', '10']);
    expect(await viewer.getByRole('button', { name: 'Save' }).count()).toBe(0);
    expect(await viewer.getByTestId('edit-bar').count()).toBe(0);
    expect(await viewer.getByRole('textbox', { name: /^Project name for/ }).count()).toBe(0);
    await viewer.getByRole('heading', { name: 'Blues in C' }).waitFor();
    await clickText(viewer, '12');
    await viewer.keyboard.press('3');
    await viewer.keyboard.press('Delete');
    await viewer.keyboard.press('Control+z');
    await waitForFrets(viewer, ['12']);
    expect(await viewer.locator('.lp').getAttribute('data-dirty')).toBe('false');
    const vera = await userByEmail(server, 'vera@example.test');
    const refused = await server.request('POST', `/api/edit-notes?jobId=${jobId}`, {
      token: vera.token,
      json: { events: [] },
    });
    expect(refused.status).toBe(403);
    const access = await server.request('GET', `/api/edit-access?jobId=${jobId}`, {
      token: vera.token,
    });
    expect(await access.json()).toEqual({ canEdit: false });
    expect((await edited()).length).toBe(8);
    await other.close();
  });

  it('says why a note cannot move to another string (issue 37)', async () => {
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await seekTo(page, 0);
    // The 15 on the low E string: there is no lower string.
    await clickText(page, '15');
    await page.keyboard.press('PageDown');
    await page
      .getByTestId('edit-refusal')
      .filter({ hasText: 'There is no lower string: the note stays.' })
      .waitFor();
    // The next command clears it.
    await page.keyboard.press('Escape');
    await page.getByTestId('edit-refusal').waitFor({ state: 'detached' });
  });

  it('counts an edit made after a save and an undo as unsaved, and saves it (issue 37)', async () => {
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await seekTo(page, 0);
    const save = page.getByRole('button', { name: 'Save' });
    const at = (await edited()).find((n) => n.fret === 21)!.time;
    const fretOfAdded = async () =>
      (await edited()).find((n) => n.string === 2 && n.time === at)!.fret;
    // Type 5 over the 21, Save.
    await clickText(page, '21');
    await page.keyboard.press('5');
    await waitForFrets(page, ['5'], ['21']);
    await save.click();
    await page.locator('.lp[data-dirty="false"]').waitFor();
    expect(await fretOfAdded()).toBe(5);
    // Undo (back to 21, which the server no longer holds), then type 8 over it.
    await page.keyboard.press('Control+z');
    await waitForFrets(page, ['21'], ['5']);
    expect(await page.locator('.lp').getAttribute('data-dirty')).toBe('true');
    await clickText(page, '21');
    await page.keyboard.press('8');
    await waitForFrets(page, ['8'], ['21']);
    expect(await page.locator('.lp').getAttribute('data-dirty')).toBe('true');
    expect(await save.isEnabled()).toBe(true);
    await save.click();
    await page.locator('.lp[data-dirty="false"]').waitFor();
    expect(await fretOfAdded()).toBe(8);
  });
});
