import { describe, expect, it } from 'vitest';
import { INITIAL_WIZARD, wizardReducer, type ChosenVideo } from './wizardState';

const video: ChosenVideo = {
  file: new File([new Uint8Array(4)], 'riff.mp4', { type: 'video/mp4' }),
  durationSeconds: 12,
  source: 'file',
};

describe('upload wizard steps (spec section 4)', () => {
  it('needs a file before leaving the upload step', () => {
    const s = wizardReducer(INITIAL_WIZARD, { type: 'next' });
    expect(s).toMatchObject({ step: 'upload', error: 'Please select a file to upload.' });
  });

  it('goes upload -> config -> playing-type, Back returns one step', () => {
    let s = wizardReducer(INITIAL_WIZARD, { type: 'chose', video });
    expect(s.step).toBe('config');
    s = wizardReducer(s, { type: 'next' });
    expect(s.step).toBe('playing-type');
    s = wizardReducer(s, { type: 'next' });
    expect(s.step).toBe('playing-type');
    s = wizardReducer(s, { type: 'back' });
    expect(s.step).toBe('config');
    s = wizardReducer(s, { type: 'back' });
    expect(s.step).toBe('upload');
    expect(wizardReducer(s, { type: 'next' }).step).toBe('config');
  });

  it('an invalid file clears the chosen one; reset clears everything', () => {
    let s = wizardReducer(INITIAL_WIZARD, { type: 'chose', video });
    s = wizardReducer(s, { type: 'choices', choices: { capo: 4 } });
    s = wizardReducer(s, { type: 'back' });
    s = wizardReducer(s, { type: 'invalid', message: 'nope' });
    expect(s).toMatchObject({ video: null, error: 'nope', choices: { capo: 4 } });
    expect(wizardReducer(s, { type: 'reset' })).toEqual(INITIAL_WIZARD);
  });
});
