import { useParams } from 'react-router';

/** The lesson page at /lesson/:jobId (the tab player replaces this while it is being built). */
export function LessonRoute() {
  const { jobId = '' } = useParams();
  return (
    <main className="main">
      <p>Lesson {jobId}</p>
    </main>
  );
}
