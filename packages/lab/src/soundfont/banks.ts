/**
 * SoundFonts of the generated training material: other General MIDI banks than the evaluation's
 * FluidR3_GM (Debian's timgm6mb-soundfont, csound-soundfont, musescore-general-soundfont-small),
 * so that the SoundFont parts of `npm run eval` stay a synthesizer the learned models (the note
 * refiner, the technique gate) never heard.
 */
export const MATERIAL_SOUNDFONTS = [
  '/usr/share/sounds/sf2/TimGM6mb.sf2',
  '/usr/share/sounds/sf2/sf_GMbank.sf2',
  '/usr/share/sounds/sf3/MuseScore_General_Lite.sf3',
] as const;
