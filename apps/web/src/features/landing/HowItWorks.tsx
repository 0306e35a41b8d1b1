import { Icon, type IconName } from '../../ui/Icon';

const STEPS: readonly { icon: IconName; title: string; text: string }[] = [
  {
    icon: 'upload',
    title: 'Upload Video',
    text: 'Upload or record a clip in high quality, with the fretboard fully visible from nut to body.',
  },
  {
    icon: 'spark',
    title: 'AI Processing',
    text: 'Our AI finds every note, string and fret, plus bends, vibrato, slides and chords. It takes about 4 minutes.',
  },
  {
    icon: 'play',
    title: 'Get Results',
    text: 'Open a tab player with advanced features: synced video, looping, slow-down, editing and sharing.',
  },
];

/** The three steps of the landing page (anchor #how-it-works). */
export function HowItWorks() {
  return (
    <section id="how-it-works" className="section how" aria-labelledby="how-title">
      <p className="eyebrow">How it works</p>
      <h2 id="how-title" className="section-title">
        From a phone clip to a playable lesson
      </h2>
      <ol className="steps">
        {STEPS.map((step, i) => (
          <li key={step.title} className="step-card">
            <span className="step-number" aria-hidden="true">
              {String(i + 1).padStart(2, '0')}
            </span>
            <span className="step-icon" aria-hidden="true">
              <Icon name={step.icon} size={22} />
            </span>
            <h3>{step.title}</h3>
            <p>{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
