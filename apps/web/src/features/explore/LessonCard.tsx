import { lessonDisplayName, type ExploreItem } from '@riffscribe/core';
import { Link } from 'react-router';
import { Icon } from '../../ui/Icon';
import { Stars } from '../../ui/Stars';
import { formatClock, plural } from './format';
import { Thumbnail } from './Thumbnail';

/** One shared lesson: thumbnail, name, @handle, average rating with count, and opens. */
export function LessonCard(props: { item: ExploreItem }) {
  const { item } = props;
  const name = lessonDisplayName(item.projectName, null, item.fileName);
  return (
    <li className="lesson-card">
      <Link to={`/lesson/${encodeURIComponent(item.jobId)}`} className="lesson-card-link">
        <Thumbnail url={item.thumbnailUrl} badge={formatClock(item.duration)} />
        <div className="lesson-card-body">
          <h2 className="lesson-card-title">{name}</h2>
          <p className="lesson-card-owner">@{item.ownerUsername}</p>
          <div className="lesson-card-meta">
            <Stars average={item.stars} count={item.starsCount} />
            <span className="lesson-card-opens">
              <Icon name="eye" size={16} /> {plural(item.loadsCount, 'open')}
            </span>
          </div>
        </div>
      </Link>
    </li>
  );
}
