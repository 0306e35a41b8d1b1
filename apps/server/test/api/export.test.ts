import { importer, Settings } from '@coderline/alphatab';
import tonejs from '@tonejs/midi';
import { plainNote, steadyGrid, type BeatsResponse, type NoteEvent } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachment } from '../../src/routes/export.route.js';
import { jobObjectKey } from '../../src/storage/keys.js';
import { completeJob, createLesson, submitUpload } from '../support/fixtures.js';
import { tinyVideo } from '../support/media.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const { Midi } = tonejs;

/** A phrase at the default 120 bpm (a beat is 0.5 s): G string 2, B string 1, a bend on 3. */
const NOTES: NoteEvent[] = [
  plainNote({ time: 0.5, end_time: 1, string: 3, fret: 2 }),
  plainNote({ time: 1, end_time: 1.5, string: 2, fret: 1 }),
  plainNote({ time: 1.5, end_time: 2, string: 2, fret: 3, bend_to_fret: 5 }),
];

/**
 * Issue 15 (export): GET /api/export answers a lesson as a MIDI file or a text tab, to the same
 * callers as the notes; the edited version by default; gp and musicxml are refused for now.
 */
describe('GET /api/export', () => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;
  let lesson: string;
  let shared: string;
  let hidden: string;

  beforeAll(async () => {
    server = await startTestServer({ queue: false });
    [owner, other] = await Promise.all([server.createUser(), server.createUser()]);
    // A 3-second video: long enough for the notes to be saved again as an edit.
    lesson = (await submitUpload(server, owner, { bytes: tinyVideo(3) })).jobId;
    await completeJob(server, lesson, { notes: NOTES });
    const renamed = await server.request('PATCH', `/api/job?id=${lesson}`, {
      token: owner.token,
      json: { projectName: 'Blues in A' },
    });
    expect(renamed.status).toBe(200);
    [shared, hidden] = await Promise.all([
      createLesson(server, owner, { shared: true }).then((j) => j.jobId),
      createLesson(server, owner).then((j) => j.jobId),
    ]);
  });
  afterAll(() => server.close());

  const get = (path: string, user: TestUser | null = owner) =>
    server.request('GET', path, { token: user?.token ?? null });
  const midiOf = async (res: Response) => new Midi(new Uint8Array(await res.arrayBuffer()));

  it('gives the owner a MIDI file named after the lesson, with the notes at the score ticks', async () => {
    const res = await get(`/api/export?jobId=${lesson}&format=midi`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/midi');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Blues in A.mid"; filename*=UTF-8''Blues%20in%20A.mid`,
    );
    expect(res.headers.get('x-lesson-version')).toBe('original');
    const midi = await midiOf(res);
    expect(midi.header.ppq).toBe(960);
    expect(midi.header.tempos[0]?.bpm).toBeCloseTo(120, 2);
    const notes = midi.tracks.flatMap((t) => t.notes);
    // G string fret 2 = A3 (57) on beat 2; B string fret 1 = C4 (60); fret 3 = D4 (62).
    expect(notes.map((n) => [n.midi, n.ticks, n.durationTicks])).toEqual([
      [57, 960, 960],
      [60, 1920, 960],
      [62, 2880, 960],
    ]);
    // The bend up two frets: a pitch-bend of +2 semitones under the file's 12-semitone range.
    const bends = midi.tracks.flatMap((t) => t.pitchBends).map((b) => b.value * 12);
    expect(Math.max(...bends)).toBeCloseTo(2, 2);
    // An acoustic guitar by default (General MIDI program 25, steel strings).
    expect(midi.tracks.find((t) => t.notes.length > 0)?.instrument.number).toBe(25);
  });

  it('gives the owner a text tab', async () => {
    const res = await get(`/api/export?jobId=${lesson}&format=txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toContain('filename="Blues in A.txt"');
    const text = await res.text();
    expect(text.startsWith('Blues in A\n')).toBe(true);
    expect(text).toContain('Tuning: Standard (E A D G B E, low to high)');
    expect(text).toContain('Tempo: 120 bpm');
    const line = (name: string) => text.split('\n').find((l) => l.startsWith(`${name}|`)) ?? '';
    // One bar (the rests after the last note are left out): beats 2, 3 and 4.
    expect(line('G')).toBe(`G|${'-'.repeat(9)}2${'-'.repeat(23)}|`);
    expect(line('B')).toBe(`B|${'-'.repeat(17)}1${'-'.repeat(7)}3b5${'-'.repeat(5)}|`);
    // The chord of the sample lesson, Am at 0.5 s, over the first note.
    expect(text).toContain(`\n1${' '.repeat(10)}Am\n`);
  });

  it('exports the edited version by default once one is saved, the original on request', async () => {
    const edited = NOTES.map((n, i) => (i === 0 ? { ...n, fret: 4 } : n));
    const save = await server.request('POST', `/api/edit-notes?jobId=${lesson}`, {
      token: owner.token,
      json: { events: edited },
    });
    expect(save.status).toBe(200);
    const first = async (query: string) => {
      const res = await get(`/api/export?jobId=${lesson}&format=midi${query}`);
      expect(res.status).toBe(200);
      const version = res.headers.get('x-lesson-version');
      return { version, pitch: (await midiOf(res)).tracks.flatMap((t) => t.notes)[0]?.midi };
    };
    expect(await first('')).toEqual({ version: 'edited', pitch: 59 });
    expect(await first('&version=edited')).toEqual({ version: 'edited', pitch: 59 });
    expect(await first('&version=original')).toEqual({ version: 'original', pitch: 57 });
  });

  it("places the notes on the job's stored beat grid when it has one", async () => {
    // Before: no beats stored, so GET /api/beats gives the steady default over the lesson.
    const before = await get(`/api/beats?jobId=${lesson}`);
    expect(before.status).toBe(200);
    const fallback = (await before.json()) as BeatsResponse;
    expect(fallback.source).toBe('default');
    expect(fallback.grid.downbeats.slice(0, 2)).toEqual([0, 4]);
    expect(fallback.grid.beats[1]).toBeCloseTo(0.5, 9);
    const { store, database } = server.ctx;
    const key = jobObjectKey(lesson, 'beats.json', 'original');
    const body = Buffer.from(JSON.stringify(steadyGrid(90, 3, 12)));
    await store.put(key, body, 'application/json');
    await database.db
      .insertInto('job_files')
      .values({
        job_id: lesson,
        name: 'beats',
        version: 'original',
        key,
        content_type: 'application/json',
        size: body.length,
      })
      .execute();
    const midi = await midiOf(await get(`/api/export?jobId=${lesson}&format=midi`));
    expect(midi.header.tempos[0]?.bpm).toBeCloseTo(90, 2);
    expect(midi.header.timeSignatures[0]?.timeSignature).toEqual([3, 4]);
    const text = await (await get(`/api/export?jobId=${lesson}&format=txt`)).text();
    expect(text).toContain('Time: 3/4');
    const after = (await (await get(`/api/beats?jobId=${lesson}`)).json()) as BeatsResponse;
    expect(after).toEqual({ grid: steadyGrid(90, 3, 12), source: 'engine' });
  });

  it("saves the owner's corrected bar lines as the edited version, which the exports follow", async () => {
    // Runs after the test above stored a 3/4 grid at 90 as the engine's.
    const corrected = steadyGrid(90, 4, 3);
    const post = (grid: unknown, user: TestUser | null = owner) =>
      server.request('POST', `/api/edit-beats?jobId=${lesson}`, {
        token: user?.token ?? null,
        json: { grid },
      });
    const saved = await post(corrected);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ saved: corrected.beats.length });
    const beats = async (query: string) =>
      (await (await get(`/api/beats?jobId=${lesson}${query}`)).json()) as BeatsResponse;
    expect(await beats('&edit_version=true')).toEqual({ grid: corrected, source: 'edited' });
    expect((await beats('&edit_version=false')).source).toBe('engine');
    expect((await beats('')).source).toBe('engine');
    const signature = async (query: string) =>
      (await midiOf(await get(`/api/export?jobId=${lesson}&format=midi${query}`))).header
        .timeSignatures[0]?.timeSignature;
    expect(await signature('')).toEqual([4, 4]);
    expect(await signature('&version=original')).toEqual([3, 4]);

    // Refused: beats too close, bar lines off the beats, beats far past the 3 s video, other
    // users, signed-out callers; nothing of it is saved.
    const close = { beats: [0, 0.1, 0.5], downbeats: [0], beat_unit: 4 };
    const offBeat = { beats: [0, 0.5, 1], downbeats: [0, 5], beat_unit: 4 };
    for (const bad of [close, offBeat, steadyGrid(90, 4, 20), 'nope']) {
      const res = await post(bad);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/beat|bar|grid/i);
    }
    expect((await post(corrected, other)).status).toBe(404);
    expect((await post(corrected, null)).status).toBe(401);
    expect(await beats('&edit_version=true')).toEqual({ grid: corrected, source: 'edited' });
  });

  it('lets anyone download a shared lesson, signed out too, and hides a private one', async () => {
    for (const user of [null, other]) {
      const res = await get(`/api/export?jobId=${shared}&format=txt`, user);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('G|');
    }
    for (const user of [null, other]) {
      const notes = await get(`/api/notes?jobId=${hidden}&edit_version=true`, user);
      const res = await get(`/api/export?jobId=${hidden}&format=midi`, user);
      expect(res.status).toBe(notes.status);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Job not found.' });
    }
  });

  it('names the file in ASCII and in UTF-8', () => {
    expect(attachment('Étude "No. 1" / Día.txt')).toBe(
      `attachment; filename="Etude No. 1 Dia.txt"; filename*=UTF-8''%C3%89tude%20%22No.%201%22%20D%C3%ADa.txt`,
    );
    expect(attachment('練習.mid')).toBe(
      `attachment; filename="lesson.mid"; filename*=UTF-8''%E7%B7%B4%E7%BF%92.mid`,
    );
  });

  it('answers an unknown job and a lesson still processing as the notes do', async () => {
    const unknown = await get(`/api/export?jobId=no-such-job&format=txt`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Job not found.' });
    const pending = (await submitUpload(server, other)).jobId;
    const notes = await get(`/api/notes?jobId=${pending}&edit_version=true`, other);
    const res = await get(`/api/export?jobId=${pending}&format=midi`, other);
    expect(res.status).toBe(notes.status);
    expect(await res.json()).toEqual(await notes.json());
  });

  it('gives a Guitar Pro 7 file that alphaTab reads back with the same strings and frets', async () => {
    const res = await get(`/api/export?jobId=${lesson}&format=gp&version=original`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-guitar-pro');
    expect(res.headers.get('content-disposition')).toContain('filename="Blues in A.gp"');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const score = importer.ScoreLoader.loadScoreFromBytes(bytes, new Settings());
    expect(score.title).toBe('Blues in A');
    const played = score.tracks[0]?.staves[0]?.bars.flatMap(
      (bar) =>
        bar.voices[0]?.beats.flatMap((beat) =>
          beat.notes
            .filter((n) => !n.isTieDestination)
            .map((n) => `${String(7 - n.string)}/${String(n.fret)}`),
        ) ?? [],
    );
    expect(played).toEqual(['3/2', '2/1', '2/3']);
  });

  it('gives MusicXML with the strings and frets of the tab', async () => {
    const res = await get(`/api/export?jobId=${lesson}&format=musicxml&version=original`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.recordare.musicxml+xml');
    expect(res.headers.get('content-disposition')).toContain('filename="Blues in A.musicxml"');
    const xml = await res.text();
    expect(xml.startsWith('<?xml')).toBe(true);
    const frets = [...xml.matchAll(/<string>(\d)<\/string><fret>(\d+)<\/fret>/g)].map(
      (m) => `${m[1] ?? ''}/${m[2] ?? ''}`,
    );
    // Each note twice (notation staff and tab staff both carry string and fret) or once.
    expect([...new Set(frets)]).toEqual(['3/2', '2/1', '2/3']);
  });

  it('refuses a bad job id, format or version with 400', async () => {
    const cases: [string, string][] = [
      [`format=midi`, 'Please enter a valid Job ID'],
      [`jobId=${lesson}&format=pdf`, 'Please choose an export format: gp, musicxml, midi or txt.'],
      [`jobId=${lesson}`, 'Please choose an export format: gp, musicxml, midi or txt.'],
      [`jobId=${lesson}&format=txt&version=latest`, "The version must be 'original' or 'edited'."],
    ];
    for (const [query, error] of cases) {
      const res = await get(`/api/export?${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toEqual({ error });
    }
  });
});
