import { useParams } from 'react-router';
import { LessonPlayer } from './LessonPlayer';

/** The lesson page at /lesson/:jobId. */
export function LessonRoute() {
  const { jobId = '' } = useParams();
  return <LessonPlayer key={jobId} jobId={jobId} />;
}
