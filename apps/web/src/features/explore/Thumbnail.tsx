import { Icon } from '../../ui/Icon';

/** A lesson's thumbnail, or a tab-lines placeholder when the lesson has none. */
export function Thumbnail(props: { url: string | null; badge?: string | null }) {
  const { url, badge } = props;
  return (
    <div className="thumb">
      {url ? (
        <img src={url} alt="" loading="lazy" />
      ) : (
        <div className="thumb-placeholder" aria-hidden="true">
          <Icon name="music" size={28} />
        </div>
      )}
      {badge ? <span className="thumb-badge">{badge}</span> : null}
    </div>
  );
}
