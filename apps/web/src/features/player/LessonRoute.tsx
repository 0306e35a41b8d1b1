import { useParams, useSearchParams } from 'react-router';
import { LessonPlayer } from './LessonPlayer';

/**
 * The lesson page at /lesson/:jobId. A share link adds `jobId` and `version` (spec: Copy share
 * link); `version=original` opens on the AI's tab instead of the edited one.
 */
export function LessonRoute() {
  const { jobId = '' } = useParams();
  const [params] = useSearchParams();
  const version = params.get('version') === 'original' ? 'original' : 'edited';
  return <LessonPlayer key={jobId} jobId={jobId} initialTabSource={version} />;
}
