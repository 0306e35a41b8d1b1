import type { ChordEvent, NoteEvent, Tuning } from '@riffscribe/core';
import { useSyncExternalStore } from 'react';
import { notePitch } from '../model/lesson';
import type { PlaybackBus } from '../playback/playbackBus';
import { bendLabel, bendSemitones } from '../timeline/glyphs';
import { noteName } from '../tuner/tunerMath';

/** Technique words for a note, as a teacher would say them. */
function techniques(n: NoteEvent): string[] {
  const out: string[] = [];
  const bend = bendLabel(bendSemitones(n));
  if (bend) out.push(`bend ${bend}${n.release_to_fret !== null ? ' + release' : ''}`);
  if (n.vibrato) out.push(`${n.vibrato} vibrato`);
  if (n.leading_slide || n.trailing_slide) out.push('slide');
  if (n.leading_hammer_on) out.push('hammer-on');
  if (n.leading_pull_off) out.push('pull-off');
  return out;
}

/** The panel of currently sounding notes (and the chord over them), updated as they change. */
export function SoundingNotes(props: {
  bus: PlaybackBus;
  notes: readonly NoteEvent[];
  chords: readonly ChordEvent[];
  chordText: (c: ChordEvent) => string;
  tuning: Tuning;
  capo: number;
}) {
  const { bus, notes, chords, chordText, tuning, capo } = props;
  const sounding = useSyncExternalStore(bus.subscribe, bus.getSounding);
  const tenths = useSyncExternalStore(bus.subscribe, bus.getTenths);
  const t = tenths / 10;
  const chord = chords.find((c) => c.time <= t + 0.05 && t < c.end_time);
  // High e first, as the strings lie on the tab and the fretboard.
  const ordered = [...sounding].sort(
    (a, b) => (notes[a]?.string ?? 0) - (notes[b]?.string ?? 0) || a - b,
  );
  return (
    <section className="lp-sounding" aria-label="Sounding notes" aria-live="off">
      <h2>
        Now playing
        {chord && <span className="lp-sounding-chord">{chordText(chord)}</span>}
      </h2>
      {sounding.length === 0 ? (
        <p className="lp-quiet">—</p>
      ) : (
        <ul>
          {ordered.map((i) => {
            const n = notes[i];
            if (!n) return null;
            return (
              <li key={i} data-testid="sounding-note" data-string={n.string} data-fret={n.fret}>
                <span className="lp-chip-fret">{n.mute ? 'X' : n.fret}</span>
                <span>
                  String {n.string}
                  <small> {n.mute ? 'muted' : noteName(notePitch(n, tuning, capo))}</small>
                </span>
                {techniques(n).map((w) => (
                  <em key={w}>{w}</em>
                ))}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
