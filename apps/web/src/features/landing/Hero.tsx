import { Link } from 'react-router';
import { Icon } from '../../ui/Icon';
import { HeroVisual } from './HeroVisual';

/** The landing headline, its promise and the ways in. */
export function Hero() {
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="hero-copy">
        <p className="eyebrow">
          <Icon name="spark" size={16} /> AI guitar tabs from your own video
        </p>
        <h1 id="hero-title">You just play, we do the rest</h1>
        <p className="lead">
          Film yourself playing. Riffscribe turns the video into an animated tab lesson with notes,
          chords, bends, vibrato and mutes, synced to every frame.
        </p>
        <div className="hero-actions">
          <a className="button large" href="#upload">
            <Icon name="upload" size={18} /> Upload a video
          </a>
          <a className="button secondary large" href="#how-it-works">
            How it works
          </a>
        </div>
        <Link className="explore-link" to="/explore">
          Explore Available Lessons <Icon name="arrowRight" size={16} />
        </Link>
      </div>
      <HeroVisual />
    </section>
  );
}
